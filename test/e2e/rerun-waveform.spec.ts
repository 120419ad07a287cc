// "Transcribe again" in place (decision 0062) keeps the recording's waveform drawn while the new
// transcription runs: the audio has not changed, only its transcript will. Recognition is scripted
// (test/support/scripted-speech-engine.ts) so the test holds the second run open while it looks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { audioDuration, concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import {
  ScriptedSpeechEngine,
  scriptedEngineRegistry,
  type ScriptedPhrase,
} from '../support/scripted-speech-engine.js';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { inProcessServer } from './host/in-process-server.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

const NAME = 'rerun-meeting.wav';
const FIRST = 'please send the report to the marketing team by friday';
const SECOND = 'the budget meeting moved to next week';

const engine = new ScriptedSpeechEngine();
let host: Host;
let wav: string;
let spoken: ScriptedPhrase[];

test.beforeAll(async () => {
  host = await startHost({ server: inProcessServer({ engines: scriptedEngineRegistry(engine) }) });
  const first = await synthesizeSpeech(FIRST);
  const second = await synthesizeSpeech(SECOND);
  wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-rerun-waveform-')), NAME);
  fs.copyFileSync(await concatWithSilence([first, second], 1), wav);
  const firstEnd = await audioDuration(first);
  spoken = [
    { text: FIRST, start: 0, end: firstEnd },
    { text: SECOND, start: firstEnd + 1, end: firstEnd + 1 + (await audioDuration(second)) },
  ];
});
test.afterAll(async () => host?.close());

/** The waveform's drawn pixels: wavesurfer draws on canvases in its shadow root. */
const inkedPixels = (page: Page) =>
  page.getByTestId('waveform').evaluate((element) => {
    const root = element.firstElementChild?.shadowRoot ?? element.shadowRoot;
    let inked = 0;
    for (const canvas of root?.querySelectorAll('canvas') ?? []) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) inked++;
    }
    return inked;
  });

const TEXT = {
  en: { open: `Open ${NAME}`, dialog: `Transcribe “${NAME}” again` },
  ja: { open: `${NAME} を開く`, dialog: `「${NAME}」をもう一度文字起こし` },
} as const;

for (const language of ['en', 'ja'] as const)
  test(`transcribing again in place keeps the waveform drawn while it runs (${language})`, async ({ page }) => {
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    const library = new LibraryPage(page);
    await library.goto(host.url);
    if (language === 'en') {
      await library.dropFile(wav);
      (await engine.nextRun()).finish(spoken);
    }
    await expect(page.getByRole('button', { name: TEXT[language].open })).toHaveAttribute('data-status', 'COMPLETED');
    await page.getByRole('button', { name: TEXT[language].open }).click();
    const transcript = new TranscriptPage(page);
    await transcript.expectLoaded(NAME);
    const before = await inkedPixels(page);
    expect(before).toBeGreaterThan(0);

    await page.getByTestId('transcribe-again').click();
    const dialog = page.getByRole('dialog', { name: TEXT[language].dialog });
    await dialog.getByTestId('rerun-submit').click();
    await expect(dialog).toBeHidden();
    const run = await engine.nextRun();
    await expect(page.getByTestId('running-strip').or(page.getByTestId('running-panel'))).toBeVisible();
    run.progress(0.3);
    // Running: the same recording, still drawn.
    await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
    await expect.poll(() => inkedPixels(page)).toBeGreaterThan(before / 2);
    expect((await transcript.waveform.boundingBox())!.height).toBeGreaterThan(20);
    await screenshot(page, `rerun-waveform-running-${language}`);

    // Opened again while it runs (from the library, or after a restart): drawn as well.
    await library.goto(host.url);
    await page.getByRole('button', { name: TEXT[language].open }).click();
    await expect(transcript.title).toHaveText(NAME);
    await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
    await expect.poll(() => inkedPixels(page)).toBeGreaterThan(before / 2);
    await screenshot(page, `rerun-waveform-reopened-${language}`);

    run.finish(spoken);
    await expect(page.getByTestId('running-strip')).toHaveCount(0);
    await expect(page.getByTestId('running-panel')).toHaveCount(0);
    await expect(transcript.words.first()).toBeVisible();
    await expect.poll(() => inkedPixels(page)).toBeGreaterThan(before / 2);
  });
