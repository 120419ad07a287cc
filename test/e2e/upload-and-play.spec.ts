// Drop a real recording, watch it upload and complete, read its transcript, click a word to seek.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { applyReplacements, type Host, meetingWav, screenshot, startHost } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let wav: string;
test.beforeAll(async () => {
  host = await startHost();
  wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-audio-')));
});
test.afterAll(async () => host?.close());

test('a dropped WAV uploads, completes and shows its transcript; clicking a word seeks', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await screenshot(page, 'library-empty');

  await library.dropFile(wav);
  await expect(library.upload('team-meeting.wav')).toBeVisible();
  await expect(library.upload('team-meeting.wav')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });

  const row = library.row('team-meeting.wav');
  await expect(row).toBeVisible();
  await screenshot(page, 'library-uploading');
  await expect(row).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  await screenshot(page, 'library');

  await row.click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('team-meeting.wav');
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget/i);
  await screenshot(page, 'transcript');

  // One time axis: the waveform and every lane track span the same pixels (issue 12: they were ~130 px apart).
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-drawn', 'true');
  const wave = (await page.getByTestId('waveform').boundingBox())!;
  for (const track of await page.locator('.lane-track').all()) {
    const box = (await track.boundingBox())!;
    expect(Math.abs(box.x - wave.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.width - wave.width)).toBeLessThanOrEqual(1);
  }

  // The player is pinned: scrolled to the end of the transcript, the waveform is still in view.
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height: 420 });
  const scrolled = await page.locator('.app-main').evaluate((main) => {
    main.scrollTop = main.scrollHeight;
    return main.scrollTop;
  });
  expect(scrolled).toBeGreaterThan(0);
  const pinned = (await page.getByTestId('waveform').boundingBox())!;
  const mainTop = (await page.locator('.app-main').boundingBox())!.y;
  expect(pinned.y).toBeGreaterThanOrEqual(mainTop);
  expect(pinned.y + pinned.height).toBeLessThanOrEqual(420);
  await screenshot(page, 'transcript-scrolled');
  await page.setViewportSize(viewport);

  const target = transcript.word('budget');
  const start = Number(await target.getAttribute('data-start'));
  expect(start).toBeGreaterThan(1);
  expect(await transcript.currentTime()).toBe(0);
  await target.click();
  await expect.poll(() => transcript.currentTime()).toBeCloseTo(start, 1);
  await expect(transcript.time).toHaveAttribute('data-seconds', start.toFixed(2));

  // Keyboard transport: ← skips 5 s back.
  await page.getByTestId('transcript-title').click();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => transcript.currentTime()).toBeCloseTo(Math.max(0, start - 5), 1);

  // Keyboard reach: from the title, Tab gets to the Summary tab in a few presses (it took 36 when every
  // segment's buttons were tab stops), and ? opens the shortcut sheet.
  await page.getByTestId('transcript-title').click();
  let presses = 0;
  while (
    presses < 30 &&
    !(await page.getByRole('tab', { name: 'Summary' }).evaluate((tab) => tab === document.activeElement))
  ) {
    await page.keyboard.press('Tab');
    presses++;
  }
  expect(presses).toBeLessThanOrEqual(14);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toContainText('Previous or next speaker turn');
  await screenshot(page, 'shortcut-sheet');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await page.reload();
  await page.getByTestId('transcription-row').filter({ hasText: 'team-meeting.wav' }).click();
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget/i);
  await page.getByTestId('transcript-title').click();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'キーボードショートカット' })).toBeVisible();
  await screenshot(page, 'shortcut-sheet-ja');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '辞書を適用…' }).click();
  await expect(page.getByRole('dialog', { name: '辞書を適用' })).toBeVisible();
  await screenshot(page, 'apply-dictionary-ja');
  await page.getByRole('button', { name: '辞書を適用…' }).click();
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  await page.reload();
  await row.click();
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget/i);

  // Apply dictionary…: a dictionary made after the transcript rewrites it; the replaced word is marked.
  await applyReplacements(page, host, 'Fiscal terms', [{ pattern: 'budget', replacement: 'Q3 budget' }]);
  const replacedWord = page.locator('.word-replaced');
  await expect(replacedWord).toHaveText('Q3 budget');
  await expect(replacedWord).toHaveAttribute('title', /heard “budget”/i);
  await screenshot(page, 'apply-dictionary');
  await page.getByRole('button', { name: 'Apply dictionary…' }).click();

  // Export through main's save dialog (the host's dialog answers a preset path).
  host.dialogs.savePath = path.join(path.dirname(wav), 'team-meeting.srt');
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByLabel('Format').selectOption('srt');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Export transcript' })).toContainText('Saved to');
  expect(fs.readFileSync(host.dialogs.savePath, 'utf8')).toMatch(/00:00:0\d,\d{3} --> .*\n.*report/);
});

test('upload options that cannot hold are refused next to their field, and nothing uploads', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  const before = await host.invoke('uploads:list');
  const uploadsBefore = before.ok ? before.value.length : -1;
  await page.getByText('Upload options').click();
  await page.getByTestId('speaker-mode').selectOption('range');
  const min = page.getByTestId('min-speakers-input');
  await expect(min).toHaveAttribute('max', '99');
  await min.fill('4');
  await page.getByTestId('max-speakers-input').fill('2');
  // The message the input points at (aria-describedby), shown under the speaker row.
  const minError = page.locator(`[id="${await min.getAttribute('aria-describedby')}"]`);
  await expect(minError).toHaveText('The minimum is above the maximum.');
  await expect(minError).toHaveAttribute('data-testid', 'field-error');
  await expect(min).toHaveAttribute('aria-invalid', 'true');

  await screenshot(page, 'upload-options-refused');

  // The same refusal in Japanese, in the user's words.
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await page.reload();
  await page.getByText('アップロードの設定').click();
  await page.getByTestId('speaker-mode').selectOption('range');
  await page.getByTestId('min-speakers-input').fill('4');
  await page.getByTestId('max-speakers-input').fill('2');
  await expect(
    page.locator(`[id="${await page.getByTestId('min-speakers-input').getAttribute('aria-describedby')}"]`),
  ).toHaveText('最少が最多を上回っています。');
  await screenshot(page, 'upload-options-refused-ja');
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  await page.reload();

  // Main applies the same rule to whatever reaches it, through the same invokeHandler as Electron.
  const options = {
    language: null,
    model: 'default' as const,
    numSpeakers: null,
    minSpeakers: 4,
    maxSpeakers: 2,
    dictionaryId: null,
    words: [],
  };
  expect(await host.invoke('uploads:add', { files: await host.offer(wav), options })).toMatchObject({
    ok: false,
    error: { code: 'validation', field: 'options.minSpeakers' },
  });
  expect(await host.invoke('uploads:list')).toMatchObject({ ok: true, value: { length: uploadsBefore } });
});
