// Editing like a subtitle editor (issue 12): a word edited in place, find & replace with a preview,
// undo and redo, merge and split, a segment's speaker; all kept after a reload and in the exports.
// Screenshots in English and Japanese for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-editing-'));
  const wav = await meetingWav(dir, 'edit-me.wav');
  await uploadCompleted(host, wav, { numSpeakers: 2 });
});
test.afterAll(async () => host?.close());

const segments = (page: Page) => page.locator('[data-segment-index]');
const segmentTexts = (page: Page) => page.locator('.segment-text').allTextContents();

async function open(page: Page) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row('edit-me.wav').click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('edit-me.wav');
  return transcript;
}

test('edits a word, finds and replaces with a preview, undoes and redoes, merges, splits and re-assigns; all kept and exported', async ({
  page,
}) => {
  const transcript = await open(page);
  const before = await segments(page).count();

  // A word edited in place: double-click, type, Enter.
  await transcript.words.nth(1).dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit the word/ });
  await editor.fill('Kikitori');
  await editor.press('Enter');
  await expect(transcript.word('Kikitori')).toBeVisible();
  // Escape leaves a word as it was.
  await transcript.words.nth(2).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: /^Edit the word/ }).fill('discarded');
  await page.keyboard.press('Escape');
  await expect(page.getByText('discarded')).toHaveCount(0);

  // Find & replace: the count and a preview of each change before applying.
  await page.keyboard.press('Control+h');
  const panel = page.getByTestId('find-panel');
  await panel.getByLabel('Find', { exact: true }).fill('kikitori');
  await panel.getByLabel('Replace with').fill('KIKITORI');
  await panel.getByLabel('Match case').check();
  await expect(panel.getByTestId('find-count')).toHaveText('No matches');
  await panel.getByLabel('Match case').uncheck();
  await panel.getByLabel('Whole word').check();
  await expect(panel.getByTestId('find-count')).toHaveText('Matches: 1');
  const match = panel.getByTestId('find-match').first();
  await expect(match.locator('del')).toHaveText('Kikitori');
  await expect(match.locator('ins')).toHaveText('KIKITORI');
  await screenshot(page, 'editing-find-replace');
  await panel.getByRole('button', { name: 'Replace all (1)' }).click();
  await expect(transcript.words.filter({ hasText: /^KIKITORI$/ })).toHaveCount(1);
  await panel.getByLabel('Find', { exact: true }).fill('Kikitori');
  await panel.getByLabel('Match case').check();
  await expect(panel.getByTestId('find-count')).toHaveText('No matches');
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);

  // Undo with the button, redo with the keys.
  await page.getByRole('button', { name: /Undo/ }).click();
  await expect(transcript.words.filter({ hasText: /^Kikitori$/ })).toHaveCount(1);
  await page.locator('body').press('Control+Shift+Z');
  await expect(transcript.words.filter({ hasText: /^KIKITORI$/ })).toHaveCount(1);

  // Split at a word from its context menu, merge back from the segment's menu, split again with S.
  const firstWords = segments(page).first().getByTestId('word');
  const splitWord = (await firstWords.nth(3).textContent())!;
  await firstWords.nth(3).click({ button: 'right' });
  await screenshot(page, 'editing-word-menu');
  await page.getByRole('menuitem', { name: /Split the segment before this word/ }).click();
  await expect(segments(page)).toHaveCount(before + 1);
  await expect(segments(page).nth(1).getByTestId('word').first()).toHaveText(splitWord);
  await segments(page)
    .first()
    .getByRole('button', { name: /More actions for the segment/ })
    .click();
  await page.getByRole('button', { name: 'Merge with the next segment' }).click();
  await expect(segments(page)).toHaveCount(before);
  await segments(page).first().getByTestId('word').nth(3).focus();
  await page.keyboard.press('s');
  await expect(segments(page)).toHaveCount(before + 1);

  // The second part is given the other speaker.
  await segments(page)
    .nth(1)
    .getByRole('button', { name: /More actions for the segment/ })
    .click();
  const speaker = segments(page).nth(1).getByLabel('Speaker of this segment');
  const current = await speaker.inputValue();
  const other = (
    await speaker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
  ).find((v) => v && v !== current)!;
  expect(other).toBeTruthy();
  await speaker.selectOption(other);
  await expect(segments(page).nth(1).locator('.speaker-chip')).toBeVisible();

  // All kept after a reload.
  const texts = await segmentTexts(page);
  await page.reload();
  await open(page);
  await expect(segments(page)).toHaveCount(before + 1);
  expect(await segmentTexts(page)).toEqual(texts);
  await expect(segments(page).nth(1).locator('.speaker-chip')).toBeVisible();

  // The exports are the edited transcript.
  host.dialogs.savePath = path.join(dir, 'edit-me.txt');
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByLabel('Format').selectOption('txt');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Export transcript' })).toContainText('Saved to');
  const txt = fs.readFileSync(host.dialogs.savePath, 'utf8');
  expect(txt).toContain('KIKITORI');
  expect(txt).not.toContain('Kikitori');

  // The export dialog stays open: SRT from it next.
  host.dialogs.savePath = path.join(dir, 'edit-me.srt');
  await page.getByLabel('Format').selectOption('srt');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  // Main may still be writing it when it appears: wait for its first cue.
  const srtPath = host.dialogs.savePath;
  await expect.poll(() => (fs.existsSync(srtPath) ? fs.readFileSync(srtPath, 'utf8') : '')).toMatch(/-->/);
  const srt = fs.readFileSync(srtPath, 'utf8');
  expect(srt).toContain('KIKITORI');
  // The split shows: a subtitle starts with the word the segment was split at.
  expect(
    srt.split(/\r?\n/).some((line) => line.replace(/^\[[^\]]*\]\s*|^[^:]{1,40}:\s*/, '').startsWith(splitWord)),
  ).toBe(true);
});

test('editing in Japanese', async ({ page }) => {
  const set = await host.invoke('settings:update', { uiLanguage: 'ja' });
  expect(set.ok).toBe(true);
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: 'edit-me.wav を開く' }).click();
  await expect(page.getByTestId('word').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /元に戻す/ })).toBeEnabled();
  await page.keyboard.press('Control+h');
  const panel = page.getByTestId('find-panel');
  await panel.getByLabel('検索', { exact: true }).fill('KIKITORI');
  await panel.getByLabel('置換後').fill('聞き取り');
  await expect(panel.getByTestId('find-count')).toHaveText('一致：1 件');
  await panel.getByLabel('単語単位').check();
  await screenshot(page, 'editing-find-replace-ja');
  await page.keyboard.press('Escape');
  await page.getByTestId('word').nth(2).click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: /この語の前で区間を分割/ })).toBeVisible();
  await screenshot(page, 'editing-word-menu-ja');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'キーボードショートカット' })).toContainText('フォーカス中の語を編集');
  await screenshot(page, 'editing-shortcuts-ja');
});

// Issue 27's small wrongs in the transcript view, in both languages: Redo with nothing to redo looks
// disabled, a replacement that changes nothing is not offered, Escape closes find & replace and gives
// focus back, and a cancelled export says nothing was saved.
for (const language of ['ja', 'en'] as const) {
  test(`small wrongs put right (${language})`, async ({ page }) => {
    const words =
      language === 'ja'
        ? { findReplace: '検索と置換', find: '検索', replaceWith: '置換後', export: '書き出し…', run: '書き出す' }
        : {
            findReplace: 'Find & replace',
            find: 'Find',
            replaceWith: 'Replace with',
            export: 'Export…',
            run: 'Export',
          };
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByRole('button', { name: language === 'ja' ? 'edit-me.wav を開く' : 'Open edit-me.wav' }).click();
    await expect(page.getByTestId('word').first()).toBeVisible();
    const redo = page.getByRole('toolbar').getByRole('button', { name: language === 'ja' ? /やり直す/ : /Redo/ });
    await expect(redo).toBeDisabled();
    expect(await redo.evaluate((b) => getComputedStyle(b).opacity)).toBe('0.5');

    const opener = page.getByRole('button', { name: words.findReplace });
    await opener.click();
    const panel = page.getByTestId('find-panel');
    await panel.getByLabel(words.find, { exact: true }).fill('team');
    await panel.getByLabel(words.replaceWith).fill('team');
    await expect(panel.getByTestId('find-match')).not.toHaveCount(0);
    await expect(panel.getByRole('button', { name: /Replace all|すべて置換/ })).toHaveCount(0);
    await screenshot(page, `polish-find-no-op-${language}`);
    await page.getByTestId('word').first().click();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(opener).toBeFocused();

    host.dialogs.savePath = null;
    await page.getByRole('button', { name: words.export }).click();
    await page.getByRole('button', { name: words.run, exact: true }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /nothing was saved|何も保存されていません/ }),
    ).toBeVisible();
    await screenshot(page, `polish-export-cancelled-${language}`);
  });
}
