// A summary made before the transcript was edited says so (issue: the tester saw "Ready" quoting the old
// text after an edit), in English and Japanese at 1024×700, and running it again brings it up to date.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1024, height: 700 } });

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
  const wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-outdated-')), 'outdated.wav');
  await uploadCompleted(host, wav);
});
test.afterAll(async () => host?.close());

async function open(page: Page, language: 'en' | 'ja') {
  expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: language === 'ja' ? 'outdated.wav を開く' : 'Open outdated.wav' }).click();
  const transcript = new TranscriptPage(page);
  await expect(transcript.words.first()).toBeVisible();
  return transcript;
}

async function summarized(page: Page) {
  await page.getByTestId('analysis-request-summary').click();
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-outdated', 'false');
}

async function editWord(page: Page, transcript: TranscriptPage, word: string, label: RegExp) {
  await transcript.words.nth(1).dblclick();
  const editor = page.getByRole('textbox', { name: label });
  await editor.fill(word);
  await editor.press('Enter');
  await expect(transcript.word(word)).toBeVisible();
}

test('a summary made before an edit says the transcript changed, and Run again brings it up to date', async ({
  page,
}) => {
  const transcript = await open(page, 'en');
  await summarized(page);
  await expect(page.getByTestId('analysis-outdated-summary')).toHaveCount(0);

  await editWord(page, transcript, 'Kikitori', /^Edit the word/);
  const status = page.getByTestId('analysis-status-summary');
  await expect(status).toHaveAttribute('data-outdated', 'true');
  await expect(status).toHaveText('Out of date');
  await expect(page.getByTestId('analysis-outdated-summary')).toHaveText(
    /The transcript changed since this was made\. Run it again/,
  );
  await expect(page.getByTestId('analysis-request-summary')).toHaveText('Run again');
  await screenshot(page, 'analysis-outdated-en');

  await page.getByTestId('analysis-request-summary').click();
  await expect(status).toHaveAttribute('data-status', 'COMPLETED', { timeout: 120_000 });
  await expect(status).toHaveAttribute('data-outdated', 'false');
  await expect(page.getByTestId('analysis-outdated-summary')).toHaveCount(0);
});

test('says so in Japanese', async ({ page }) => {
  const transcript = await open(page, 'ja');
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-status', 'COMPLETED');
  await editWord(page, transcript, '聞き取り', /」を編集$/);
  await expect(page.getByTestId('analysis-status-summary')).toHaveText('古い結果');
  await expect(page.getByTestId('analysis-outdated-summary')).toContainText('文字起こしが変更されました');
  await expect(page.getByTestId('analysis-request-summary')).toHaveText('もう一度実行');
  await screenshot(page, 'analysis-outdated-ja');
});

for (const language of ['en', 'ja'] as const) {
  test(`the overall emotion says it is an average over all the speech (${language})`, async ({ page }) => {
    await open(page, language);
    await page.getByRole('tab', { name: language === 'ja' ? '感情' : 'Emotion' }).click();
    const status = page.getByTestId('analysis-status-emotion');
    if ((await status.getAttribute('data-status')) !== 'COMPLETED') {
      await page.getByTestId('analysis-request-emotion').click();
      await expect(status).toHaveAttribute('data-status', 'COMPLETED', { timeout: 120_000 });
    }
    await expect(page.getByTestId('emotion-overall')).toContainText(
      language === 'ja'
        ? /発話全体の平均 \d+%.*2 区間中 \d 区間で最も強い感情です。/
        : /on average over all the speech.*The strongest emotion in \d of 2 segments\./,
    );
    await screenshot(page, `analysis-emotion-overall-${language}`);
  });
}
