// An action item said with "we" has no owner badge ("Owner: we" named nobody): the summary is made by the
// real server from real speech, and shown in English and Japanese.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

const NAME = 'we-will.wav';
let host: Host;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  host = await startHost();
  const wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-owner-')), NAME);
  const first = await synthesizeSpeech('we will send the report to the marketing team by friday');
  const second = await synthesizeSpeech('the budget meeting moved to next week');
  fs.copyFileSync(await concatWithSilence([first, second], 2), wav);
  await uploadCompleted(host, wav);
});
test.afterAll(async () => host?.close());

test('an action item said with “we” shows no owner badge, in English and Japanese', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row(NAME).click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded(NAME);
  await page.getByTestId('analysis-request-summary').click();
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 120_000,
  });
  const result = page.getByTestId('summary-result');
  await expect(result).toContainText(/report/i);
  await expect(result.locator('.badge').filter({ hasText: /^Owner: (we|you|i|he|she|they)$/i })).toHaveCount(0);
  // The server did keep "we" as the item's owner: the badge is left out by the app.
  const list = await host.invoke('transcripts:list', {});
  const id = list.ok ? list.value.items.find((item) => item.name === NAME)!.id : '';
  const view = await host.invoke('analysis:get', { id, kind: 'summary' });
  const owners = view.ok ? (view.value?.summary?.action_items.map((item) => item.owner) ?? []) : [];
  expect(owners).toContain('we');
  await screenshot(page, 'summary-owner-en');

  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await library.goto(host.url);
  await page.getByRole('button', { name: `${NAME} を開く` }).click();
  await expect(page.getByTestId('summary-result')).toContainText(/report/i);
  await expect(
    page
      .getByTestId('summary-result')
      .locator('.badge')
      .filter({ hasText: /^担当：/ }),
  ).toHaveCount(0);
  await screenshot(page, 'summary-owner-ja');
});
