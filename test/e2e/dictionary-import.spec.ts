// A bulk paste with one bad line, in English and in Japanese (decision 0103): nothing is imported at first,
// the bad line is named by its number, its text and what is wrong in the UI's language, and "Import the
// other N lines" imports exactly the good ones, on the real server.
import { expect, test, type Page } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { LIMITS } from '../../src-shared/limits.js';

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

/**
 * Makes a dictionary through main (`prepare` fills it) and opens it on the Dictionaries screen, its
 * import open.
 */
async function openDictionary(
  page: Page,
  name: string,
  tab: string,
  prepare: (id: string) => Promise<void> = async () => {},
): Promise<string> {
  const created = await host.invoke('dictionaries:create', { name, words: [] });
  expect(created).toMatchObject({ ok: true });
  const id = (created as { value: { id: string } }).value.id;
  await prepare(id);
  await new LibraryPage(page).goto(host.url);
  await page.getByRole('navigation').getByRole('button', { name: tab }).click();
  await page.getByTestId('dictionary-item').filter({ hasText: name }).click();
  await page.getByTestId('dictionary-editor').locator('details.import > summary').click();
  return id;
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

/** A dictionary with only `room` replacement rules left under the server's cap, opened for import. */
function nearlyFullDictionary(page: Page, name: string, tab: string, room: number): Promise<string> {
  return openDictionary(page, name, tab, async (id) => {
    const fill = LIMITS.replacementRulesPerDictionary - room;
    for (let i = 0; i < fill; i += LIMITS.bulkItems) {
      const replacementRules = Array.from({ length: Math.min(LIMITS.bulkItems, fill - i) }, (_, j) => ({
        pattern: `old${i + j}`,
        replacement: 'x',
      }));
      expect(await host.invoke('dictionaries:add-replacement-rules', { id, replacementRules })).toMatchObject({
        ok: true,
      });
    }
  });
}

/** The pasted rules the server holds. */
async function pastedRulesOnServer(id: string): Promise<number> {
  const detail = (await host.invoke('dictionaries:get', { id })) as {
    value: { replacementRules: Array<{ pattern: string }> };
  };
  return detail.value.replacementRules.filter((r) => r.pattern.startsWith('said')).length;
}

const RULES = Array.from({ length: 1500 }, (_, i) => `said${i} => written${i}`).join('\n');

for (const ui of [
  {
    language: 'en',
    tab: 'Dictionaries',
    kind: 'Import as',
    rules: 'Forced replacements',
    box: 'Lines to import',
    run: 'Import',
    said: 'Only lines 1–1000 were imported (1000 lines). Line 1001 and the lines after it were not:',
  },
  {
    language: 'ja',
    tab: '辞書',
    kind: '種類',
    rules: '強制置換',
    box: '読み込む行',
    run: '読み込む',
    said: '読み込んだのは 1〜1000 行目（1000 行）だけです。1001 行目以降は読み込めませんでした：',
  },
] as const) {
  test(`(${ui.language}) a long import the server stops part-way says which lines went in and keeps the others`, async ({
    page,
  }) => {
    expect(await host.invoke('settings:update', { uiLanguage: ui.language })).toMatchObject({ ok: true });
    // Room for 1,200 more rules: the first request (1,000 lines) fits, the second (500) passes the cap.
    const id = await nearlyFullDictionary(page, `Nearly full ${ui.language}`, ui.tab, 1200);
    await page.getByLabel(ui.kind).selectOption({ label: ui.rules });
    await page.getByLabel(ui.box).fill(RULES);
    await page.getByRole('button', { name: ui.run, exact: true }).click();
    // The editor lists the dictionary's 10,000 rules: rendering them is slow on a shared machine.
    await expect(page.getByTestId('import-partial')).toContainText(ui.said, { timeout: 180_000 });
    expect(await pastedRulesOnServer(id)).toBe(1000);
    // The lines not imported stay in the box, from line 1001 on.
    await expect(page.getByLabel(ui.box)).toHaveValue(RULES.split('\n').slice(1000).join('\n'));
    await page.getByTestId('import-partial').scrollIntoViewIfNeeded();
    await screenshot(page, `dictionary-import-partial-${ui.language}`);
  });
}
