// Subtitles like a subtitle editor (issue 12): export SRT with subtitle options and read the file;
// the export menu's options in English and Japanese, screenshotted for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let wav: string;
test.beforeAll(async () => {
  host = await startHost();
  wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-subtitles-')));
});
test.afterAll(async () => host?.close());

/** "00:00:01,500" -> 1.5 */
const seconds = (time: string) =>
  time.split(/[:,]/).reduce((sum, part, k) => sum + Number(part) * [3600, 60, 1, 0.001][k]!, 0);

test('exports SRT cut by the subtitle options, and says how many subtitles read too fast', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.dropFile(wav);
  const row = library.row('team-meeting.wav');
  await expect(row).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  await row.click();
  await new TranscriptPage(page).expectLoaded('team-meeting.wav');

  host.dialogs.savePath = path.join(path.dirname(wav), 'team-meeting.srt');
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByLabel('Format').selectOption('srt');
  await page.getByLabel('Characters per line').fill('20');
  await page.getByLabel('Lines per subtitle').fill('1');
  await page.getByLabel('Longest subtitle (seconds)').fill('3');
  const dialog = page.getByRole('dialog', { name: 'Export transcript' });
  await screenshot(page, 'export-subtitles');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog).toContainText('Saved to');

  const srt = fs.readFileSync(host.dialogs.savePath, 'utf8').trim();
  const cues = srt.split(/\r?\n\r?\n/);
  expect(cues.length).toBeGreaterThan(1);
  let previousEnd = -1;
  for (const cue of cues) {
    const [number, times, ...text] = cue.split(/\r?\n/);
    expect(number).toMatch(/^\d+$/);
    expect(text).toHaveLength(1);
    expect(text[0]!.length).toBeLessThanOrEqual(20);
    const [from, to] = times!.split(' --> ').map(seconds);
    expect(to! - from!).toBeLessThanOrEqual(3);
    expect(from!).toBeGreaterThanOrEqual(previousEnd);
    previousEnd = to!;
  }
  expect(srt).toMatch(/report/);
  // How many read too fast is the app's measure; the message says it only when some do.
  const status = (await dialog.getByRole('status').textContent()) ?? '';
  if (/read faster/.test(status))
    expect(status).toMatch(/\d+ of \d+ subtitles read faster than 17 characters per second/);
});

test('the export menu in Japanese', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  const set = await host.invoke('settings:update', { uiLanguage: 'ja' });
  expect(set.ok).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'team-meeting.wav を開く' }).click();
  await page.getByRole('button', { name: '書き出し…' }).click();
  await page.getByLabel('形式').selectOption('vtt');
  await expect(page.getByRole('group', { name: '字幕' })).toBeVisible();
  await expect(page.getByLabel('話者の示し方')).toBeVisible();
  await screenshot(page, 'export-subtitles-ja');
});
