// A completed transcription stays usable when the server is gone: browse, search, play. And a summary
// requested while online appears once its job finishes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { TranscriptionSummary } from '../../src-shared/ipc-contract.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

// Not serial: the offline test runs even when the summary test fails (a new worker seeds again).
let host: Host;
let id: string;
test.beforeAll(async () => {
  host = await startHost();
  const wav = await meetingWav(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-audio-')), 'weekly-sync.wav');
  const added = await host.invoke('uploads:add', {
    files: await host.offer(wav),
    options: {
      language: 'en',
      model: 'default',
      numSpeakers: null,
      minSpeakers: null,
      maxSpeakers: null,
      dictionaryId: null,
      words: [],
    },
  });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  // Completed, with its document in the cache (transcripts:get answers it) and its audio kept locally.
  await expect
    .poll(
      async () => {
        const list = await host.invoke('transcripts:list', {});
        const item: TranscriptionSummary | undefined = list.ok
          ? list.value.items.find((t) => t.name === 'weekly-sync.wav')
          : undefined;
        if (item?.status !== 'COMPLETED' || !item.audioCached) return false;
        const detail = await host.invoke('transcripts:get', { id: item.id });
        id = item.id;
        return detail.ok && detail.value.document !== null;
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toBe(true);
});
test.afterAll(async () => host?.close());

test('a summary requested in the app appears with links to its moments', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row('weekly-sync.wav').click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('weekly-sync.wav');

  await page.getByTestId('analysis-request-summary').click();
  // Accepted at once (a refusal shows its message instead), then done when its job finishes.
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-status', /IN_PROGRESS|COMPLETED/);
  await expect(page.getByTestId('analysis-status-summary')).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 120_000,
  });
  const result = page.getByTestId('summary-result');
  await expect(result).toBeVisible();
  await expect(result).toContainText(/report|budget|meeting/i);
  await screenshot(page, 'summary');

  // Every summary item links to its moment in the audio.
  const moment = result.getByRole('button', { name: /^Jump to / }).last();
  await moment.click();
  await expect.poll(() => transcript.currentTime()).toBeGreaterThan(0);
});

const SHORT_SUMMARY = {
  en: { row: 'Open weekly-sync.wav', overview: 'Overview', keyPoints: 'Key points', actionItems: 'Action items' },
  ja: { row: 'weekly-sync.wav を開く', overview: '概要', keyPoints: '要点', actionItems: 'アクションアイテム' },
} as const;

// The tryout's two-sentence recording: the overview said "To do: …" of the action item listed right below it,
// and "Key points" said "Nothing found".
for (const language of ['en', 'ja'] as const)
  test(`the summary of a two-sentence recording says each thing once, with no empty key points (${language})`, async ({
    page,
  }) => {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      await page.getByRole('button', { name: SHORT_SUMMARY[language].row }).click();
      await new TranscriptPage(page).expectLoaded('weekly-sync.wav');
      const status = page.getByTestId('analysis-status-summary');
      if ((await status.getAttribute('data-status')) !== 'COMPLETED')
        await page.getByTestId('analysis-request-summary').click();
      await expect(status).toHaveAttribute('data-status', 'COMPLETED', { timeout: 120_000 });
      const result = page.getByTestId('summary-result');
      const headings = result.getByRole('heading');
      await expect(headings.first()).toHaveText(SHORT_SUMMARY[language].overview);
      await expect(headings.filter({ hasText: SHORT_SUMMARY[language].keyPoints })).toHaveCount(0);
      const overview = result.locator('.overview');
      await expect(overview).toContainText(/budget/i);
      await expect(overview).not.toContainText(/to do|report/i);
      // The task is in its list, said once.
      await expect(headings.filter({ hasText: SHORT_SUMMARY[language].actionItems })).toHaveCount(1);
      await expect(result.locator('.moment-list').first()).toContainText(/send (a|the) report/i);
      await screenshot(page, `summary-two-sentences-${language}`);
    } finally {
      expect((await host.invoke('settings:update', { uiLanguage: 'en' })).ok).toBe(true);
    }
  });

test('emotion shows as coloured bands on the timeline, and a translation sits beside the original', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row('weekly-sync.wav').click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('weekly-sync.wav');

  await transcript.analysisTab('Emotion').click();
  await page.getByTestId('analysis-request-emotion').click();
  await expect(page.getByTestId('analysis-status-emotion')).toHaveAttribute('data-status', /IN_PROGRESS|COMPLETED/);
  await expect(page.getByTestId('analysis-status-emotion')).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('emotion-result')).toBeVisible();
  // One band per segment in the emotion lane.
  const segments = await page.locator('[data-segment-id]').count();
  await expect(page.locator('[data-lane="emotion"] rect')).toHaveCount(segments);

  await transcript.analysisTab('Translation').click();
  await page.getByLabel('Target language').selectOption('es');
  await page.getByTestId('analysis-request-translation').click();
  await expect(page.getByTestId('analysis-status-translation')).toHaveAttribute('data-status', /IN_PROGRESS|COMPLETED/);
  await expect(page.getByTestId('analysis-status-translation')).toHaveAttribute('data-status', 'COMPLETED', {
    timeout: 120_000,
  });
  const table = page.getByTestId('translation-result');
  await expect(table.locator('tbody tr')).toHaveCount(segments);
  await expect(table).toContainText(/budget/i);
  await screenshot(page, 'translation');
  await transcript.analysisTab('Emotion').click();
  await screenshot(page, 'emotion');
});

test('with the server stopped, the cached transcription can still be browsed, searched and played', async ({
  page,
}) => {
  await host.stopServer();
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await library.expectOffline();
  await expect(library.row('weekly-sync.wav')).toBeVisible();

  await library.search.fill('budget');
  await expect(library.hits.first()).toBeVisible();
  await expect(library.hits.first()).toContainText('weekly-sync.wav');
  await screenshot(page, 'offline-search');

  await library.hits.first().click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('weekly-sync.wav');
  // The hit opened the transcript at the moment it was said.
  await expect.poll(() => transcript.currentTime()).toBeGreaterThan(1);
  const from = await transcript.currentTime();
  await transcript.play.click();
  await expect.poll(() => transcript.currentTime(), { timeout: 15_000 }).toBeGreaterThan(from + 0.3);
  await transcript.play.click();
  await expect(library.connection).toHaveAttribute('data-online', 'false');
  await screenshot(page, 'offline-transcript');
  expect(id).toBeTruthy();
});
