// A very short file (the tryout's 0.2 seconds): the player says how long it is, not 0:00 / 0:00, and the
// waveform has its shape, not a solid slab of 10 buckets stretched over its width.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { TranscriptionSummary } from '../../src-shared/ipc-contract.js';
import { synthesizeSpeech } from '../support/audio-fixtures.js';
import { screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

const run = promisify(execFile);

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-short-audio-'));
  const speech = await synthesizeSpeech('yes');
  const wav = path.join(dir, 'blip.wav');
  // 0.2 s of the word, 16 kHz mono.
  await run('ffmpeg', ['-v', 'error', '-y', '-ss', '0.1', '-t', '0.2', '-i', speech, '-ac', '1', '-ar', '16000', wav]);
  await uploadCompleted(host, wav);
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const OPEN = { en: 'Open blip.wav', ja: 'blip.wav を開く' } as const;

for (const language of ['en', 'ja'] as const)
  test(`a 0.2-second file shows its length on the player and its shape in the waveform (${language})`, async ({
    page,
  }) => {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      await page.getByRole('button', { name: OPEN[language] }).click();
      const transcript = new TranscriptPage(page);
      await expect(transcript.title).toHaveText('blip.wav');
      await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
      await expect(transcript.time).toHaveText('0:00.0 / 0:00.2');
      await expect(transcript.waveform).toHaveAttribute('aria-valuemax', '0.2');

      // The waveform is drawn from a second's worth of buckets with the word's own rise and fall.
      const list = await host.invoke('transcripts:list', {});
      const item = (list.ok ? list.value.items : []).find((t: TranscriptionSummary) => t.name === 'blip.wav')!;
      const peaks = await host.invoke('audio:peaks', { id: item.id });
      if (!peaks.ok) throw new Error(JSON.stringify(peaks.error));
      const channel = peaks.value.peaks[0]!;
      expect(channel.length).toBe(2 * 50);
      const heights = Array.from({ length: channel.length / 2 }, (_, i) => channel[2 * i + 1]! - channel[2 * i]!);
      expect(Math.min(...heights)).toBeLessThan(Math.max(...heights) / 2);

      // Played to its end, the clock reads the whole length.
      await page.getByTestId('play-button').click();
      await expect(transcript.time).toHaveText('0:00.2 / 0:00.2');
      // and the button offers Play again (it showed Pause in an earlier screenshot, taken before the end).
      await expect(page.getByTestId('play-button')).toHaveAttribute('aria-pressed', 'false');
      await screenshot(page, `short-audio-${language}`);
    } finally {
      expect((await host.invoke('settings:update', { uiLanguage: 'en' })).ok).toBe(true);
    }
  });
