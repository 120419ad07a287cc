// The library with 10,000 cached transcriptions (issue 27 item 9, decision 0079): the first rows and
// their states show from the cache, the count says all of them, and the last one is reached and focused.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ApiTranscription } from '../../src-shared/api-types.js';
import { openCacheStore } from '../../src-main/cache/cache-store.js';
import { startHost, type Host } from './e2e-support.js';

const TOTAL = 10_000;
const FAILED_AT = TOTAL - 3;
let host: Host;

function record(index: number): ApiTranscription {
  const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  return {
    transcription_id: `many-${index}`,
    dictionary_id: null,
    team_id: 'e2e',
    name: `Recording ${String(index).padStart(5, '0')}.wav`,
    user: { user_id: 'e2e', name: 'E2E' },
    transcription_path: null,
    audio_path: null,
    transcription_model: 'default',
    status: index === FAILED_AT ? 'FAILED' : 'COMPLETED',
    ...(index === FAILED_AT ? { failure_reason: 'The recording has no speech.' } : {}),
    speaking_duration: 48,
    created_at: at,
    updated_at: at,
    language: ['en'],
    duration: 60,
  };
}

test.beforeAll(async () => {
  host = await startHost({ server: 'unreachable' });
  const store = openCacheStore(path.join(host.profileDir, 'cache.sqlite'));
  try {
    store.transcriptions.upsertManyFromApi(Array.from({ length: TOTAL }, (_, i) => record(i)));
  } finally {
    store.close();
  }
});
test.afterAll(async () => host?.close());

test('10,000 cached transcriptions: newest first with their states, and the last one reached from the keyboard', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1360, height: 880 });
  await page.goto(host.url);
  const rows = page.getByTestId('transcription-row');
  await expect(rows.first()).toHaveAccessibleName('Open Recording 09999.wav');
  await expect(page.locator('.count')).toHaveText('Transcriptions: 10000');
  // Only what is on screen is in the page.
  expect(await rows.count()).toBeLessThan(60);
  await expect(page.getByRole('button', { name: 'Open Recording 09998.wav' })).toHaveAttribute(
    'data-status',
    'COMPLETED',
  );
  const failed = page
    .locator('.list-row')
    .filter({ has: page.getByRole('button', { name: 'Open Recording 09997.wav' }) });
  await expect(failed.getByTestId('failure-reason')).toHaveText('The recording has no speech.');

  await rows.first().focus();
  await page.keyboard.press('End');
  const last = page.getByRole('button', { name: 'Open Recording 00000.wav' });
  await expect(last).toBeFocused();
  await expect(last).toBeInViewport();
  await expect(page.locator(`[data-index="${TOTAL - 1}"]`)).toHaveAttribute('aria-posinset', String(TOTAL));
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('button', { name: 'Open Recording 00001.wav' })).toBeFocused();
});
