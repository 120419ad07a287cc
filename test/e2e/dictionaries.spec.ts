// Edit a dictionary on the real server and see the change survive a reload; see a server error next
// to the field that caused it.
import { expect, test } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { DictionariesPage } from './pages/dictionaries-page.js';
import { LibraryPage } from './pages/library-page.js';

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

test('dictionary edits persist across a reload, and a refused reading sits under its field, saying what to write', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Dictionaries');
  const dictionaries = new DictionariesPage(page);

  await dictionaries.create('Product names');
  await dictionaries.addWord('Zintrix', 'zin tricks');
  await expect(dictionaries.wordsTable).toContainText('Zintrix');
  await dictionaries.addReplacementRule('kiki tory', 'Kikitori');
  await expect(dictionaries.replacementRulesTable).toContainText('Kikitori');

  // A reading longer than the server's limit cannot be typed: the field stops at it and says so.
  await page.getByTestId('reading-input').fill('x'.repeat(401));
  await expect(page.getByTestId('reading-input')).toHaveValue('x'.repeat(400));
  await expect(page.getByTestId('reading-input-count')).toHaveText('400 of at most 400 characters');
  // A reading nothing can pronounce is refused: the message shows under Reading, saying what to write.
  await dictionaries.addWord('Overlong', 'ｘｘ@@##');
  const readingField = page.getByTestId('reading-input').locator('xpath=..');
  await expect(readingField.getByTestId('field-error')).toContainText(
    'This reading cannot be pronounced. Write how the word sounds in letters or kana',
  );
  await expect(page.getByTestId('reading-input')).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'dictionaries');

  await page.reload();
  await library.openTab('Dictionaries');
  await dictionaries.select('Product names');
  await expect(dictionaries.wordsTable).toContainText('Zintrix');
  await expect(dictionaries.wordsTable).toContainText('zin tricks');
  await expect(dictionaries.wordsTable).not.toContainText('Overlong');
  await expect(dictionaries.replacementRulesTable).toContainText('kiki tory');
});

test('a reading that cannot be pronounced is refused under Reading, and the word is not added', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Dictionaries');
  const dictionaries = new DictionariesPage(page);
  await dictionaries.create('Company names');
  await dictionaries.addWord('Ōsaka-株式会社!!', 'ｘｘ@@##');
  const readingField = page.getByTestId('reading-input').locator('xpath=..');
  await expect(readingField.getByTestId('field-error')).toBeVisible();
  await expect(readingField.getByTestId('field-error')).toHaveAttribute('data-field', /reading$/);
  await expect(page.getByTestId('reading-input')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('No words yet.')).toBeVisible();
  await screenshot(page, 'dictionaries-unpronounceable-reading');
});

test('the interface language is a setting that survives a reload', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Settings');
  await expect(page.getByTestId('profile').filter({ hasText: 'Test server' })).toHaveAttribute('data-active', 'true');
  await screenshot(page, 'settings');
  await page.getByTestId('ui-language').selectOption('ja');
  await expect(page.getByRole('navigation').getByRole('button', { name: 'ライブラリ' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('drop-zone')).toContainText('音声・動画ファイルやフォルダーをここにドロップ');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await screenshot(page, 'library-ja');
});

test('in Japanese, the reading field shows a kana example, and in English a "sounds like" spelling', async ({
  page,
}) => {
  // The test before leaves the interface in Japanese.
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Dictionaries');
  await new DictionariesPage(page).create('Readings');
  await expect(page.getByTestId('reading-input')).toHaveAttribute('placeholder', 'e.g. zin tricks');
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await library.goto(host.url);
  await page.getByRole('navigation').getByRole('button', { name: '辞書' }).click();
  await page.getByTestId('dictionary-item').filter({ hasText: 'Readings' }).click();
  await expect(page.getByTestId('reading-input')).toHaveAttribute('placeholder', '例：ききとり');
  await screenshot(page, 'dictionaries-reading-example-ja');
});
