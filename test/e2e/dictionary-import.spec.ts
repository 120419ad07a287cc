// A bulk paste with one bad line, in English and in Japanese (decision 0103): nothing is imported at first,
// the bad line is named by its number, its text and what is wrong in the UI's language, and "Import the
// other N lines" imports exactly the good ones, on the real server.
import { expect, test, type Page } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

/** Makes a dictionary through main and opens it on the Dictionaries screen, its import open. */
async function openDictionary(page: Page, name: string, tab: string): Promise<string> {
  const created = await host.invoke('dictionaries:create', { name, words: [] });
  expect(created).toMatchObject({ ok: true });
  await new LibraryPage(page).goto(host.url);
  await page.getByRole('navigation').getByRole('button', { name: tab }).click();
  await page.getByTestId('dictionary-item').filter({ hasText: name }).click();
  await page.getByTestId('dictionary-editor').locator('details.import > summary').click();
  return (created as { value: { id: string } }).value.id;
}

/** The words the server holds in the dictionary, sorted. */
async function wordsOnServer(id: string): Promise<string[]> {
  const detail = (await host.invoke('dictionaries:get', { id })) as { value: { words: Array<{ word: string }> } };
  return detail.value.words.map((w) => w.word).sort();
}

test('a paste with one bad line names it in English, and imports the others', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  const id = await openDictionary(page, 'Pasted names', 'Dictionaries');
  await page.getByLabel('Lines to import').fill('word,reading\nZintrix,zin tricks\nKikitori,123\nŌsaka');
  await page.getByRole('button', { name: 'Import', exact: true }).click();

  const problems = page.getByTestId('import-problems');
  await expect(problems).toContainText('Nothing was imported: 1 line cannot be imported.');
  const line = page.getByTestId('import-problem');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Line 3');
  await expect(line).toContainText('Kikitori,123');
  await expect(line).toContainText('The reading cannot be pronounced.');
  await expect(page.getByText('No words yet.')).toBeVisible();
  expect(await wordsOnServer(id)).toEqual([]);
  await screenshot(page, 'dictionary-import-bad-line');

  await page.getByRole('button', { name: 'Import the other 2 lines' }).click();
  await expect(page.getByTestId('import-done')).toHaveText('2 lines imported; the 1 that could not be were left out.');
  await expect(page.getByTestId('words-table').locator('tbody tr td:first-child')).toHaveText(['Zintrix', 'Ōsaka']);
  expect(await wordsOnServer(id)).toEqual(['Zintrix', 'Ōsaka'].sort());
  await expect(page.getByLabel('Lines to import')).toHaveValue('');
  await screenshot(page, 'dictionary-import-others');
});

test('in Japanese, the bad line is named in Japanese, and the others are imported', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const id = await openDictionary(page, '地名', '辞書');
  await page.getByLabel('読み込む行').fill('聞き取り,ききとり\n東京,@@\n大阪,おおさか');
  await page.getByRole('button', { name: '読み込む', exact: true }).click();

  const problems = page.getByTestId('import-problems');
  await expect(problems).toContainText('何も読み込んでいません。読み込めない行が 1 行あります。');
  const line = page.getByTestId('import-problem');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('2 行目');
  await expect(line).toContainText('東京,@@');
  await expect(line).toContainText('読みを発音できません。');
  // No English sentence in what the Japanese interface says.
  await expect(problems).not.toContainText('cannot');
  await expect(problems).not.toContainText('Line');
  expect(await wordsOnServer(id)).toEqual([]);
  await screenshot(page, 'dictionary-import-bad-line-ja');

  await page.getByRole('button', { name: 'ほかの 2 行を読み込む' }).click();
  await expect(page.getByTestId('import-done')).toHaveText('2 行を読み込みました。読み込めない 1 行は除きました。');
  await expect(page.getByTestId('words-table').locator('tbody tr td:first-child')).toHaveText(['聞き取り', '大阪']);
  expect(await wordsOnServer(id)).toEqual(['聞き取り', '大阪'].sort());
  await screenshot(page, 'dictionary-import-others-ja');
});
