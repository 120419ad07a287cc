// A recording being transcribed: the library row and the transcript view say the stage, percent and
// (once the measured speed tells) the time left; the opened transcription already shows its waveform
// and plays, and the transcript appears when it completes, without a reload. Real speech goes through
// the real server (upload, decoding, queue, job runner, progress, storage, HTTP) and the app's polling;
// only recognition is scripted (test/support/scripted-speech-engine.ts), so that the test moves it on
// step by step and every running state is seen for certain, instead of racing a real recognizer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { audioDuration, concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import {
  ScriptedSpeechEngine,
  scriptedEngineRegistry,
  type ScriptedPhrase,
  type ScriptedRun,
} from '../support/scripted-speech-engine.js';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { inProcessServer } from './host/in-process-server.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

const FIRST = 'please send the report to the marketing team by friday';
const SECOND = 'the budget meeting moved to next week';
const PAUSE_SECONDS = 1;

const engine = new ScriptedSpeechEngine();
let host: Host;
let wav: string;
let spoken: ScriptedPhrase[];

test.beforeAll(async () => {
  host = await startHost({ server: inProcessServer({ engines: scriptedEngineRegistry(engine) }) });
  const first = await synthesizeSpeech(FIRST);
  const second = await synthesizeSpeech(SECOND);
  wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-progress-')), 'long-meeting.wav');
  fs.copyFileSync(await concatWithSilence([first, second], PAUSE_SECONDS), wav);
  // What the recognizer will have heard: the two sentences where they are in the recording.
  const firstEnd = await audioDuration(first);
  const secondStart = firstEnd + PAUSE_SECONDS;
  spoken = [
    { text: FIRST, start: 0, end: firstEnd },
    { text: SECOND, start: secondStart, end: secondStart + (await audioDuration(second)) },
  ];
});
test.afterAll(async () => host?.close());

/**
 * Moves recognition on and waits until the row says so. The time left needs seconds of measured speed
 * (src-shared/eta.ts): the page's clock is moved on over them instead of waiting them out.
 */
async function recognized(run: ScriptedRun, fraction: number, status: Locator, text: RegExp | string) {
  run.progress(fraction);
  await expect(status).toHaveText(text);
}

/** Lets the page's clock run past the time the estimate waits for, until it shows one. */
async function timePassesUntilShown(page: Page, eta: Locator, text: RegExp) {
  await expect(async () => {
    await page.clock.fastForward(5_000);
    await expect(eta).toHaveText(text, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test('a running transcription says its stage, percent and time left, plays meanwhile, and fills in when done', async ({
  page,
}) => {
  await page.clock.install();
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.dropFile(wav);
  await expect(library.upload('long-meeting.wav')).toHaveAttribute('data-state', 'done');
  // The server has decoded the audio and started recognizing it.
  const run = await engine.nextRun();

  // The row: "Recognizing speech · N%", the bar, then "about N min left" once there is a speed to go by.
  const row = library.row('long-meeting.wav');
  const line = row.getByTestId('progress-line');
  const eta = line.locator('.progress-eta');
  // 20% of recognition, which has 90% of the bar after decoding's 10%: 28%.
  await recognized(run, 0.2, line.locator('.status'), /^Recognizing speech · 28%$/);
  await expect(line).toHaveAttribute('data-stage', 'recognizing');
  await expect(line.locator('.status')).toHaveText(/^Recognizing speech · \d+%$/);
  await expect(row.getByRole('progressbar', { name: 'Progress of long-meeting.wav' })).toBeVisible();
  // No speed measured yet, so no guess at the time left.
  await expect(eta).toHaveCount(0);
  await page.clock.fastForward(5_000);
  await recognized(run, 0.3, line.locator('.status'), /^Recognizing speech · 37%$/);
  await timePassesUntilShown(page, eta, /^(about \d+ min|less than a minute) left$/);
  await expect(row).toHaveAttribute('data-status', 'IN_PROGRESS');
  await screenshot(page, 'progress-row');

  // Opened while running: the waveform is drawn and the recording plays; the stage line is there.
  await row.click();
  const transcript = new TranscriptPage(page);
  await expect(transcript.title).toHaveText('long-meeting.wav');
  const panel = page.getByTestId('running-panel');
  await expect(panel.getByTestId('progress-line')).toContainText(
    /Recognizing speech · \d+% · (about \d+ min|less than a minute) left/,
  );
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  await expect(transcript.play).toBeEnabled();
  await expect(transcript.words).toHaveCount(0);
  // Where the waveform is while running is where it stays once the lanes come with the transcript.
  const runningBox = await transcript.waveform.boundingBox();
  await screenshot(page, 'progress-transcript-running');

  // The same view in Japanese, still running.
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await library.goto(host.url);
  const rowJa = page.getByRole('button', { name: 'long-meeting.wav を開く' });
  const statusJa = rowJa.getByTestId('progress-line').locator('.status');
  const etaJa = rowJa.getByTestId('progress-line').locator('.progress-eta');
  await expect(statusJa).toHaveText(/^音声を認識中 · \d+%$/);
  // A reload starts the estimate again: it waits for a speed to go by, as the first one did.
  await expect(etaJa).toHaveCount(0);
  await page.clock.fastForward(5_000);
  await recognized(run, 0.5, statusJa, /^音声を認識中 · 55%$/);
  await timePassesUntilShown(page, etaJa, /^残り(約\d+分|1分未満)$/);
  await screenshot(page, 'progress-row-ja');
  await rowJa.click();
  await expect(page.getByTestId('running-panel')).toContainText(/音声を認識中 · \d+% · 残り(約\d+分|1分未満)/);
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  await screenshot(page, 'progress-transcript-running-ja');

  // Done: the transcript fills in where the status was, with no reload, and the player stays.
  run.finish(spoken);
  await expect(transcript.words.first()).toBeVisible();
  await expect(page.getByTestId('running-panel')).toHaveCount(0);
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget|report|meeting/i);
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  const doneBox = await transcript.waveform.boundingBox();
  expect(Math.abs(doneBox!.x - runningBox!.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(doneBox!.width - runningBox!.width)).toBeLessThanOrEqual(1);
  await screenshot(page, 'progress-transcript-done-ja');
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
});
