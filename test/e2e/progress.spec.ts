// A long recording being transcribed: the library row and the transcript view say the stage, percent
// and (once the measured speed tells) the time left; the opened transcription already shows its
// waveform and plays, and the transcript appears when it completes, without a reload. About 90 s of
// real speech keeps the built-in recognizer busy long enough for the running state to be seen; the
// test waits on states, never on time.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

const run = promisify(execFile);
let host: Host;
let longWav: string;

test.beforeAll(async () => {
  host = await startHost({ serverEnv: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
  const first = await synthesizeSpeech('please send the report to the marketing team by friday');
  const second = await synthesizeSpeech('the budget meeting moved to next week');
  const base = await concatWithSilence([first, second], 1);
  longWav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-progress-')), 'long-meeting.wav');
  // About four minutes of speech: long enough, even on an idle machine, to still be running through the
  // English and the Japanese checks below (the spec waits on states; it never measures time).
  await run('sox', [base, longWav, 'repeat', '33']);
});
test.afterAll(async () => host?.close());

test('a running transcription says its stage, percent and time left, plays meanwhile, and fills in when done', async ({
  page,
}) => {
  test.setTimeout(900_000);
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.dropFile(longWav);
  await expect(library.upload('long-meeting.wav')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });

  // The row: "Recognizing speech · N%", the bar, then "about N min left" once there is a speed to go by.
  const row = library.row('long-meeting.wav');
  const line = row.getByTestId('progress-line');
  await expect(line).toHaveAttribute('data-stage', 'recognizing', { timeout: 120_000 });
  await expect(line.locator('.status')).toHaveText(/^Recognizing speech · \d+%$/);
  await expect(row.getByRole('progressbar', { name: 'Progress of long-meeting.wav' })).toBeVisible();
  await expect(line.locator('.progress-eta')).toHaveText(/^(about \d+ min|less than a minute) left$/, {
    timeout: 120_000,
  });
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
  await expect(rowJa.getByTestId('progress-line').locator('.status')).toHaveText(/^音声を認識中 · \d+%$/);
  // A reload starts the estimate again: it waits for a speed to go by, as the first one did.
  await expect(rowJa.getByTestId('progress-line').locator('.progress-eta')).toHaveText(/^残り(約\d+分|1分未満)$/, {
    timeout: 120_000,
  });
  await screenshot(page, 'progress-row-ja');
  await rowJa.click();
  await expect(page.getByTestId('running-panel')).toContainText(/音声を認識中 · \d+% · 残り(約\d+分|1分未満)/);
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  await screenshot(page, 'progress-transcript-running-ja');

  // Done: the transcript fills in where the status was, with no reload, and the player stays.
  await expect(transcript.words.first()).toBeVisible({ timeout: 600_000 });
  await expect(page.getByTestId('running-panel')).toHaveCount(0);
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget|report|meeting/i);
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  const doneBox = await transcript.waveform.boundingBox();
  expect(Math.abs(doneBox!.x - runningBox!.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(doneBox!.width - runningBox!.width)).toBeLessThanOrEqual(1);
  await screenshot(page, 'progress-transcript-done-ja');
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
});
