// The cache keeps the newest server answer for a transcription: the list and the record come from
// different requests, and a list page cached on the server a moment before a change may arrive last.
import { describe, expect, it } from 'vitest';
import { openCacheStore } from '../../../../src-main/cache/cache-store.js';
import type { ApiTranscription } from '../../../../src-shared/api-types.js';

const running = (
  stage: NonNullable<ApiTranscription['stage']>,
  updatedAt: string,
  progress: number,
): ApiTranscription => ({
  transcription_id: 't1',
  dictionary_id: null,
  team_id: 'team',
  name: 'Long meeting.wav',
  transcription_path: null,
  audio_path: null,
  status: 'CONVERTING',
  speaking_duration: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: updatedAt,
  stage,
  progress,
  processing_started_at: stage === 'queued' ? null : '2026-11-24T10:00:01.000Z',
});

describe('transcription cache', () => {
  it('never takes a transcription back to an older answer, and takes every newer one', () => {
    const store = openCacheStore(':memory:');
    expect(store.transcriptions.upsertFromApi(running('queued', '2026-11-24T10:00:00.500Z', 0)).changed).toBe(true);
    expect(store.transcriptions.upsertFromApi(running('converting', '2026-11-24T10:00:01.000Z', 0.05)).changed).toBe(
      true,
    );
    // The list page from before the job was picked up, arriving last.
    const stale = store.transcriptions.upsertFromApi(running('queued', '2026-11-24T10:00:00.500Z', 0));
    expect(stale).toMatchObject({ changed: false, status: 'CONVERTING' });
    expect(store.transcriptions.get('t1')).toMatchObject({
      stage: 'converting',
      progress: 0.05,
      updatedAt: '2026-11-24T10:00:01.000Z',
    });
    // The same answer again, and a newer one, go through.
    expect(store.transcriptions.upsertFromApi(running('converting', '2026-11-24T10:00:01.000Z', 0.05)).changed).toBe(
      false,
    );
    expect(store.transcriptions.upsertFromApi(running('recognizing', '2026-11-24T10:00:04.000Z', 0.3)).changed).toBe(
      true,
    );
    expect(store.transcriptions.get('t1')).toMatchObject({ stage: 'recognizing', progress: 0.3 });
  });

  it('keeps a finished transcription’s warnings for offline browsing, leaving out codes it does not know', () => {
    const store = openCacheStore(':memory:');
    const done = (warnings: unknown[] | undefined, updatedAt: string): ApiTranscription => ({
      ...running('queued', updatedAt, 0),
      status: 'COMPLETED',
      ...(warnings ? { warnings: warnings as ApiTranscription['warnings'] } : {}),
    });
    store.transcriptions.upsertFromApi(done(undefined, '2026-11-24T10:00:01.000Z')); // a server without warnings
    expect(store.transcriptions.get('t1')!.warnings).toEqual([]);
    const warned = store.transcriptions.upsertFromApi(
      done(
        [
          { code: 'LANGUAGE_MISMATCH', message: 'This recording may not be in English.', likely_language: 'es' },
          { code: 'SOMETHING_NEWER', message: 'A newer server says more.', likely_language: null },
        ],
        '2026-11-24T10:00:01.000Z',
      ),
    );
    expect(warned.changed).toBe(true);
    expect(store.transcriptions.get('t1')!.warnings).toEqual([{ code: 'LANGUAGE_MISMATCH', likelyLanguage: 'es' }]);
    // Transcribed again: the new answer has none.
    store.transcriptions.upsertFromApi(done([], '2026-11-24T10:05:00.000Z'));
    expect(store.transcriptions.get('t1')!.warnings).toEqual([]);
  });
});
