import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { openCacheStore } from '../../../../../src-main/cache/cache-store.js';
import { shownDocument } from '../../../../../src-main/edits/shown-document.js';
import type { TranscriptDocument } from '../../../../../src-shared/transcript-document.js';
import { columns, insertTranscription, migratedThrough } from './migration-test-support.js';

const document = (revision: number | undefined, texts: string[]): TranscriptDocument => ({
  ...(revision === undefined ? {} : { revision }),
  transcription_id: 't',
  speaking_duration: texts.length,
  replacements: [],
  engine: { name: 'test', model: 'test', transcription_model: 'default' },
  created_at: 'now',
  language: 'en',
  duration: texts.length,
  text: texts.join(' '),
  segments: texts.map((text, i) => ({
    id: i,
    start: i,
    end: i + 1,
    speaker: null,
    text,
    words: [{ word: text, start: i, end: i + 1, confidence: 1 }],
  })),
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A cache file as Kikitori left it at migration 0011, with edits kept the old way. */
function cacheAt0011() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-0012-'));
  dirs.push(dir);
  const file = path.join(dir, 'cache.sqlite');
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrateCache(db, cacheMigrations.slice(0, 11));
  const put = db.prepare(
    `INSERT INTO transcript_documents (transcription_id, document, speakers, fetched_at) VALUES (?, ?, 0, 'now')`,
  );
  const edited = db.prepare(
    `INSERT INTO edited_documents (transcription_id, segments, edited_at) VALUES (?, ?, 'now')`,
  );
  const review = db.prepare(
    `INSERT INTO server_reviews (transcription_id, reviewed_text, fetched_at) VALUES (?, ?, 'now')`,
  );
  const queue = db.prepare(
    `INSERT INTO outbox (kind, target_id, payload, base, state, created_at, updated_at) VALUES ('review', ?, ?, ?, ?, 'now', 'now')`,
  );
  // Waiting to be sent: an edited document and its review text in the outbox (written together).
  insertTranscription(db, 'waiting');
  put.run('waiting', JSON.stringify(document(3, ['one', 'two'])));
  edited.run('waiting', JSON.stringify(document(3, ['one, edited', 'two']).segments));
  review.run('waiting', 'one\ntwo');
  queue.run(
    'waiting',
    JSON.stringify({ reviewedText: 'one, edited\ntwo' }),
    '{"known":true,"text":"one\\ntwo"}',
    'pending',
  );
  // In conflict, from a cache before edited documents: per-segment corrections and their review text.
  insertTranscription(db, 'conflict');
  put.run('conflict', JSON.stringify(document(2, ['alpha', 'beta'])));
  db.prepare(
    `INSERT INTO segment_edits (transcription_id, segment_id, text, words, edited_at) VALUES ('conflict', 1, 'beta, older edit', '[]', 'now')`,
  ).run();
  queue.run(
    'conflict',
    JSON.stringify({ reviewedText: 'alpha\nbeta, older edit' }),
    '{"known":true,"text":null}',
    'conflict',
  );
  // Sent: an edited copy left beside a revision, and one on a server without revisions.
  insertTranscription(db, 'sent');
  put.run('sent', JSON.stringify(document(4, ['old'])));
  edited.run('sent', JSON.stringify(document(4, ['sent edit']).segments));
  review.run('sent', 'sent edit');
  insertTranscription(db, 'legacy');
  put.run('legacy', JSON.stringify(document(undefined, ['first', 'second'])));
  edited.run('legacy', JSON.stringify(document(undefined, ['first', 'second, reviewed']).segments));
  review.run('legacy', 'first\nsecond, reviewed');
  db.close();
  return file;
}

describe('cache migration 0012 edits as operations', () => {
  it('keeps outbox entries, undo histories and conflicts, without edited copies', () => {
    const db = migratedThrough(12);
    for (const table of ['edited_documents', 'segment_edits'])
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = ?`).get(table)).toBeUndefined();
    expect(columns(db, 'outbox')).toContain('conflict');
    expect(columns(db, 'edit_histories')).toEqual(['transcription_id', 'history', 'updated_at']);
    insertTranscription(db, 't1');
    db.prepare(`INSERT INTO edit_histories (transcription_id, history, updated_at) VALUES ('t1', '{}', 'now')`).run();
    db.prepare('DELETE FROM transcriptions').run();
    expect(db.prepare('SELECT count(*) AS n FROM edit_histories').get()).toEqual({ n: 0 });
  });

  it('loses no edit of a cache built at 0011: waiting ones are shown and stay queued, sent ones show as the server has them', () => {
    const store = openCacheStore(cacheAt0011());
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(cacheMigrations.length);
      const shown = (id: string) => shownDocument(store.documents.get(id)!, store, id).segments.map((s) => s.text);
      // Queued review texts stay in line, to be sent once through POST /review; what they hold is shown.
      expect(store.outbox.all().map((e) => [e.kind, e.targetId, e.state])).toEqual([
        ['review', 'waiting', 'pending'],
        ['review', 'conflict', 'conflict'],
      ]);
      expect(shown('waiting')).toEqual(['one, edited', 'two']);
      expect(shown('conflict')).toEqual(['alpha', 'beta, older edit']);
      // A server without revisions shows the review text it answered last.
      expect(shown('legacy')).toEqual(['first', 'second, reviewed']);
      expect(store.edits.serverReview('legacy')).toBe('first\nsecond, reviewed');
      // A copy beside a revision was sent: the review text last read is forgotten, so the next read of the
      // transcript caches the latest revision.
      expect(store.edits.serverReview('sent')).toBeUndefined();
      expect(store.edits.serverReview('waiting')).toBe('one\ntwo');
    } finally {
      store.close();
    }
  });
});
