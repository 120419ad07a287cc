// The Dictionaries screen's Word form as a new user meets it, in English and in Japanese, on the real
// server: a word typed while the previous one saves is kept, a word already in the dictionary is refused
// under Word (decision 0102), lines pasted into Word go to the bulk paste, and the length limit shows up
// front. Each test sets the interface language first: the one before may leave it in Japanese.
import { expect, test, type Page, type Route } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { DictionariesPage } from './pages/dictionaries-page.js';
import { LibraryPage } from './pages/library-page.js';

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

/**
 * Holds the next word add on its way to main until `release()`: the save is then under way for as long as
 * the test needs, with nothing timed. Only the delivery is held; main and the server do the real work.
 */
async function holdNextWordAdd(page: Page) {
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    '**/ipc/dictionaries%3Aadd-words',
    async (route: Route) => {
      arrived();
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  return { reached, release };
}

/** Puts `text` on the clipboard and pastes it into `testId` with the keyboard, as a user does. */
async function pasteInto(page: Page, testId: string, text: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.getByTestId(testId).focus();
  await page.keyboard.press('ControlOrMeta+V');
}

async function openDictionary(page: Page, name: string, tab: string) {
  const created = await host.invoke('dictionaries:create', { name, words: [] });
  expect(created).toMatchObject({ ok: true });
  await new LibraryPage(page).goto(host.url);
  await page.getByRole('navigation').getByRole('button', { name: tab }).click();
  await page.getByTestId('dictionary-item').filter({ hasText: name }).click();
  await expect(page.getByTestId('dictionary-editor').getByRole('textbox').first()).toHaveValue(name);
}

const LINES = 'Kikitori\nZintrix,zin tricks\n\nQuorbl\n';

test('in English: a word typed during a save is kept, a duplicate is refused under Word, pasted lines go to the bulk paste', async ({
  page,
}) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  await openDictionary(page, 'Product names', 'Dictionaries');
  const dictionaries = new DictionariesPage(page);
  const word = page.getByTestId('word-input');
  const reading = page.getByTestId('reading-input');

  // 1. The next word, typed while the first is saving, stays in the field.
  const save = await holdNextWordAdd(page);
  await dictionaries.addWord('Zintrix', 'zin tricks');
  await save.reached;
  await word.fill('Quorbl');
  save.release();
  await expect(dictionaries.wordsTable).toContainText('zin tricks');
  await expect(word).toHaveValue('Quorbl');
  await expect(reading).toHaveValue('');
  await word.press('Enter');
  await expect(dictionaries.wordsTable).toContainText('Quorbl');
  await expect(word).toHaveValue('');

  // 2. The same word with the same reading, in another case and with spaces: refused under Word.
  await dictionaries.addWord(' ZINTRIX ', 'Zin Tricks');
  const wordField = word.locator('xpath=..');
  await expect(wordField.getByTestId('field-error')).toHaveText('“Zintrix” is already in this dictionary.');
  await expect(word).toHaveAttribute('aria-invalid', 'true');
  await expect(word).toHaveValue(' ZINTRIX ');
  await screenshot(page, 'dictionary-form-duplicate');
  // Another reading is another pronunciation: added.
  await dictionaries.addWord('Zintrix', 'zin trix');
  await expect(dictionaries.wordsTable.getByRole('row').filter({ hasText: 'Zintrix' })).toHaveCount(2);
  await expect(wordField.getByTestId('field-error')).toHaveCount(0);

  // 3. Several lines pasted into Word are not squashed: they can be moved to the bulk paste and imported.
  await pasteInto(page, 'word-input', LINES);
  await expect(word).toHaveValue('');
  const notice = page.getByTestId('pasted-lines');
  await expect(notice).toContainText('You pasted 3 lines.');
  await expect(notice).toContainText('use “Bulk paste or CSV import” below');
  await screenshot(page, 'dictionary-form-pasted-lines');
  await notice.getByRole('button', { name: 'Move them to the bulk paste' }).click();
  const lines = page.getByLabel('Lines to import');
  await expect(lines).toBeFocused();
  await expect(lines).toHaveValue('Kikitori\nZintrix,zin tricks\nQuorbl');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(lines).toHaveValue('');
  await expect(dictionaries.wordsTable).toContainText('Kikitori');

  // 4. The limit shows before anything is refused: the field stops at 200 and counts near it.
  await word.fill('x'.repeat(250));
  await expect(word).toHaveValue('x'.repeat(200));
  await expect(page.getByTestId('word-input-count')).toHaveText('200 of at most 200 characters');
  await screenshot(page, 'dictionary-form-limit');
});

test('in Japanese: the same form, its messages in Japanese', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await openDictionary(page, '社名', '辞書');
  const dictionaries = new DictionariesPage(page);
  const word = page.getByTestId('word-input');
  const reading = page.getByTestId('reading-input');

  const save = await holdNextWordAdd(page);
  await dictionaries.addWord('聞き取り', 'ききとり');
  await save.reached;
  await word.fill('株式会社ジントリクス');
  save.release();
  await expect(dictionaries.wordsTable).toContainText('ききとり');
  await expect(word).toHaveValue('株式会社ジントリクス');
  await expect(reading).toHaveValue('');

  // Full-width and half-width spellings of the same word and reading are the same entry (NFKC).
  await dictionaries.addWord('ＡＢＣ商事', 'ｴｰﾋﾞｰｼｰしょうじ');
  await expect(dictionaries.wordsTable).toContainText('ＡＢＣ商事');
  await dictionaries.addWord('ABC商事', 'エービーシーしょうじ');
  const wordField = word.locator('xpath=..');
  await expect(wordField.getByTestId('field-error')).toHaveText('「ＡＢＣ商事」はこの辞書にすでに登録されています。');
  await expect(word).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'dictionary-form-duplicate-ja');

  // Changing the word takes the refusal away: it spoke of the word that was there.
  await word.fill('');
  await expect(wordField.getByTestId('field-error')).toHaveCount(0);
  await pasteInto(page, 'word-input', '聞き取り\n議事録,ぎじろく\n');
  await expect(word).toHaveValue('');
  const notice = page.getByTestId('pasted-lines');
  await expect(notice).toContainText('2 行を貼り付けました。');
  await expect(notice).toContainText('下の「一括貼り付け・CSV 読み込み」に 1 行 1 語で貼り付けてください。');
  await screenshot(page, 'dictionary-form-pasted-lines-ja');
  await notice.getByRole('button', { name: '一括貼り付けに移す' }).click();
  await expect(page.getByLabel('読み込む行')).toHaveValue('聞き取り\n議事録,ぎじろく');

  await word.fill('あ'.repeat(185));
  await expect(page.getByTestId('word-input-count')).toHaveText('185 文字（最大 200 文字）');
  await screenshot(page, 'dictionary-form-limit-ja');
});
