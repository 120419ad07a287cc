// Issue 27, items 5 and 7 (decision 0087), at 1024×700 in English and Japanese: Settings names what
// transcribes in plain words and groups a model's compressed files under it with honest labels; the
// upload form's choice says what it does to speakers; the translation target is chosen by language name
// from what the server translates offline, with the languages that need its language model marked and,
// on a server without one, unavailable with the reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1024, height: 700 } });

const WORDS = {
  en: {
    settings: 'Settings',
    builtin: 'Built-in English recognizer',
    small: 'Whisper small — 99 languages',
    smallEnglish: 'Whisper small — English only',
    files: ['Full size', 'Compressed: smaller, nearly as accurate', 'Compressed: smallest, a little less accurate'],
    options: 'Upload options',
    speakers: 'Telling speakers apart',
    choices: ['Standard', 'More careful (slower)'],
    translation: 'Translation',
    target: 'Target language',
    offline: 'On this server (works offline)',
    llm: "Needs the server's language model",
    noLlm: 'Not set up on this server',
    spanish: 'Spanish',
    translated: 'Translation (Spanish)',
  },
  ja: {
    settings: '設定',
    builtin: '内蔵の英語音声認識',
    small: 'Whisper small — 99 言語',
    smallEnglish: 'Whisper small — 英語のみ',
    files: ['通常版', '圧縮版: 小さく、精度はほぼ同じ', '圧縮版: 最も小さく、精度はやや下がる'],
    options: 'アップロードの設定',
    speakers: '話者の聞き分け',
    choices: ['標準', 'より丁寧に（時間がかかる）'],
    translation: '翻訳',
    target: '翻訳先の言語',
    offline: 'このサーバーで翻訳（オフラインで使えます）',
    llm: 'サーバーの言語モデルが必要',
    noLlm: 'このサーバーには設定されていません',
    spanish: 'スペイン語',
    translated: '翻訳（スペイン語）',
  },
} as const;

let host: Host;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-vocabulary-'));
  // The official small model's files, named as the official catalogue names them; nothing downloads them.
  const entry = (name: string, bytes: number, multilingual = true) => ({
    name,
    file: `ggml-${name}.bin`,
    bytes,
    sha256: '0'.repeat(64),
    multilingual,
    speed: 'moderate',
    accuracy: 'better',
    memory_bytes: bytes + 400 * 1024 ** 2,
    url: `http://127.0.0.1:9/ggml-${name}.bin`,
  });
  const catalogue = path.join(dir, 'catalogue.json');
  fs.writeFileSync(
    catalogue,
    JSON.stringify({
      models: [
        entry('small', 487_601_967),
        entry('small.en', 487_614_201, false),
        entry('small-q5_1', 190_085_487),
        entry('small-q8_0', 264_464_607),
      ],
    }),
  );
  host = await startHost({ serverEnv: { KIKITORI_MODEL_CATALOG: catalogue }, keyRoles: ['DELETE', 'OPERATOR'] });
  await uploadCompleted(host, await meetingWav(dir));
});
test.afterAll(async () => host?.close());

async function inLanguage(page: Page, language: 'en' | 'ja') {
  expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  return library;
}

for (const language of ['en', 'ja'] as const) {
  const words = WORDS[language];

  test(`${language}: Settings names what transcribes in plain words and groups the compressed files under their model`, async ({
    page,
  }) => {
    await inLanguage(page, language);
    await page.getByRole('navigation').getByRole('button', { name: words.settings }).click();
    const section = page.getByTestId('speech-section');
    await expect(section.getByTestId('speech-headline')).toHaveText(words.builtin);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, `vocabulary-settings-speech-top-${language}`);
    await expect(section.getByTestId('speech-using')).toHaveCount(0);
    await expect(section).not.toContainText(/pocketsphinx|Using:|使用中/);
    // Catalogue names stay out of sight: only plain names and what each file keeps.
    await expect(section).not.toContainText(/q5_1|q8_0|small\.en/);

    const groups = section.getByTestId('speech-group');
    await expect(groups).toHaveCount(2);
    await expect(groups.locator('.speech-group-head strong')).toHaveText([words.small, words.smallEnglish]);
    const small = groups.first();
    await expect(small.getByTestId('speech-model')).toHaveText(words.files.map((w) => new RegExp(w)));
    await expect(small.getByTestId('speech-model').nth(2)).toHaveAttribute('data-model', 'small-q5_1');
    await small.getByTestId('speech-model').nth(2).scrollIntoViewIfNeeded();
    await screenshot(page, `vocabulary-settings-speech-${language}`);
  });

  test(`${language}: the upload form's choice says what it does to speakers`, async ({ page }) => {
    await inLanguage(page, language);
    await page.locator('.upload-options > summary').filter({ hasText: words.options }).click();
    const choice = page.getByLabel(words.speakers, { exact: true });
    await expect(choice.locator('option')).toHaveText([...words.choices]);
    await expect(page.getByTestId('model-hint')).toBeVisible();
    await choice.scrollIntoViewIfNeeded();
    await screenshot(page, `vocabulary-upload-options-${language}`);
  });

  test(`${language}: the translation target is chosen by name, offline pairs first, the language model marked and unavailable`, async ({
    page,
  }) => {
    await inLanguage(page, language);
    await page.getByTestId('transcription-row').filter({ hasText: 'team-meeting.wav' }).click();
    const transcript = new TranscriptPage(page);
    await transcript.expectLoaded('team-meeting.wav');
    await page.getByRole('tab', { name: words.translation }).click();
    const target = page.getByLabel(words.target);
    await expect(target).toBeEnabled();
    await expect(target).not.toHaveAttribute('placeholder', /.+/);

    const offline = target.locator('optgroup', { has: page.locator('option') }).first();
    await expect(offline).toHaveAttribute('label', words.offline);
    await expect(offline.locator('option', { hasText: words.spanish })).toHaveAttribute('value', 'es');
    const llm = target.locator(`optgroup[label="${words.llm}"]`);
    await expect(llm.locator('option')).toHaveText([words.noLlm]);
    await expect(llm.locator('option')).toBeDisabled();
    await expect(page.getByTestId('translation-target-hint')).not.toBeEmpty();

    // The list as the user opens it (a native list's popup is not in screenshots: shown open in place).
    await target.evaluate((select: HTMLSelectElement) => (select.size = 14));
    await screenshot(page, `vocabulary-translation-list-${language}`);
    await target.evaluate((select: HTMLSelectElement) => (select.size = 0));
    await target.selectOption({ label: words.spanish });
    await page.getByTestId('analysis-request-translation').click();
    await expect(page.getByTestId('analysis-status-translation')).toHaveAttribute('data-status', 'COMPLETED', {
      timeout: 120_000,
    });
    const table = page.getByTestId('translation-result');
    await expect(table.locator('thead')).toContainText(words.translated);
    await target.scrollIntoViewIfNeeded();
    await screenshot(page, `vocabulary-translation-${language}`);
  });
}
