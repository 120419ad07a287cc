import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0014 transcription warnings', () => {
  it('keeps a transcription’s warnings, and leaves the ones cached before without any', () => {
    const db = migratedThrough(13);
    insertTranscription(db, 't1');
    migrateCache(db, cacheMigrations.slice(0, 14));
    expect(columns(db, 'transcriptions')).toContain('warnings');
    expect(db.prepare('SELECT id, warnings FROM transcriptions').all()).toEqual([{ id: 't1', warnings: null }]);
  });
});
