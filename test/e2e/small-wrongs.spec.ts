// Issue 27's small wrongs in the library and the dictionaries, in English and Japanese, in Chromium against
// the real main-process services and server: a file dropped while a speaker count is invalid is refused out
// loud; a file the server cannot decode, tried again, reads "Failed" in the uploads queue as on its row, and the row
// does not claim a transcript to read offline; two dictionaries of one name are told apart in the list, in
// the upload options and in the delete prompt. (The transcript view's small wrongs are in editing.spec.ts,
// the language list's in languages.spec.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LIMITS } from '../../src-shared/limits.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-small-wrongs-'));
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function inLanguage(page: Page, uiLanguage: 'en' | 'ja') {
  expect(await host.invoke('settings:update', { uiLanguage })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  return library;
}

const WORDS = {
  en: {
    options: 'Upload options',
    notAdded: 'Nothing was added: an option in “Upload options” is not valid',
    dismiss: 'Dismiss',
    open: (name: string) => `Open ${name}`,
    failed: /^Failed/,
    tryAgain: (name: string) => `Try ${name} again with the same options`,
    kept: 'Recording kept on this computer',
    offline: 'Available offline',
    dictionaries: 'Dictionaries',
    library: 'Library',
  },
  ja: {
    options: 'アップロードの設定',
    notAdded: '追加されませんでした',
    dismiss: '閉じる',
    open: (name: string) => `${name} を開く`,
    failed: /^失敗/,
    tryAgain: (name: string) => `${name} を同じ設定で再試行`,
    kept: '録音はこのコンピューターに保存されています',
    offline: 'オフラインで利用可能',
    dictionaries: '辞書',
    library: 'ライブラリ',
  },
} as const;

for (const language of ['en', 'ja'] as const) {
  const words = WORDS[language];

  test(`a file dropped while the speaker count is invalid is refused out loud (${language})`, async ({ page }) => {
    const library = await inLanguage(page, language);
    await page.getByText(words.options, { exact: true }).click();
    await page.getByTestId('speaker-mode').selectOption('exact');
    await page.getByTestId('num-speakers-input').fill(String(LIMITS.speakers.max + 1));
    await library.dropFile(await meetingWav(dir, `refused-${language}.wav`));
    const refused = page.getByTestId('drop-refused');
    await expect(refused).toContainText(words.notAdded);
    await expect(library.upload(`refused-${language}.wav`)).toHaveCount(0);
    await screenshot(page, `small-wrongs-drop-refused-${language}`);
    await refused.getByRole('button', { name: words.dismiss }).click();
    await expect(refused).toHaveCount(0);
    await page.getByTestId('speaker-mode').selectOption('auto');
  });

  test(`a file the server cannot decode, tried again, says Failed in the queue as on its row (${language})`, async ({
    page,
  }) => {
    const library = await inLanguage(page, language);
    const name = `notes-${language}.wav`;
    const file = path.join(dir, name);
    // Binary with no known signature: main lets it through (some media have none), the server cannot decode it.
    fs.writeFileSync(file, Buffer.from(Array.from({ length: 65_536 }, (_, i) => (i * 31 + 7) % 251)));
    await library.dropFile(file);
    const row = page.getByRole('button', { name: words.open(name) });
    await expect(row).toHaveAttribute('data-status', 'FAILED', { timeout: 120_000 });
    const failed = page.locator('.row-failed').filter({ has: row });
    await failed.getByRole('button', { name: words.tryAgain(name) }).click();
    // Tried again, it fails again: the queue's line says so, never "Uploaded" beside a failed row.
    await expect(page.getByRole('button', { name: words.open(name) })).toHaveAttribute('data-status', 'FAILED', {
      timeout: 120_000,
    });
    const item = library.upload(name);
    await expect(item).toHaveAttribute('data-queue', 'failed');
    await expect(item.getByTestId('upload-state')).toHaveText(words.failed);
    const again = page.locator('.row-failed').filter({ has: page.getByRole('button', { name: words.open(name) }) });
    await expect(again).not.toContainText(words.offline);
    // Its recording is kept here (Try again starts from it), marked as a recording in grey, not the green
    // check of a transcript to read offline.
    const kept = again.getByTestId('row-cached');
    await expect(kept).toHaveAttribute('title', words.kept);
    await expect(kept).toHaveAttribute('data-kind', 'recording');
    expect(await kept.evaluate((mark) => getComputedStyle(mark).color)).toBe('rgb(98, 103, 112)');
    await screenshot(page, `small-wrongs-not-audio-${language}`);
  });
}

test('two dictionaries of one name are told apart in the list, the upload options and the delete prompt', async ({
  page,
}) => {
  for (let n = 0; n < 2; n++)
    expect(await host.invoke('dictionaries:create', { name: 'Names' })).toMatchObject({ ok: true });
  for (const language of ['en', 'ja'] as const) {
    const words = WORDS[language];
    await inLanguage(page, language);
    await page.getByRole('navigation').getByRole('button', { name: words.dictionaries }).click();
    const items = page.getByTestId('dictionary-item').filter({ hasText: 'Names' });
    await expect(items).toHaveCount(2);
    const labels = await items.allTextContents();
    expect(new Set(labels).size).toBe(2);
    for (const label of labels) expect(label).toMatch(/^Names .+/);
    await items.nth(1).click();
    await expect(page.getByTestId('dictionary-editor')).toBeVisible();
    await screenshot(page, `small-wrongs-dictionaries-${language}`);

    // The delete prompt names the one selected, as the list does; dismissed, nothing is deleted.
    const prompt = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      }),
    );
    await page
      .getByTestId('dictionary-editor')
      .getByRole('button', { name: /Delete|削除/ })
      .click();
    const message = await prompt;
    expect(message).toContain(labels[1]!);
    await expect(items).toHaveCount(2);

    await page.getByRole('navigation').getByRole('button', { name: words.library }).click();
    await page.getByText(words.options, { exact: true }).click();
    const choices = await page
      .locator('.upload-options select')
      .filter({ has: page.locator('option', { hasText: 'Names' }) })
      .locator('option', { hasText: 'Names' })
      .allTextContents();
    expect(choices.sort()).toEqual([...labels].sort());
  }
});

test('opening the app asks for nothing that is not there (no favicon 404 in the console)', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') missing.push(`${message.text()} ${message.location().url}`);
  });
  const library = await inLanguage(page, 'en');
  await expect(library.page.getByRole('navigation')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
});
