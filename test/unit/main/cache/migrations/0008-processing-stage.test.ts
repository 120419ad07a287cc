import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0008 processing stage', () => {
  it('keeps when processing started and the stage of a transcription', () => {
    const db = migratedThrough(8);
    expect(columns(db, 'transcriptions')).toEqual(expect.arrayContaining(['processing_started_at', 'stage']));
  });

  it('leaves transcriptions cached before it without either', () => {
    const db = new Database(':memory:');
    migrateCache(db, cacheMigrations.slice(0, 7));
    insertTranscription(db, 't1');
    migrateCache(db, cacheMigrations.slice(0, 8));
    expect(db.prepare('SELECT id, processing_started_at, stage FROM transcriptions').all()).toEqual([
      { id: 't1', processing_started_at: null, stage: null },
    ]);
  });
});
