// The upload form picks languages by name, in the UI language, several at once; a language the
// server's engine cannot recognize is refused in the user's terms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let wav: string;
test.beforeAll(async () => {
  host = await startHost();
  wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-audio-')));
});
test.afterAll(async () => {
  await host?.invoke('settings:update', { uiLanguage: 'en' });
  await host?.close();
});

const picker = (page: Page) => page.getByTestId('language-picker');
const chips = (page: Page) => picker(page).locator('.language-chip[data-code]');

test('picks languages by name in the upload form, several at once, and removes one', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByText('Upload options').click();
  const search = page.getByTestId('language-input');
  await expect(search).toHaveAttribute('placeholder', 'Search languages by name or code');

  await search.fill('japa');
  const listbox = page.getByRole('listbox', { name: 'Languages' });
  const japanese = listbox.getByRole('option').first();
  await expect(japanese).toContainText('Japanese');
  await expect(japanese.locator('.language-code')).toHaveText('ja');
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveAttribute('data-code', 'ja');

  // By the Japanese name, with a click.
  await search.fill('スペイン');
  await listbox.getByRole('option', { name: /Spanish/ }).click();
  await expect(chips(page)).toHaveText([/Japanese/, /Spanish/]);
  await search.fill('fre');
  await expect(listbox.getByRole('option').first()).toContainText('French');
  await screenshot(page, 'languages-picker');

  await page.keyboard.press('Escape');
  await expect(search).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('button', { name: 'Remove Spanish' }).click();
  await expect(chips(page)).toHaveText([/Japanese/]);
});

test('a language the engine cannot recognize is refused by name, with what to do', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByText('Upload options').click();
  const search = page.getByTestId('language-input');
  await search.fill('japanese');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');

  await library.dropFile(wav);
  const message = 'Japanese needs a speech model that knows Japanese: download one in Settings → Speech recognition.';
  await expect(page.getByText(message).first()).toBeVisible({ timeout: 60_000 });
  await screenshot(page, 'languages-refused');
});

test('Settings picks the default languages by name, and new uploads start with them', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Settings');
  const search = page.getByTestId('default-language-input');
  await search.fill('korean');
  await page.keyboard.press('Enter');
  await search.fill('en');
  await page.keyboard.press('Enter');
  await expect.poll(async () => ((await host.invoke('settings:get')) as { value?: { defaults: { language: unknown } } }).value?.defaults.language).toEqual(['ko', 'en']);
  await page.keyboard.press('Escape');
  await screenshot(page, 'languages-settings');

  await page.reload();
  await expect(library.dropZone).toBeVisible();
  await page.getByText('Upload options').click();
  await expect(chips(page)).toHaveText([/Korean/, /English/]);
  expect(await host.invoke('settings:update', { defaults: { language: null } })).toMatchObject({ ok: true });
});

test('the Japanese UI names languages in Japanese and still finds them by English name', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByText('アップロードの設定').click();
  const search = page.getByTestId('language-input');
  await expect(search).toHaveAttribute('placeholder', '言語名またはコードで検索');
  await search.fill('spanish');
  const first = page.getByRole('listbox', { name: '言語' }).getByRole('option').first();
  await expect(first.locator('.language-option-name')).toHaveText('スペイン語');
  await expect(first.locator('.language-code')).toHaveText('es · Spanish');
  await page.keyboard.press('Enter');
  await search.fill('にほん');
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveText([/スペイン語/, /日本語/]);
  await search.fill('ド');
  await screenshot(page, 'languages-picker-ja');
});
