import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate } from '../../../../src-server/db/database.js';
import { migrations } from '../../../../src-server/db/migrations/index.js';

describe('migrations', () => {
  it('are numbered contiguously from 1', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it('0001 creates the schema and records the version', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(migrations.length);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
      (t) => t.name,
    );
    expect(tables).toEqual(
      expect.arrayContaining(['api_keys', 'blacklist_words', 'dictionaries', 'jobs', 'reviews', 'teams', 'transcriptions', 'users', 'words']),
    );
  });

  it('0003 adds processing_started_at and stage to transcriptions, empty for the ones before it', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 2));
    const columns = () => (db.prepare('PRAGMA table_info(transcriptions)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns()).not.toContain('stage');
    migrate(db, migrations.slice(0, 3));
    expect(columns()).toEqual(expect.arrayContaining(['processing_started_at', 'stage']));
    const added = (db.prepare('PRAGMA table_info(transcriptions)').all() as Array<{ name: string; dflt_value: unknown; notnull: number }>).filter((c) =>
      ['processing_started_at', 'stage'].includes(c.name),
    );
    expect(added.map((c) => [c.notnull, c.dflt_value])).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it('0005 adds audio_sha256 to transcriptions, empty for audio stored before it', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 4));
    db.prepare(
      `INSERT INTO transcriptions (transcription_id, team_id, user_id, name, languages, transcription_model, status, upload_status, upload_expires_at, created_at, updated_at)
       VALUES ('t1', 'team', 'u', 'a.wav', '[]', 'default', 'IN_PROGRESS', 'COMPLETED', 'x', 'x', 'x')`,
    ).run();
    migrate(db, migrations.slice(0, 5));
    expect(db.prepare('SELECT audio_sha256 FROM transcriptions').all()).toEqual([{ audio_sha256: null }]);
  });

  it('is idempotent', () => {
    const db = new Database(':memory:');
    migrate(db);
    expect(() => migrate(db)).not.toThrow();
  });

  it('rolls a failing migration back whole', () => {
    const db = new Database(':memory:');
    const broken = [...migrations, { version: migrations.length + 1, name: 'broken', up: 'CREATE TABLE half (x); SELECT * FROM missing_table;' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
  });

  it('refuses a database newer than this code', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${migrations.length + 5}`);
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
  });
});
