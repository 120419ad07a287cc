// Confidence that means something (issue 27, decision 0086): real speech with names no dictionary holds,
// recognized by the built-in recognizer. Only words more likely wrong than right are underlined, "Next
// uncertain word" (the button and U) visits them in order from the playback position and wraps, and once
// each is corrected the toolbar says there are none left. Screenshots in English and Japanese.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

const NAME = 'names-meeting.wav';
let host: Host;
test.beforeAll(async () => {
  host = await startHost();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-uncertain-'));
  const wav = path.join(dir, NAME);
  const sentences = [
    'Please send the final report to Drovana before Friday.',
    'The next meeting with Brimstead is on Thursday.',
    'Tomorrow morning Jaxomar will call the customer.',
  ];
  fs.copyFileSync(await concatWithSilence(await Promise.all(sentences.map((s) => synthesizeSpeech(s))), 1.5), wav);
  await uploadCompleted(host, wav);
});
test.afterAll(async () => host?.close());

async function open(page: Page) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row(NAME).click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded(NAME);
  return transcript;
}

const uncertain = (page: Page) => page.locator('.word-low');
const status = (page: Page) => page.getByTestId('uncertain-status');

/** The focused word is the `index`-th underlined one, and playback is at its start. */
async function expectAt(page: Page, index: number, text: string) {
  const word = uncertain(page).nth(index);
  await expect(word).toBeFocused();
  const start = Number(await word.getAttribute('data-start'));
  await expect(page.getByTestId('player-time')).toHaveAttribute('data-seconds', start.toFixed(2));
  await expect(status(page)).toHaveText(text);
}

test('underlines only the words more likely wrong than right, and visits them in order with the button and U', async ({
  page,
}) => {
  const transcript = await open(page);
  const words = await transcript.words.count();
  const total = await uncertain(page).count();
  // The names are not in the recognizer's dictionary: some words must come out wrong and be caught,
  // but the underline is no longer most of the transcript (68 of 108 words before calibration).
  expect(total).toBeGreaterThanOrEqual(2);
  expect(total).toBeLessThan(words / 3);
  await expect(status(page)).toHaveText(`${total} uncertain`);
  await expect(page.getByText('Words with a dotted underline are more likely wrong than right.')).toBeVisible();

  const next = page.getByRole('button', { name: 'Next uncertain word' });
  await expect(next).toHaveAttribute('aria-keyshortcuts', 'U');
  await next.click();
  await expectAt(page, 0, `1 of ${total} uncertain`);
  for (let i = 1; i < total; i++) {
    await page.keyboard.press('u');
    await expectAt(page, i, `${i + 1} of ${total} uncertain`);
  }
  await screenshot(page, 'uncertain-words-en');
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(next).toBeVisible();
  await screenshot(page, 'uncertain-words-en-1024x700');
  // After the last: the first again.
  await page.keyboard.press('u');
  await expectAt(page, 0, `1 of ${total} uncertain`);

  // The shortcut sheet lists the key.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toContainText('Next uncertain word (underlined)');
  await page.keyboard.press('Escape');
});

test('in Japanese, and once each uncertain word is corrected there are none left', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Settings');
  await page.getByTestId('ui-language').selectOption('ja');
  await page.getByRole('navigation').getByRole('button', { name: 'ライブラリ' }).click();
  await page.getByRole('button', { name: `${NAME} を開く` }).click();
  await expect(page.getByTestId('transcript-title')).toHaveText(NAME);
  const total = await uncertain(page).count();
  expect(total).toBeGreaterThanOrEqual(2);
  await expect(status(page)).toHaveText(`不確かな語 ${total} 件`);
  await page.getByRole('button', { name: '次の不確かな語' }).click();
  await expectAt(page, 0, `不確かな語 ${total} 件中 1 件目`);
  await page.keyboard.press('u');
  await expectAt(page, 1, `不確かな語 ${total} 件中 2 件目`);
  await screenshot(page, 'uncertain-words-ja');

  // Review in order: go to the next uncertain word, Enter edits it, type the right word, Enter saves.
  // A corrected word is the user's, no longer the recognizer's guess: it is not underlined.
  for (let left = total; left > 0; left--) {
    await page.keyboard.press('u');
    await expect(page.locator('.word-low:focus')).toHaveCount(1);
    await page.keyboard.press('Enter');
    const editor = page.locator('input.word-editor');
    await editor.fill(`fixed${left}`);
    await editor.press('Enter');
    await expect(uncertain(page)).toHaveCount(left - 1);
    await expect(editor).toHaveCount(0);
    await expect(page.getByTestId('word').filter({ hasText: `fixed${left}` })).toHaveCount(1);
  }
  await expect(status(page)).toHaveText('不確かな語はありません');
  await expect(page.getByRole('button', { name: '次の不確かな語' })).toBeDisabled();
  await screenshot(page, 'uncertain-words-ja-none');
});
