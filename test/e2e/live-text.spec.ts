// Live text while recording (decision 0073). Chromium's fake microphone plays real speech; the renderer
// sends 16 kHz PCM to main, main streams it to the real server's GET /v1/realtime, and the panel shows the
// words as they are heard: greyed while partial, plain once final, all before Stop. With the server
// stopped mid-recording the live text pauses and the recording goes on; when the server is back it resumes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config.js';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

const CHROMIUM = process.env.KIKITORI_CHROMIUM || '/usr/bin/chromium';
const KEY_WORDS = /report|marketing|team|friday|budget|meeting|week/i;

let host: Host;
let dir: string;
let browser: Browser;

test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-live-'));
  const wav = await meetingWav(dir, 'microphone.wav');
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
  // Discard asks first (record.spec checks the question); these tests mean it.
  page.on('dialog', (dialog) => void dialog.accept());
  const library = new LibraryPage(page);
  await library.goto(host.url);
  return { page, library };
}

/**
 * Notes, in order, each time the live text shows a partial or a new final turn: a partial can last a
 * fraction of a second, shorter than an assertion's polling, so the page itself keeps the record.
 */
async function watchLiveText(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { liveSeen: string[] }).liveSeen = seen;
    let finals = 0;
    new MutationObserver(() => {
      const partial = document.querySelector('[data-testid="live-partial"]')?.textContent ?? '';
      const count = document.querySelectorAll('[data-testid="live-final"]').length;
      if (partial.trim() !== '' && seen.at(-1) !== `partial:${partial}`) seen.push(`partial:${partial}`);
      if (count > finals) {
        finals = count;
        seen.push(`final:${document.querySelectorAll('[data-testid="live-final"]')[count - 1]!.textContent ?? ''}`);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Opens the record panel and starts recording once it is ready (`beforeStart` runs just before); waits for live text. */
async function recordLive(page: Page, beforeStart: () => Promise<void> = async () => {}) {
  await page.getByTestId('record-button').click();
  const panel = page.getByTestId('record-panel');
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await beforeStart();
  await panel.getByTestId('record-start').click();
  const live = panel.getByTestId('live-text');
  await expect(live).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  return { panel, live };
}

const liveSeen = (page: Page) => page.evaluate(() => (window as unknown as { liveSeen: string[] }).liveSeen);

test('while recording, partial words show greyed, then final words plain, before Stop; the recording uploads as before', async () => {
  const { page, library } = await openPage();
  const { panel } = await recordLive(page, () => watchLiveText(page));

  // The fake microphone loops from any point, and a reconnect cuts a turn: some turns are fragments.
  await expect(panel.getByTestId('live-final').filter({ hasText: KEY_WORDS }).first()).toBeVisible({ timeout: 60_000 });
  const seen = await liveSeen(page);
  const firstPartial = seen.findIndex((entry) => entry.startsWith('partial:'));
  const firstFinal = seen.findIndex((entry) => entry.startsWith('final:'));
  expect(firstPartial).toBeGreaterThanOrEqual(0);
  expect(firstPartial).toBeLessThan(firstFinal);
  // Partial words are greyed, final ones are not.
  const colours = await page.evaluate(() => ({
    text: getComputedStyle(document.querySelector('.record-live-text')!).color,
    muted: getComputedStyle(document.documentElement).getPropertyValue('--muted').trim(),
  }));
  expect(
    await panel
      .getByTestId('live-final')
      .first()
      .evaluate((el) => getComputedStyle(el).color),
  ).toBe(colours.text);
  // The next sentence of the loop starts as partial words.
  await expect(panel.getByTestId('live-partial')).toBeVisible({ timeout: 60_000 });
  expect(await panel.getByTestId('live-partial').evaluate((el) => getComputedStyle(el).color)).not.toBe(colours.text);
  await screenshot(page, 'live-text');

  // Stop: the live session ends and the recording is transcribed like any other.
  const recordings = path.join(host.profileDir, 'recordings');
  const [name] = fs.readdirSync(recordings).flatMap((id) => fs.readdirSync(path.join(recordings, id)));
  expect(name).toMatch(/^Recording .*\.webm$/);
  await panel.getByTestId('record-stop').click();
  await expect(panel).toBeHidden();
  await expect(library.upload(name!)).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(library.row(name!)).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  await page.close();
});

test('the server stopped mid-recording pauses live text, the recording goes on, and live text resumes when it is back', async () => {
  const { page } = await openPage();
  const { panel, live } = await recordLive(page);

  await host.stopServer();
  await expect(live).toHaveAttribute('data-state', 'paused', { timeout: 30_000 });
  await expect(panel.getByTestId('live-note')).toContainText('Live text is paused');
  await expect(panel).toHaveAttribute('data-phase', 'recording');
  await screenshot(page, 'live-text-paused');
  const before = await panel.getByTestId('live-final').count();

  await host.restartServer();
  await expect(live).toHaveAttribute('data-state', 'live', { timeout: 60_000 });
  // Words heard after the server came back (a reconnect cuts a turn: some turns are fragments).
  await expect
    .poll(async () => (await panel.getByTestId('live-final').allInnerTexts()).slice(before).join(' '), {
      timeout: 60_000,
    })
    .toMatch(KEY_WORDS);
  // Nothing was lost: the recording went on through the gap.
  await expect(panel).toHaveAttribute('data-phase', 'recording');
  await panel.getByTestId('record-discard').click();
  await expect(panel).toHaveAttribute('data-phase', 'ready');
  await page.close();
});

test('in Japanese: live text and its notes read naturally', async () => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  try {
    const { page } = await openPage();
    const { panel } = await recordLive(page);
    // The fake microphone loops from any point, and a reconnect cuts a turn: some turns are fragments.
    await expect(panel.getByTestId('live-final').filter({ hasText: KEY_WORDS }).first()).toBeVisible({
      timeout: 60_000,
    });
    await expect(panel.getByTestId('live-text')).toContainText('停止すると');
    await screenshot(page, 'live-text-ja');
    await host.stopServer();
    await expect(panel.getByTestId('live-note')).toContainText('ライブ文字起こしを一時停止', { timeout: 30_000 });
    await screenshot(page, 'live-text-paused-ja');
    await host.restartServer();
    await panel.getByTestId('record-discard').click();
    await expect(panel).toHaveAttribute('data-phase', 'ready');
    await page.close();
  } finally {
    expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  }
});

test('a voice of the team is named in live text where the speaker changes, in English and Japanese', async () => {
  // The team learns the microphone's voice from an earlier recording of it, as "This is…" does.
  const earlier = path.join(dir, 'earlier.wav');
  fs.copyFileSync(path.join(dir, 'microphone.wav'), earlier);
  await uploadCompleted(host, earlier, { numSpeakers: 1 });
  const list = (await host.invoke('transcripts:list', {})) as {
    value: { items: Array<{ id: string; name: string }> };
  };
  const id = list.value.items.find((t) => t.name === 'earlier.wav')!.id;
  const detail = (await host.invoke('transcripts:get', { id })) as {
    value: { document: { segments: Array<{ speaker: string | null }> } };
  };
  const speaker = detail.value.document.segments.find((s) => s.speaker)!.speaker!;
  expect(await host.invoke('voices:identify', { id, speaker, voice: { name: 'Alice' } })).toMatchObject({ ok: true });

  for (const [uiLanguage, name, shot] of [
    ['en', 'Alice:', 'live-text-voice'],
    ['ja', 'Alice：', 'live-text-voice-ja'],
  ] as const) {
    expect(await host.invoke('settings:update', { uiLanguage })).toMatchObject({ ok: true });
    const { page } = await openPage();
    const { panel } = await recordLive(page);
    await expect(panel.getByTestId('live-speaker').first()).toHaveText(name, { timeout: 60_000 });
    await screenshot(page, shot);
    await panel.getByTestId('record-discard').click();
    await expect(panel).toHaveAttribute('data-phase', 'ready');
    await page.close();
  }
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
});
