// Revisions in the app (issue 24): an edit and then "Apply dictionary…" both show, the replaced word
// marked; History lists who made each version, shows what each changed (the words before and after) and
// restores one; in Japanese too. Screenshots for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { applyReplacements, type Host, meetingWav, screenshot, startHost, uploadCompleted } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-revisions-'));
  const wav = await meetingWav(dir, 'versions.wav');
  await uploadCompleted(host, wav);
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row('versions.wav').click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('versions.wav');
  return transcript;
}

test('an edit, then a dictionary: both show; History lists each version with its author and restores one', async ({
  page,
}) => {
  const transcript = await open(page);
  await expect(page.getByTestId('transcript-pane')).toContainText(/budget/i);

  const original = (await transcript.words.nth(1).textContent())!.trim();
  await transcript.words.nth(1).dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit the word/ });
  await editor.fill('Kikitori');
  await editor.press('Enter');
  await expect(transcript.word('Kikitori')).toBeVisible();

  await applyReplacements(page, host, 'Fiscal terms', [{ pattern: 'budget', replacement: 'Q3 budget' }]);
  await page.getByRole('button', { name: 'Apply dictionary…' }).click();
  // The edit stays, and the replaced word is marked.
  await expect(page.locator('.word-replaced')).toHaveText('Q3 budget');
  await expect(transcript.word('Kikitori')).toBeVisible();

  await page.getByRole('button', { name: 'History…' }).click();
  const history = page.getByRole('dialog', { name: 'Versions on the server' });
  const versions = history.getByTestId('history-revision');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText(/Version 3.*Shown now.*Dictionary applied/);
  await expect(versions.nth(1)).toContainText(/Version 2.*Edited/);
  await expect(versions.nth(2)).toContainText(/Version 1.*As recognized/);
  await expect(versions.nth(1)).toContainText(/by Test User/);

  // Selecting a version shows what it changed: the edited word before and after, then the dictionary's.
  const edit = history.getByRole('button', { name: /^Version 2/ });
  await edit.click();
  await expect(edit).toHaveAttribute('aria-expanded', 'true');
  const editChanges = history.getByRole('region', { name: 'What changed in version 2' });
  await expect(editChanges.getByTestId('history-change')).toHaveCount(1);
  await expect(editChanges.locator('del')).toHaveText(original);
  await expect(editChanges.locator('ins')).toHaveText('Kikitori');
  await expect(editChanges).toContainText(/Before.*After/);
  await history.getByRole('button', { name: /^Version 3/ }).press('Enter');
  await expect(editChanges).toBeHidden();
  const dictionaryChanges = history.getByRole('region', { name: 'What changed in version 3' });
  await expect(dictionaryChanges).toContainText('Dictionary: “budget” → “Q3 budget” (replaced: 1)');
  await expect(dictionaryChanges.locator('ins')).toHaveText(/^Q3( budget)?$/);
  await expect(dictionaryChanges.locator('del')).toHaveCount(0);
  await dictionaryChanges.scrollIntoViewIfNeeded();
  await screenshot(page, 'history');

  // Back to the edit alone: the dictionary's word goes, the edit stays, and the restore is a new version.
  await history.getByRole('button', { name: 'Restore version 2' }).click();
  await expect(versions).toHaveCount(4);
  await expect(versions.nth(0)).toContainText(/Version 4.*Shown now.*An earlier version restored/);
  await expect(page.locator('.word-replaced')).toHaveCount(0);
  await expect(transcript.word('Kikitori')).toBeVisible();

  // Kept after a reload.
  await page.reload();
  await open(page);
  await expect(transcript.word('Kikitori')).toBeVisible();
  await expect(page.locator('.word-replaced')).toHaveCount(0);
});

test('History in Japanese', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: 'versions.wav を開く' }).click();
  await expect(page.getByTestId('word').first()).toBeVisible();
  await page.getByRole('button', { name: '履歴…' }).click();
  const history = page.getByRole('dialog', { name: 'サーバー上の版' });
  const versions = history.getByTestId('history-revision');
  await expect(versions).toHaveCount(4);
  await expect(versions.nth(0)).toContainText(/第4版.*表示中.*以前の版を復元/);
  await expect(versions.nth(1)).toContainText(/第3版.*辞書を適用/);
  await expect(versions.nth(3)).toContainText(/第1版.*認識した結果/);
  await expect(history.getByRole('button', { name: '第2版を復元' })).toBeVisible();
  await history.getByRole('button', { name: /^第2版 / }).click();
  const changes = history.getByRole('region', { name: '第2版の変更点' });
  await expect(changes).toContainText(/変更前.*変更後/);
  await expect(changes.locator('ins')).toHaveText('Kikitori');
  await changes.scrollIntoViewIfNeeded();
  await screenshot(page, 'history-ja');
});
