// Record from the microphone (decision 0027). Chromium's fake capture device plays a WAV of real speech
// as the microphone; the recording goes through main into the cache, uploads through the same queue as
// a dropped file, and completes on the real server with a transcript. With the server stopped the
// upload fails, the recording stays on disk, and trying again completes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

const CHROMIUM = process.env.KIKITORI_CHROMIUM || '/usr/bin/chromium';

let host: Host;
let dir: string;
let wav: string;
let browser: Browser;

test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-record-'));
  wav = await meetingWav(dir, 'microphone.wav');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
    ],
  });
});
test.afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function openPage(): Promise<{ page: Page; library: LibraryPage }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 880 } });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  return { page, library };
}

/** The recording files kept in the profile's cache: recordings/<id>/<name>. */
function keptFiles(): Array<{ name: string; size: number }> {
  const root = path.join(host.profileDir, 'recordings');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .flatMap((id) =>
      fs.readdirSync(path.join(root, id)).map((name) => ({ name, size: fs.statSync(path.join(root, id, name)).size })),
    );
}

const level = (page: Page) =>
  page.getByTestId('level-meter').evaluate((meter) => Number((meter as HTMLElement).dataset.level));

/** Records until the timer reads at least `seconds`, pausing and resuming once on the way. */
async function recordFor(page: Page, seconds: number) {
  const panel = page.getByTestId('record-panel');
  await panel.getByTestId('record-start').click();
  await expect(panel).toHaveAttribute('data-phase', 'recording');
  await panel.getByTestId('record-pause').click();
  await expect(panel).toHaveAttribute('data-phase', 'paused');
  await panel.getByTestId('record-resume').click();
  await expect(panel).toHaveAttribute('data-phase', 'recording');
  await expect
    .poll(async () => timerSeconds(await panel.getByTestId('record-timer').innerText()), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(seconds);
}

function timerSeconds(text: string): number {
  const [minutes, seconds] = text.split(':').map(Number);
  return minutes! * 60 + seconds!;
}

test('a recording shows its level and time, uploads like a dropped file and completes with a transcript', async () => {
  const { page, library } = await openPage();
  await page.getByTestId('record-button').click();
  const panel = page.getByTestId('record-panel');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await expect(panel.getByTestId('record-state')).toHaveText('Ready. Speak to check the level, then start recording.');
  // The fake microphone plays speech: the meter moves before recording starts.
  await expect.poll(() => level(page), { timeout: 30_000 }).toBeGreaterThan(0.05);
  await screenshot(page, 'record-ready');

  await recordFor(page, 6);
  await expect.poll(() => level(page)).toBeGreaterThan(0.05);
  await expect(panel.getByTestId('record-state')).toHaveText('Recording…');
  // Chunks reach the cache while recording.
  await expect.poll(() => keptFiles()[0]?.size ?? 0).toBeGreaterThan(0);
  // Its name now: once stopped it uploads, and the file goes as soon as the transcription has the audio.
  const name = keptFiles()[0]?.name ?? '';
  await screenshot(page, 'record-recording');

  await panel.getByTestId('record-stop').click();
  await expect(panel).toBeHidden();
  expect(name).toMatch(/^Recording \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}\.webm$/);
  await expect(library.upload(name)).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  const row = library.row(name);
  await expect(row).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  await screenshot(page, 'record-completed');
  // The transcription keeps its own copy of the audio: the recording is no longer needed.
  expect(keptFiles()).toEqual([]);

  await row.click();
  await new TranscriptPage(page).expectLoaded(name);
  await expect(page.getByTestId('transcript-pane')).toContainText(/report|marketing|team|friday|budget|meeting/i);
  await page.close();
});

test("the microphone and this computer's sound are recorded mixed (decision 0082), and the speech is transcribed", async () => {
  const { page, library } = await openPage();
  await page.getByTestId('record-button').click();
  const panel = page.getByTestId('record-panel');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  // Chromium's fake screen share brings a sound of its own; the fake microphone plays the speech.
  await panel.getByTestId('record-source').selectOption('both');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await expect(panel.getByTestId('record-source')).toHaveValue('both');
  await expect.poll(() => level(page), { timeout: 30_000 }).toBeGreaterThan(0.05);
  await screenshot(page, 'record-both');
  await recordFor(page, 6);
  await expect.poll(() => keptFiles()[0]?.size ?? 0).toBeGreaterThan(0);
  const name = keptFiles()[0]!.name;
  await panel.getByTestId('record-stop').click();
  await expect(panel).toBeHidden();
  const row = library.row(name);
  await expect(row).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  await row.click();
  await new TranscriptPage(page).expectLoaded(name);
  await expect(page.getByTestId('transcript-pane')).toContainText(/report|marketing|team|friday|budget|meeting/i);
  await page.close();
});

test('with the server stopped the upload fails, the recording is kept, and trying again completes it', async () => {
  const { page, library } = await openPage();
  await host.stopServer();
  await page.getByTestId('record-button').click();
  const panel = page.getByTestId('record-panel');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await recordFor(page, 3);
  await panel.getByTestId('record-stop').click();
  await expect(panel).toBeHidden();

  const [kept] = keptFiles();
  expect(kept!.size).toBeGreaterThan(0);
  const upload = library.upload(kept!.name);
  await expect(upload.locator('.upload-error')).toBeVisible({ timeout: 60_000 });
  await expect(upload).not.toHaveAttribute('data-state', 'done');
  const retry = upload.getByRole('button', { name: `Try uploading ${kept!.name} again` });
  await expect(retry).toBeVisible();
  await screenshot(page, 'record-upload-failed');

  // Still unreachable: the attempt fails again, and the recording is still there.
  await retry.click();
  await expect(upload.locator('.upload-error')).toBeVisible();
  expect(keptFiles()).toEqual([kept]);

  await host.restartServer();
  // Back online, the waiting upload is tried again (the button tries at once, if it is still shown).
  await retry.click({ timeout: 5_000 }).catch(() => {});
  await expect(upload).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(library.row(kept!.name)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  expect(keptFiles()).toEqual([]);
  await page.close();
});

test('in Japanese: the panel reads naturally, and Discard deletes the take', async () => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const { page } = await openPage();
  await page.getByTestId('record-button').click();
  const panel = page.getByTestId('record-panel');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await expect(panel.getByRole('heading')).toHaveText('録音');
  await expect.poll(() => level(page), { timeout: 30_000 }).toBeGreaterThan(0.05);
  await screenshot(page, 'record-ready-ja');
  await recordFor(page, 2);
  await expect(panel.getByTestId('record-state')).toHaveText('録音中…');
  await screenshot(page, 'record-recording-ja');
  await expect.poll(() => keptFiles().length).toBe(1);
  // Named in the interface's language: the name becomes the transcription's.
  expect(keptFiles()[0]!.name).toMatch(/^録音 \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}\.webm$/);

  // Discard asks first: No keeps the recording going, Yes deletes it.
  const prompts: string[] = [];
  page.once('dialog', (dialog) => {
    prompts.push(dialog.message());
    void dialog.dismiss();
  });
  await panel.getByTestId('record-discard').click();
  await expect.poll(() => prompts.length).toBe(1);
  await expect(panel).toHaveAttribute('data-phase', 'recording');
  expect(keptFiles()).toHaveLength(1);
  page.once('dialog', (dialog) => {
    prompts.push(dialog.message());
    void dialog.accept();
  });
  await panel.getByTestId('record-discard').click();
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  expect(keptFiles()).toEqual([]);
  expect(prompts[0]).toContain('この録音を破棄しますか');
  await panel.getByRole('button', { name: '閉じる' }).click();
  await expect(panel).toBeHidden();
  await page.close();
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
});

test('a refused microphone says what to do, in English and Japanese', async () => {
  // The same browser without the fake permission prompt: it refuses every prompt, as a user who said no.
  const refusing = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--deny-permission-prompts'],
  });
  try {
    for (const [language, text] of [
      ['en', 'Kikitori may not use the microphone.'],
      ['ja', 'Kikitori にマイクの使用が許可されていません。'],
    ] as const) {
      expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
      const page = await refusing.newPage({ viewport: { width: 1360, height: 880 } });
      await new LibraryPage(page).goto(host.url);
      await page.getByTestId('record-button').click();
      const problem = page.getByTestId('record-problem');
      await expect(problem).toHaveAttribute('data-problem', 'denied');
      await expect(problem).toContainText(text);
      await screenshot(page, language === 'en' ? 'record-denied' : 'record-denied-ja');
      await page.close();
    }
  } finally {
    await refusing.close();
    expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  }
});
