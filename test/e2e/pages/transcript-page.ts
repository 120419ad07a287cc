import { expect, type Locator, type Page } from '@playwright/test';

export class TranscriptPage {
  readonly view: Locator;
  readonly title: Locator;
  readonly waveform: Locator;
  readonly words: Locator;
  readonly time: Locator;
  readonly audio: Locator;
  readonly play: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('transcript-view');
    this.title = page.getByTestId('transcript-title');
    this.waveform = page.getByTestId('waveform');
    this.words = page.getByTestId('word');
    this.time = page.getByTestId('player-time');
    this.audio = page.getByTestId('audio');
    this.play = page.getByTestId('play-button');
  }

  async expectLoaded(name: string) {
    await expect(this.title).toHaveText(name);
    await expect(this.waveform).toHaveAttribute('data-drawn', 'true');
    await expect(this.words.first()).toBeVisible();
  }

  async currentTime(): Promise<number> {
    return this.audio.evaluate((element) => (element as HTMLAudioElement).currentTime);
  }

  word(text: string): Locator {
    return this.words.filter({ hasText: new RegExp(`^${text}$`, 'i') }).first();
  }

  analysisTab(name: 'Summary' | 'Emotion' | 'Translation'): Locator {
    return this.page.getByRole('tab', { name });
  }
}
