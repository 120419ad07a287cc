import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0015 failure code', () => {
  it('adds why a transcription failed as a code, leaving records synced before without one', () => {
    const db = migratedThrough(14);
    db.prepare(
      `INSERT INTO transcriptions (id, name, status, languages, model, failure_reason, created_at, updated_at, synced_at)
       VALUES ('t1', 'a.wav', 'FAILED', '[]', 'default', 'The audio could not be decoded.', 't', 't', 't')`,
    ).run();
    migrateCache(db, cacheMigrations.slice(0, 15));
    expect(columns(db, 'transcriptions')).toContain('failure_code');
    expect(db.prepare('SELECT failure_reason, failure_code FROM transcriptions').get()).toEqual({
      failure_reason: 'The audio could not be decoded.',
      failure_code: null,
    });
  });
});
