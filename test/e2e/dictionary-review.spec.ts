// Reviewing what a dictionary changed (issue 28: "each rewritten word is marked, so review can find it"):
// a word the vocabulary stage rewrote from real speech ("kravitz he" heard, the team's "Krawitzki" written)
// is marked, says what was heard, and its menu puts back what was heard in one step, which Undo takes back;
// a forced replacement ("budget" → "Q3 budget") is put back the same way. In English and Japanese.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { synthesizeSpeech } from '../support/audio-fixtures.js';
import { applyReplacements, type Host, meetingWav, screenshot, startHost, uploadCompleted } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-dictionary-review-'));
  const name = path.join(dir, 'invoice.wav');
  fs.copyFileSync(await synthesizeSpeech('Kravitsky asked for a copy of the invoice.'), name);
  await uploadCompleted(host, name, { words: [{ word: 'Krawitzki', reading: 'kruh vit ski' }] });
  await uploadCompleted(host, await meetingWav(dir, 'budget.wav'));
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, file: string, language: 'en' | 'ja' = 'en') {
  expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: language === 'en' ? `Open ${file}` : `${file} を開く` }).click();
  const transcript = new TranscriptPage(page);
  await expect(page.getByTestId('word').first()).toBeVisible();
  return transcript;
}

test('a name the dictionary found by its sound: marked with what was heard, put back from its menu, and Undo', async ({
  page,
}) => {
  const transcript = await open(page, 'invoice.wav');
  const name = page.locator('.word-replaced');
  await expect(name).toHaveText('Krawitzki');
  const heard = (await name.getAttribute('data-replaced'))!;
  expect(heard).not.toMatch(/krawitzki/i);
  await expect(name).toHaveAttribute('title', `Replaced by the dictionary: heard “${heard}”`);

  await name.click({ button: 'right' });
  const back = page.getByRole('menuitem', { name: `Back to “${heard}” (before the dictionary)` });
  await expect(back).toBeVisible();
  await screenshot(page, 'dictionary-review-menu');
  // Words the dictionary did not touch offer no such thing.
  await page.keyboard.press('Escape');
  await transcript.word('invoice').click({ button: 'right' });
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /before the dictionary/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await name.click({ button: 'right' });
  await back.click();
  await expect(page.locator('.word-replaced')).toHaveCount(0);
  await expect(page.getByTestId('transcript-pane')).toContainText(new RegExp(`${heard} asked for a copy`, 'i'));
  await expect(transcript.word(heard.split(' ')[0]!)).toBeVisible();
  await expect(page.getByTestId('word').filter({ hasText: 'Krawitzki' })).toHaveCount(0);

  // One step back brings the dictionary's word, marked again.
  await page.getByRole('button', { name: /Undo/ }).click();
  await expect(page.locator('.word-replaced')).toHaveText('Krawitzki');
  await expect(page.locator('.word-replaced')).toHaveAttribute('data-replaced', heard);
});

test('a forced replacement is put back the same way, and the change is a version in History', async ({ page }) => {
  await open(page, 'budget.wav');
  await applyReplacements(page, host, 'Fiscal terms', [{ pattern: 'budget', replacement: 'Q3 budget' }]);
  await page.getByRole('button', { name: 'Apply dictionary…' }).click();
  await expect(page.locator('.word-replaced')).toHaveText('Q3 budget');

  await page.locator('.word-replaced').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Back to “budget” (before the dictionary)' }).click();
  await expect(page.locator('.word-replaced')).toHaveCount(0);
  await expect(page.getByTestId('transcript-pane')).toContainText(/the budget meeting/i);
  await expect(page.getByTestId('transcript-pane')).not.toContainText('Q3');

  await page.getByRole('button', { name: 'History…' }).click();
  const versions = page.getByRole('dialog', { name: 'Versions on the server' }).getByTestId('history-revision');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(1)).toContainText(/Version 2.*Dictionary applied/);
});

test('Japanese: the menu says it in Japanese', async ({ page }) => {
  await open(page, 'invoice.wav', 'ja');
  const name = page.locator('.word-replaced');
  await expect(name).toHaveText('Krawitzki');
  const heard = (await name.getAttribute('data-replaced'))!;
  await expect(name).toHaveAttribute('title', `辞書で置換：元は「${heard}」`);
  await name.click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: `辞書で置き換える前に戻す：「${heard}」` })).toBeVisible();
  await screenshot(page, 'dictionary-review-menu-ja');
});
