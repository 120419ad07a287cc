import { describe, expect, it } from 'vitest';
import { openCacheStore } from '../../../../src-main/cache/cache-store.js';
import { makeSnippet, matchExpression } from '../../../../src-main/cache/search-text.js';
import { seedCache } from '../../../../src-main/cache/seed.js';

function storeWith() {
  const store = openCacheStore(':memory:');
  store.transcriptions.upsertFromApi({
    transcription_id: 't1',
    dictionary_id: null,
    team_id: 'team',
    name: 'Budget call.wav',
    transcription_path: null,
    audio_path: null,
    status: 'COMPLETED',
    speaking_duration: 10,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  });
  store.search.indexTranscript('t1', [
    { id: 0, start: 0.5, text: 'Good morning everyone' },
    { id: 1, start: 12.25, text: 'The quarterly budget meeting moves to Friday afternoon' },
    { id: 2, start: 30, text: '来週の会議で予算を決めます' },
  ]);
  return store;
}

describe('search index', () => {
  it('finds transcript segments with their start time and a highlighted snippet', () => {
    const store = storeWith();
    const [hit, ...rest] = store.search.search('budget friday');
    expect(rest).toEqual([]);
    expect(hit).toEqual({
      transcriptionId: 't1',
      transcriptionName: 'Budget call.wav',
      kind: 'transcript',
      segmentId: 1,
      start: 12.25,
      snippet: 'The quarterly [[budget]] meeting moves to [[Friday]] afternoon',
    });
  });

  it('matches word prefixes, and Japanese inside words', () => {
    const store = storeWith();
    expect(store.search.search('meet')[0]?.snippet).toContain('[[meeting]]');
    const [ja] = store.search.search('予算');
    expect(ja).toMatchObject({ segmentId: 2, start: 30 });
    expect(ja!.snippet).toContain('[[予算]]');
    expect(store.search.search('nothing-like-this')).toEqual([]);
    expect(store.search.search('"" ***')).toEqual([]);
  });

  it('indexes summaries and translations with their anchors, and forgets a transcription whole', () => {
    const store = storeWith();
    store.search.indexSummary('t1', {
      transcription_id: 't1',
      status: 'COMPLETED',
      summarized_text: 'ignored when details exist',
      overview: 'A short meeting about money',
      key_points: [{ segment_id: 1, start: 12.25, end: 15, text: 'Budget review moved to Friday' }],
    });
    store.search.indexTranslations('t1', [
      {
        transcription_id: 't1',
        status: 'COMPLETED',
        translated_text: '',
        language: 'es',
        segments: [{ segment_id: 1, start: 12.25, end: 15, text: 'La reunión de presupuesto' }],
      },
    ]);
    expect(store.search.search('money')[0]).toMatchObject({ kind: 'summary', segmentId: null, start: null });
    expect(store.search.search('review')[0]).toMatchObject({ kind: 'summary', segmentId: 1, start: 12.25 });
    expect(store.search.search('presupuesto')[0]).toMatchObject({ kind: 'translation', segmentId: 1, start: 12.25 });
    expect(store.search.matchingTranscriptionIds('presupuesto')).toEqual(['t1']);
    store.search.remove('t1');
    expect(store.search.search('budget')).toEqual([]);
  });

  it('searches a seeded cache of realistic transcripts', () => {
    const store = openCacheStore(':memory:');
    const ids = seedCache(store.db, 200, { segments: [10, 20] });
    expect(ids).toHaveLength(200);
    expect(store.transcriptions.list({ limit: 1 }).total).toBe(200);
    const hits = store.search.search('budget', 20);
    expect(hits).toHaveLength(20);
    for (const hit of hits) {
      expect(hit.start).toEqual(expect.any(Number));
      expect(hit.snippet).toMatch(/\[\[budget\]\]/i);
    }
    expect(
      store.transcriptions.list({ ids: store.search.matchingTranscriptionIds('budget'), limit: 1000 }).total,
    ).toBeGreaterThan(20);
  });

  it('turns queries into safe FTS5 expressions and snippets', () => {
    expect(matchExpression('Budget  予算会議 "x')).toBe('"Budget"* "予 算 会 議" "x"*');
    expect(matchExpression(' -- ')).toBeNull();
    const long = `${'word '.repeat(60)}target ${'tail '.repeat(60)}`;
    const snippet = makeSnippet(long, 'target');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('[[target]]');
    expect(snippet.length).toBeLessThan(180);
  });
});
