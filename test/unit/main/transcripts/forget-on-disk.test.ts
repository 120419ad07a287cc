// Deleted means gone from disk in the desktop cache too (issue 22, item 6; decision 0047): a transcription
// forgotten by TranscriptService leaves no word of its transcript in the cache's files (the database, -wal,
// -shm), the full-text index included. Before, freed pages kept their bytes and FTS5 kept the terms.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { TranscriptService } from '../../../../src-main/transcripts/transcript-service.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { tempDir } from '../../../support/temp-dir.js';
import { clientOf } from '../main-test-support.js';

// Lower case, as the full-text index keeps its terms.
const WORD = 'quokkamarmaladevortex';
const dir = tempDir('kikitori-forget-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function transcription(store: CacheStore, id: string, text: string): void {
  store.transcriptions.upsertFromApi({
    transcription_id: id,
    dictionary_id: null,
    team_id: 'team',
    name: `${id}.wav`,
    transcription_path: null,
    audio_path: null,
    status: 'COMPLETED',
    speaking_duration: 10,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  });
  const segments = [0, 1, 2].map((n) => ({
    id: n,
    start: n * 10,
    end: n * 10 + 9,
    speaker: null,
    text: `${text} part ${n}`,
    words: [],
  }));
  const document: TranscriptDocument = {
    transcription_id: id,
    text: segments.map((s) => s.text).join(' '),
    language: 'en',
    duration: 30,
    speaking_duration: 27,
    segments,
    replacements: [],
    engine: { name: 'e', model: 'm', transcription_model: 'default' },
    created_at: '2025-01-01T00:00:00.000Z',
  };
  store.documents.put(id, document);
  store.search.indexTranscript(id, segments);
}

/** The cache's files that hold `word` as UTF-8 bytes. */
function filesContaining(word: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => fs.readFileSync(path.join(dir, name)).includes(Buffer.from(word, 'utf8')));
}

describe('forgetting a transcription', () => {
  it('leaves no word of it in the cache files or the search index', async () => {
    const file = path.join(dir, 'cache.sqlite');
    const filled = openCacheStore(file);
    // First: by the time it is forgotten, the index has merged its terms into an older segment.
    transcription(filled, 'secret', `Please send the ${WORD} report by Friday`);
    for (let i = 0; i < 40; i++)
      transcription(filled, `other-${i}`, `The budget meeting moved to next week, item ${i}`);
    // Closing checkpoints the WAL into the database file: both places have held the word.
    filled.close();
    expect(filesContaining(WORD)).toEqual(['cache.sqlite']);

    const store = openCacheStore(file);
    const transcripts = new TranscriptService({
      store,
      client: clientOf({ url: 'http://127.0.0.1:9' }, 'unused'),
      audioDir: path.join(dir, 'audio'),
      onChanged: () => undefined,
    });
    await transcripts.forget('secret');

    expect(store.search.search(WORD)).toEqual([]);
    expect(store.search.search('budget')).not.toEqual([]);
    expect(filesContaining(WORD)).toEqual([]);
    store.close();
  });
});
