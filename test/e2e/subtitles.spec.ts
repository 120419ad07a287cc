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

// Issue 27: which subtitles read too fast, with a jump to each. An edit makes the second sentence far longer
// than the time it is spoken in, as a verbatim correction can.
test('lists the subtitles that read too fast; each jumps the player and the transcript to it, in English and Japanese', async ({
  page,
}) => {
  const list = await host.invoke('transcripts:list', {});
  if (!list.ok) throw new Error(list.error.reason);
  const id = list.value.items.find((t) => t.name === 'team-meeting.wav')!.id;
  const detail = await host.invoke('transcripts:get', { id });
  if (!detail.ok) throw new Error(detail.error.reason);
  const segment = detail.value.document!.segments.at(-1)!;
  const long =
    'the budget meeting for the whole of the Zentrova marketing and finance teams moved to the second Thursday of next month';
  const edited = await host.invoke('transcripts:edit', { id, segments: [{ id: segment.id, text: long }] });
  expect(edited.ok).toBe(true);

  for (const [language, open, exportLabel, run, heading, jump] of [
    ['en', 'Open team-meeting.wav', 'Export…', 'Export', 'Subtitles that read too fast', /^Go to subtitle \d+ at /],
    ['ja', 'team-meeting.wav を開く', '書き出し…', '書き出す', '速すぎる字幕', /^字幕 \d+（.+）へ移動$/],
  ] as const) {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByRole('button', { name: open }).click();
    const transcript = new TranscriptPage(page);
    await transcript.expectLoaded('team-meeting.wav');
    await expect(transcript.word('Zentrova')).toBeVisible();

    host.dialogs.savePath = path.join(path.dirname(wav), `too-fast-${language}.srt`);
    await page.getByRole('button', { name: exportLabel }).click();
    await page.getByLabel(language === 'en' ? 'Format' : '形式').selectOption('srt');
    await page.getByRole('button', { name: run, exact: true }).click();
    const fast = page.getByRole('region', { name: heading });
    await expect(fast).toBeVisible();
    const items = fast.getByRole('button');
    expect(await items.count()).toBeGreaterThan(0);
    // Each item is a subtitle of the file that was written: its number, and its words.
    const srt = fs
      .readFileSync(host.dialogs.savePath, 'utf8')
      .trim()
      .split(/\r?\n\r?\n/);
    const item = items.last();
    await expect(item).toHaveAccessibleName(jump);
    const number = Number((await item.textContent())!.match(/^(\d+)/)![1]);
    const [, times, ...lines] = srt[number - 1]!.split(/\r?\n/);
    await expect(item).toContainText(lines.join(' '));
    expect(lines.join(' ')).toMatch(/Zentrova|Thursday|finance|month/);

    // The jump: the player goes to the subtitle's start, and its segment is the current one, in view.
    await page.mouse.wheel(0, -2000);
    await item.click();
    const start = seconds(times!.split(' --> ')[0]!);
    await expect.poll(() => transcript.currentTime()).toBeCloseTo(start, 1);
    const current = page.locator(`[data-segment-id="${segment.id}"]`);
    await expect(current).toHaveClass(/segment-active/);
    await expect(current).toBeInViewport();
    await screenshot(page, language === 'en' ? 'subtitles-too-fast' : 'subtitles-too-fast-ja');
  }
});
