// The upload form and Settings pick languages by name, in the UI language, several at once. What is
// offered follows the server's engine (GET /api/v1/models): with the built-in recognizer (no speech
// model installed) the form says it understands English only and marks other languages as needing a
// model; with whisper it offers "Detect automatically" and its languages. A language the engine
// cannot recognize is refused in the user's terms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { randomWhisperModel } from '../support/ggml-model.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

const picker = (page: Page) => page.getByTestId('language-picker');
const chips = (page: Page) => picker(page).locator('.language-chip[data-code]');
const listbox = (page: Page) => picker(page).getByRole('listbox');
const BUILT_IN_HINT =
  'The built-in recognizer understands English only. For other languages, download a speech model in Settings → Speech recognition.';

test.describe('with whisper', () => {
  let host: Host;
  test.beforeAll(async () => {
    const model = await randomWhisperModel();
    host = await startHost({
      serverEnv: { KIKITORI_ENGINE_DEFAULT: 'whisper', KIKITORI_WHISPER_MODEL: model, KIKITORI_WHISPER_THREADS: '1' },
    });
  });
  test.afterAll(async () => host?.close());

  test('picks languages by name in the upload form, several at once, and removes one', async ({ page }) => {
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByText('Upload options').click();
    await expect(page.getByTestId('language-hint')).toHaveText(/detected automatically/);
    const search = page.getByTestId('language-input');
    await expect(search).toHaveAttribute('placeholder', 'Search languages by name or code');
    await search.focus();
    await expect(listbox(page).getByRole('option').first()).toHaveText(/Detect automatically/);
    await expect(listbox(page).getByRole('option').first()).toHaveAttribute('aria-selected', 'true');

    await search.fill('japa');
    const japanese = listbox(page).getByRole('option').first();
    await expect(japanese.locator('.language-option-name')).toHaveText('Japanese');
    await expect(japanese.locator('.language-code')).toHaveText('ja');
    await page.keyboard.press('Enter');
    await expect(chips(page)).toHaveAttribute('data-code', 'ja');

    // By the Japanese name, with a click.
    await search.fill('スペイン');
    await listbox(page)
      .getByRole('option', { name: /Spanish/ })
      .click();
    await expect(chips(page)).toHaveText([/Japanese/, /Spanish/]);
    await search.fill('fre');
    await expect(listbox(page).getByRole('option').first()).toContainText('French');
    await screenshot(page, 'languages-picker');

    await page.keyboard.press('Escape');
    await expect(search).toHaveAttribute('aria-expanded', 'false');
    await page.getByRole('button', { name: 'Remove Spanish' }).click();
    await expect(chips(page)).toHaveText([/Japanese/]);
    // The choice is remembered for the next uploads (decision 0029).
    await expect
      .poll(
        async () =>
          ((await host.invoke('settings:get')) as { value?: { defaults: { language: unknown } } }).value?.defaults
            .language,
      )
      .toEqual('ja');
  });

  test('Settings picks the default languages by name, and new uploads start with them', async ({ page }) => {
    expect(await host.invoke('settings:update', { defaults: { language: null } })).toMatchObject({ ok: true });
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await library.openTab('Settings');
    const search = page.getByTestId('default-language-input');
    await search.fill('korean');
    await page.keyboard.press('Enter');
    await search.fill('en');
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () =>
          ((await host.invoke('settings:get')) as { value?: { defaults: { language: unknown } } }).value?.defaults
            .language,
      )
      .toEqual(['ko', 'en']);
    await page.keyboard.press('Escape');
    await screenshot(page, 'languages-settings');

    await page.reload();
    await expect(library.dropZone).toBeVisible();
    await page.getByText('Upload options').click();
    await expect(chips(page)).toHaveText([/Korean/, /English/]);
    expect(await host.invoke('settings:update', { defaults: { language: null } })).toMatchObject({ ok: true });
  });
});

test.describe('with the built-in recognizer', () => {
  let host: Host;
  let wav: string;
  test.beforeAll(async () => {
    host = await startHost();
    wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-audio-')));
  });
  test.afterAll(async () => {
    await host?.invoke('settings:update', { uiLanguage: 'en', defaults: { language: null } });
    await host?.close();
  });

  test('says it understands English only, and offers other languages only as needing a speech model', async ({
    page,
  }) => {
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByText('Upload options').click();
    await expect(page.getByTestId('language-hint')).toHaveText(BUILT_IN_HINT);
    const search = page.getByTestId('language-input');
    await search.focus();
    await expect(listbox(page).getByRole('option').first()).toHaveText(/English/);
    await expect(listbox(page).getByRole('option', { name: /Detect automatically/ })).toHaveCount(0);

    await search.fill('japanese');
    const japanese = listbox(page).getByRole('option').first();
    await expect(japanese).toContainText('needs a speech model');
    await expect(japanese).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Enter');
    await expect(chips(page)).toHaveCount(0);
    await screenshot(page, 'languages-built-in');

    await search.fill('english');
    await page.keyboard.press('Enter');
    await expect(chips(page)).toHaveText([/English/]);
  });

  test('a language the engine cannot recognize is refused by name, with what to do', async ({ page }) => {
    // A default saved while another engine served: the form marks it, and the server refuses it.
    expect(await host.invoke('settings:update', { defaults: { language: 'ja' } })).toMatchObject({ ok: true });
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByText('Upload options').click();
    await expect(picker(page).locator('.language-chip[data-code="ja"]')).toHaveAttribute('data-unknown', 'true');

    await library.dropFile(wav);
    // What to do, in the UI's language; the server's words, naming the language, under Details (decision 0068).
    const upload = library.upload(path.basename(wav));
    await expect(upload).toContainText(
      'The server cannot transcribe the chosen language. Choose another one, or download a speech model that knows it',
      { timeout: 60_000 },
    );
    await upload.getByText('Details', { exact: true }).click();
    await expect(upload.locator('.error-detail-text')).toHaveText(
      'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    );
    await screenshot(page, 'languages-refused');
    expect(await host.invoke('settings:update', { defaults: { language: null } })).toMatchObject({ ok: true });
  });

  test('the Japanese UI names languages in Japanese and still finds them by English name', async ({ page }) => {
    expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
    const library = new LibraryPage(page);
    await library.goto(host.url);
    await page.getByText('アップロードの設定').click();
    await expect(page.getByTestId('language-hint')).toHaveText(
      '内蔵の音声認識は英語のみに対応しています。他の言語には、設定 → 音声認識で音声モデルをダウンロードしてください。',
    );
    const search = page.getByTestId('language-input');
    await expect(search).toHaveAttribute('placeholder', '言語名またはコードで検索');
    await search.fill('spanish');
    const first = listbox(page).getByRole('option').first();
    await expect(first.locator('.language-option-name')).toHaveText('スペイン語');
    await expect(first.locator('.language-code')).toHaveText('es · Spanish · 音声モデルが必要');
    await search.fill('えいご');
    await page.keyboard.press('Enter');
    await expect(chips(page)).toHaveText([/英語/]);
    await search.fill('ド');
    await screenshot(page, 'languages-picker-ja');
    // Under Chromium's trimmed ICU about fifty names came out in English, first; and Akan twice.
    await search.fill('');
    const names = await listbox(page).locator('.language-option-name').allTextContents();
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((name) => /[A-Za-z]/.test(name))).toEqual([]);
    expect(names.filter((name) => name === 'アカン語')).toHaveLength(1);
    await screenshot(page, 'languages-picker-ja-all');
  });
});
