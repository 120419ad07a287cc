// A new user's tryout (the library's Language filter, renaming a speaker, Apply dictionary…), in English and
// Japanese: what they met, checked as they met it, and screenshots for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-tryout-fixes-'));
  // Uploaded without a dictionary: Apply dictionary… has no "its own" to offer.
  await uploadCompleted(host, await meetingWav(dir, 'tryout.wav'));
  const created = await host.invoke('dictionaries:create', { name: 'Fiscal terms', words: [] });
  expect(created).toMatchObject({ ok: true });
});
test.afterAll(async () => {
  await host?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const TEXT = {
  en: {
    language: 'Language',
    english: 'English',
    open: 'Open tryout.wav',
    rename: 'Rename Speaker 1',
    name: 'New name for Speaker 1',
    apply: 'Apply dictionary…',
    panel: 'Apply a dictionary',
    dictionary: 'Dictionary',
    history: 'History…',
  },
  ja: {
    language: '言語',
    english: '英語',
    open: 'tryout.wav を開く',
    rename: '話者 1 の名前を変更',
    name: '話者 1 の新しい名前',
    apply: '辞書を適用…',
    panel: '辞書を適用',
    dictionary: '辞書',
    history: '履歴…',
  },
} as const;

async function tryout(page: Page, language: 'en' | 'ja') {
  expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
  const text = TEXT[language];
  await new LibraryPage(page).goto(host.url);
  const filter = page.getByRole('combobox', { name: text.language, exact: true });
  await filter.selectOption({ label: text.english });
  await expect(filter.locator('option:checked')).toHaveText(text.english);
  await screenshot(page, `tryout-language-filter-${language}`);

  await page.getByRole('button', { name: text.open }).click();
  await expect(page.getByTestId('word').first()).toBeVisible();
  await page.getByRole('button', { name: text.rename }).first().click();
  const box = page.getByRole('textbox', { name: text.name });
  await box.pressSequentially('Dana');
  await expect(box).toHaveValue('Dana');
  await box.press('Escape');

  await page.getByRole('button', { name: text.apply }).click();
  const panel = page.getByRole('dialog', { name: text.panel });
  await expect(panel.getByLabel(text.dictionary).locator('option')).toHaveText(['Fiscal terms']);
  await screenshot(page, `tryout-apply-dictionary-${language}`);
  // A press on History closes it: one popover open, not two stacked.
  await page.getByRole('button', { name: text.history }).click();
  await expect(panel).toBeHidden();
}

test('English', async ({ page }) => tryout(page, 'en'));
test('Japanese', async ({ page }) => tryout(page, 'ja'));
