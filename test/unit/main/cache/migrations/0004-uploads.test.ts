import { describe, expect, it } from 'vitest';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0004 uploads', () => {
  it('creates the persisted upload queue', () => {
    const db = migratedThrough(4);
    expect(columns(db, 'uploads')).toEqual(
      expect.arrayContaining([
        'id',
        'seq',
        'file_path',
        'size',
        'sent_bytes',
        'state',
        'options',
        'transcription_id',
        'upload_url',
        'upload_expires_at',
        'error',
      ]),
    );
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at) VALUES ('u1', 1, '/a.wav', 'a.wav', 10, 'queued', '{}', 't', 't')`,
    ).run();
    expect(db.prepare('SELECT sent_bytes FROM uploads').get()).toEqual({ sent_bytes: 0 });
  });
});
