// The upload form as people read it, and batch work: speakers as "Exactly N" / "Between A and B", a
// refused value next to its field (English and Japanese), options remembered across a reload, and a
// folder of mixed files imported through main's folder dialog with the queue following each file to done.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { LIMITS } from '../../src-shared/limits.js';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

const run = promisify(execFile);

let host: Host;
let work: string;
test.beforeAll(async () => {
  host = await startHost();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-forms-'));
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

async function openOptions(page: Page, label = 'Upload options') {
  await page.getByText(label, { exact: true }).click();
  await expect(page.getByTestId('speaker-mode')).toBeVisible();
}

async function setLanguage(page: Page, uiLanguage: 'en' | 'ja') {
  expect(await host.invoke('settings:update', { uiLanguage })).toMatchObject({ ok: true });
  await page.reload();
}

test('speakers read "Detect automatically", "Exactly N" or "Between A and B", on one line, in English and Japanese', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await openOptions(page);
  const mode = page.getByTestId('speaker-mode');
  await expect(mode).toHaveValue('auto');
  await expect(mode.locator('option')).toHaveText(['Detect automatically', 'Exactly', 'Between']);
  await expect(page.getByRole('spinbutton')).toHaveCount(0);

  await mode.selectOption('exact');
  const exactly = page.getByLabel('Number of speakers', { exact: true });
  await exactly.fill('3');
  await expect(page.locator('.speaker-count-row')).toHaveText(/speakers$/);
  await screenshot(page, 'forms-speakers-exactly');

  await mode.selectOption('range');
  const fewest = page.getByLabel('Fewest speakers');
  const most = page.getByLabel('Most speakers');
  await expect(fewest).toHaveValue('3');
  await fewest.fill('2');
  await most.fill('4');
  // "Between [2] and [4] speakers" stays on one line.
  const tops = await Promise.all(
    [mode, fewest, most].map(async (box) => (await box.boundingBox())!.y + (await box.boundingBox())!.height / 2),
  );
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
  await screenshot(page, 'forms-speakers-between');

  await setLanguage(page, 'ja');
  await openOptions(page, 'アップロードの設定');
  await expect(page.getByTestId('speaker-mode')).toHaveValue('range');
  await expect(page.locator('.speaker-count-row')).toContainText('〜');
  await expect(page.getByTestId('speaker-mode').locator('option')).toHaveText([
    '自動で判定',
    '人数を指定',
    '範囲で指定',
  ]);
  await screenshot(page, 'forms-speakers-between-ja');
  await setLanguage(page, 'en');
});

test('a refused value is explained next to its field, and the input says so to assistive technology', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await openOptions(page);
  await page.getByTestId('speaker-mode').selectOption('range');
  const fewest = page.getByTestId('min-speakers-input');
  await expect(fewest).toHaveAttribute('max', String(LIMITS.speakers.max));
  await fewest.fill('4');
  await page.getByTestId('max-speakers-input').fill('2');
  await expect(fewest).toHaveAttribute('aria-invalid', 'true');
  const describedBy = await fewest.getAttribute('aria-describedby');
  const message = page.locator(`[id="${describedBy}"]`);
  await expect(message).toHaveText('The minimum is above the maximum.');
  // Next to its field: directly under the speaker row, not in a banner.
  const row = (await page.locator('.speaker-count-row').boundingBox())!;
  const box = (await message.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(row.y + row.height - 1);
  expect(box.y - (row.y + row.height)).toBeLessThan(24);
  await expect(page.locator('.error-banner')).toHaveCount(0);
  await screenshot(page, 'forms-field-error');

  await page.getByTestId('speaker-mode').selectOption('exact');
  await page.getByTestId('num-speakers-input').fill(String(LIMITS.speakers.max + 1));
  await expect(
    page.locator(`[id="${await page.getByTestId('num-speakers-input').getAttribute('aria-describedby')}"]`),
  ).toHaveText(`Enter a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}.`);

  await setLanguage(page, 'ja');
  await openOptions(page, 'アップロードの設定');
  await page.getByTestId('speaker-mode').selectOption('range');
  await page.getByTestId('min-speakers-input').fill('4');
  await page.getByTestId('max-speakers-input').fill('2');
  await expect(
    page.locator(`[id="${await page.getByTestId('min-speakers-input').getAttribute('aria-describedby')}"]`),
  ).toHaveText('最少が最多を上回っています。');
  await screenshot(page, 'forms-field-error-ja');
  await setLanguage(page, 'en');
});

test('upload options are remembered after a reload, and Settings shows the same ones', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await openOptions(page);
  await page.getByLabel('Telling speakers apart').selectOption('diarization-high');
  await page.getByTestId('speaker-mode').selectOption('range');
  await page.getByTestId('min-speakers-input').fill('2');
  await page.getByTestId('max-speakers-input').fill('3');
  await expect
    .poll(async () => (await host.invoke('settings:get')).ok && (await host.invoke('settings:get')))
    .toMatchObject({
      value: { defaults: { model: 'diarization-high', numSpeakers: null, minSpeakers: 2, maxSpeakers: 3 } },
    });

  await page.reload();
  await openOptions(page);
  await expect(page.getByLabel('Telling speakers apart')).toHaveValue('diarization-high');
  await expect(page.getByTestId('speaker-mode')).toHaveValue('range');
  await expect(page.getByTestId('min-speakers-input')).toHaveValue('2');
  await expect(page.getByTestId('max-speakers-input')).toHaveValue('3');
  await screenshot(page, 'forms-options-remembered');

  await library.openTab('Settings');
  await expect(page.getByTestId('default-speaker-mode')).toHaveValue('range');
  await expect(page.getByTestId('default-max-speakers-input')).toHaveValue('3');
  await page.getByTestId('default-speaker-mode').scrollIntoViewIfNeeded();
  await screenshot(page, 'forms-settings-defaults');
  // Back to automatic from Settings: the upload form follows.
  await page.getByTestId('default-speaker-mode').selectOption('auto');
  await library.openTab('Library');
  await openOptions(page);
  await expect(page.getByTestId('speaker-mode')).toHaveValue('auto');
  await page.getByLabel('Telling speakers apart').selectOption('default');
});

test('a folder of mixed files is imported: recordings queued and followed to done, the rest counted by reason and kind, never named', async ({
  page,
}) => {
  const folder = path.join(work, 'Field recordings');
  fs.mkdirSync(path.join(folder, 'day 2'), { recursive: true });
  await meetingWav(folder, 'morning.wav');
  const budget = await synthesizeSpeech('the budget meeting moved to next week');
  fs.copyFileSync(await concatWithSilence([budget, budget], 1), path.join(folder, 'day 2', 'evening.wav'));
  await meetingWav(path.join(folder, 'day 2'), 'late.wav');
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'Who said what, and when.\n');
  fs.writeFileSync(
    path.join(folder, 'agenda.pdf'),
    Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(200, 0x20)]),
  );

  const library = new LibraryPage(page);
  await library.goto(host.url);
  // Every state each file shows, in order, as the queue renders it.
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { queueStates: typeof seen }).queueStates = seen;
    const record = () => {
      for (const item of document.querySelectorAll<HTMLElement>('[data-testid="upload-item"]')) {
        const name = item.querySelector('.upload-name')?.textContent ?? '';
        const states = (seen[name] ??= []);
        if (states.at(-1) !== item.dataset.queue) states.push(item.dataset.queue ?? '');
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-queue'],
    });
  });

  host.dialogs.folderPath = folder;
  await page.getByRole('button', { name: 'Import folder…' }).click();
  await expect(page.getByTestId('folder-import-summary')).toHaveText(
    '3 files added from “Field recordings”, 2 skipped: not audio or video',
  );
  await page.getByText('Show the kinds of files that are not audio or video').click();
  // Counted by kind, never named: main does not show the page a listing of the folder (decision 0046).
  await expect(page.getByTestId('folder-import-note')).toContainText('PDF: 1');
  await expect(page.getByTestId('folder-import-note')).toContainText('TEXT: 1');
  await expect(page.getByTestId('folder-import-note')).not.toContainText('agenda');
  await expect(page.getByTestId('folder-import-note')).not.toContainText('notes');
  for (const name of ['morning.wav', 'evening.wav', 'late.wav']) await expect(library.upload(name)).toBeVisible();
  await screenshot(page, 'folder-import-queue');

  // Two upload at a time and the server transcribes one after another: someone is always transcribing for a while.
  await expect(page.locator('[data-testid="upload-item"][data-queue="transcribing"]').first()).toBeVisible({
    timeout: 60_000,
  });
  await screenshot(page, 'folder-import-transcribing');
  for (const name of ['morning.wav', 'evening.wav', 'late.wav'])
    await expect(library.upload(name)).toHaveAttribute('data-queue', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('uploads-summary')).toHaveText('3 uploaded');
  await screenshot(page, 'folder-import-done');

  const ORDER = ['waiting', 'uploading', 'starting', 'uploaded', 'queued', 'transcribing', 'done'];
  const seen = await page.evaluate(() => (window as unknown as { queueStates: Record<string, string[]> }).queueStates);
  for (const name of ['morning.wav', 'evening.wav', 'late.wav']) {
    const states = seen[name]!;
    expect(states.at(-1)).toBe('done');
    // Never backwards.
    expect(states.map((state) => ORDER.indexOf(state))).toEqual(
      [...states.map((state) => ORDER.indexOf(state))].sort((a, b) => a - b),
    );
  }
  expect(Object.values(seen).flat()).toContain('transcribing');
  for (const name of ['morning.wav', 'evening.wav', 'late.wav']) await expect(library.row(name)).toBeVisible();

  // The same queue in Japanese.
  await setLanguage(page, 'ja');
  await expect(library.upload('late.wav').getByTestId('upload-state')).toContainText('完了');
  host.dialogs.folderPath = path.join(folder, 'day 2');
  fs.writeFileSync(
    path.join(folder, 'day 2', 'minutes.pdf'),
    Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(200, 0x20)]),
  );
  await page.getByRole('button', { name: 'フォルダーを取り込む…' }).click();
  await expect(page.getByTestId('folder-import-summary')).toHaveText(
    '「day 2」から 2 件を追加しました。1 件をスキップ：音声・動画ではない',
  );
  await page.getByText('音声・動画ではないファイルの種類を表示').click();
  await expect(page.getByTestId('folder-import-note')).toContainText('PDF：1 件');
  await expect(page.getByTestId('folder-import-note')).not.toContainText('minutes');
  await screenshot(page, 'folder-import-ja');
  await setLanguage(page, 'en');
});

test('a dropped file of two channels waits for "Each channel is a speaker", in English and Japanese, and is transcribed a speaker per channel', async ({
  page,
}) => {
  // A call: the meeting's speech in the left channel, another voice in the right, after it.
  const left = await meetingWav(work, 'left.wav');
  const right = await synthesizeSpeech('i will send it before the budget meeting');
  const call = path.join(work, 'phone-call.wav');
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    left,
    '-i',
    right,
    '-filter_complex',
    '[1:a]aresample=16000,adelay=2000,apad[r];[0:a][r]join=inputs=2:channel_layout=stereo:map=0.0-FL|1.0-FR[out]',
    '-map',
    '[out]',
    '-t',
    '12',
    '-ar',
    '16000',
    call,
  ]);
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.dropFile(call);
  const offer = page.getByTestId('multichannel-offer');
  await expect(offer).toContainText('Recordings with two or more channels: “phone-call.wav”');
  const checkbox = page.getByLabel('Each channel is a speaker');
  await expect(checkbox).not.toBeChecked();
  await checkbox.check();
  await screenshot(page, 'forms-multichannel');
  await page.getByTestId('multichannel-upload').click();
  await expect(offer).toHaveCount(0);
  await expect(library.upload('phone-call.wav').getByTestId('upload-state')).toContainText('Done', {
    timeout: 180_000,
  });

  // Each channel its own speaker: two.
  await expect
    .poll(
      async () => {
        const list = await host.invoke('transcripts:list', {});
        const item = list.ok ? list.value.items.find((t) => t.name === 'phone-call.wav') : undefined;
        return [item?.status, item?.speakers];
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toEqual(['COMPLETED', 2]);

  await setLanguage(page, 'ja');
  // The same file dropped again is first offered as already in the library; transcribed again anyway, it is
  // asked the channel question like any other recording of two channels.
  await library.dropFile(call);
  await expect(
    page.getByText('「phone-call.wav」はすでにライブラリにあるため、もう一度は追加していません。'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'それでも文字起こしする' }).click();
  await expect(page.getByTestId('multichannel-offer')).toContainText('2 チャンネル以上の録音：“phone-call.wav”');
  await expect(page.getByLabel('チャンネルごとに別の話者')).toBeVisible();
  await screenshot(page, 'forms-multichannel-ja');
  await page.getByTestId('multichannel-offer').getByRole('button', { name: 'キャンセル' }).click();
  await expect(page.getByTestId('multichannel-offer')).toHaveCount(0);
  await setLanguage(page, 'en');
});
