// The server's schema migrations on SQLite and a real PostgreSQL: a fresh database, an upgrade of a data dir
// written by the code before Kysely, two processes migrating one database at once, and a database too new.
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DatabaseTooNewError,
  migrate,
  openDatabase,
  openSqliteDatabase,
  type Database as ServerDatabase,
} from '../../../../src-server/db/database.js';
import { KyselyKeyRepository } from '../../../../src-server/db/key-repository.js';
import { KyselyTranscriptionRepository } from '../../../../src-server/db/transcription-repository.js';
import { migrations, type ServerMigration } from '../../../../src-server/db/migrations/index.js';
import { createLegacyDatabase, legacyMigrations } from '../../../support/legacy-sqlite/index.js';
import { DIALECTS, testDatabases } from '../../../support/test-databases.js';

const databases = testDatabases();
afterAll(() => databases.closeAll());

const SERVER_TABLES = [
  'analyses',
  'api_keys',
  'blacklist_words',
  'dictionaries',
  'reviews',
  'teams',
  'transcript_revisions',
  'transcriptions',
  'users',
  'words',
];

async function tableNames(database: ServerDatabase): Promise<string[]> {
  return (await database.kysely.introspection.getTables()).map((t) => t.name).sort();
}
async function applied(database: ServerDatabase): Promise<string[]> {
  const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(database.kysely);
  return rows.rows.map((r) => r.name);
}

it('are numbered contiguously from 1, named in the order they run', () => {
  expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  expect(migrations.map((m) => m.name)).toEqual([...migrations.map((m) => m.name)].sort());
  expect(migrations.map((m) => m.name.slice(0, 4))).toEqual(migrations.map((m) => String(m.version).padStart(4, '0')));
});

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it('create the whole schema on a fresh database, and record each one', async () => {
    const database = await databases.open(dialect);
    const tables = await tableNames(database);
    expect(tables).toEqual(expect.arrayContaining(SERVER_TABLES));
    // The jobs table belongs to the SQLite queue; PostgreSQL's queue keeps its own schema.
    expect(tables.includes('jobs')).toBe(dialect === 'sqlite');
    expect(await applied(database)).toEqual(migrations.map((m) => m.name));
    const columns = (await database.kysely.introspection.getTables())
      .find((t) => t.name === 'transcriptions')!
      .columns.map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['processing_started_at', 'stage', 'audio_size', 'languages']));
    if (database.sqlite) expect(database.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
  });

  it('do nothing the second time', async () => {
    const database = await databases.open(dialect);
    expect(await migrate(database)).toEqual([]);
    expect(await applied(database)).toEqual(migrations.map((m) => m.name));
  });

  it('roll a failing upgrade back whole', async () => {
    const database = await databases.open(dialect, { migrate: false });
    await migrate(database, migrations.slice(0, 2));
    const broken: ServerMigration = {
      version: migrations.length + 1,
      name: '9999-broken',
      async up(db) {
        await db.schema.createTable('half').addColumn('x', 'text').execute();
        await sql`SELECT * FROM missing_table`.execute(db);
      },
    };
    await expect(migrate(database, [...migrations, broken])).rejects.toThrow(/missing_table/);
    // Nothing of the failed run stays: not 0003/0004 from the same run, not the broken one's table.
    expect(await applied(database)).toEqual(migrations.slice(0, 2).map((m) => m.name));
    expect(await tableNames(database)).not.toContain('half');
    expect(await migrate(database)).toEqual(migrations.slice(2).map((m) => m.name));
  });

  it('0005 adds audio_sha256 to transcriptions, empty for audio stored before it', async () => {
    const database = await databases.open(dialect, { migrate: false });
    await migrate(database, migrations.slice(0, 4));
    await new KyselyKeyRepository(database.kysely).create({ teamId: 'acme', userId: 'alice', roles: [] });
    await sql`INSERT INTO transcriptions (transcription_id, team_id, user_id, name, languages, transcription_model, status, upload_status,
      upload_expires_at, created_at, updated_at) VALUES ('t1', 'acme', 'alice', 'a.wav', '[]', 'default', 'COMPLETED', 'COMPLETED', 'x', 'x', 'x')`.execute(
      database.kysely,
    );
    await migrate(database);
    expect(await new KyselyTranscriptionRepository(database.kysely).getById('t1')).toMatchObject({
      audioSha256: null,
      name: 'a.wav',
    });
  });

  it('0008 adds upload_reservations, whose rows go with their transcription', async () => {
    const database = await databases.open(dialect, { migrate: false });
    await migrate(database, migrations.slice(0, 7));
    await new KyselyKeyRepository(database.kysely).create({ teamId: 'acme', userId: 'alice', roles: [] });
    await sql`INSERT INTO transcriptions (transcription_id, team_id, user_id, name, languages, transcription_model, status, upload_status,
      upload_expires_at, created_at, updated_at) VALUES ('t1', 'acme', 'alice', 'a.wav', '[]', 'default', 'IN_PROGRESS', 'PENDING', 'x', 'x', 'x')`.execute(
      database.kysely,
    );
    await migrate(database);
    await sql`INSERT INTO upload_reservations (upload_id, transcription_id, team_id, bytes, created_at) VALUES ('t1_u', 't1', 'acme', ${5 * 1024 ** 3}, 'x')`.execute(
      database.kysely,
    );
    const rows = await database.kysely.selectFrom('upload_reservations').selectAll().execute();
    expect(rows.map((r) => ({ ...r, bytes: Number(r.bytes) }))).toEqual([
      { upload_id: 't1_u', transcription_id: 't1', team_id: 'acme', bytes: 5 * 1024 ** 3, created_at: 'x' },
    ]);
    await sql`DELETE FROM transcriptions WHERE transcription_id = 't1'`.execute(database.kysely);
    expect(await database.kysely.selectFrom('upload_reservations').selectAll().execute()).toEqual([]);
  });

  it('refuse a database that a newer kikitori-server migrated', async () => {
    const settings = await databases.settings(dialect);
    const newer = await openDatabase(settings, { migrate: false });
    const future: ServerMigration = { version: migrations.length + 1, name: '9000-future', up: async () => undefined };
    await migrate(newer, [...migrations, future]);
    await newer.close();
    const error = await openDatabase(settings).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as Error).message).toBe(
      `The database is at migrations this kikitori-server does not know (9000-future), but this kikitori-server knows only up to ${migrations.at(-1)!.name}. Upgrade kikitori-server.`,
    );
  });
});

describe('on PostgreSQL', () => {
  it('two servers starting together on one database migrate it once', async () => {
    const settings = await databases.settings('postgres');
    const a = await openDatabase(settings, { migrate: false });
    const b = await openDatabase(settings, { migrate: false });
    try {
      const [ranA, ranB] = await Promise.all([migrate(a), migrate(b)]);
      // Exactly one of them applied each migration; the other waited on the advisory lock and found nothing to do.
      expect([...ranA, ...ranB].sort()).toEqual(migrations.map((m) => m.name));
      expect([ranA.length, ranB.length].sort()).toEqual([0, migrations.length]);
      expect(await applied(a)).toEqual(migrations.map((m) => m.name));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a SQLite data dir from before Kysely', () => {
  it.each(legacyMigrations.map((m) => m.version))(
    'at user_version %i upgrades in place, keeping its records',
    async (version) => {
      const { dataDir } = await databases.settings('sqlite');
      const legacy = createLegacyDatabase(dataDir, version);
      legacy.prepare('INSERT INTO teams (team_id, created_at) VALUES (?, ?)').run('acme', '2025-01-01T00:00:00.000Z');
      legacy
        .prepare('INSERT INTO users (team_id, user_id, name, created_at) VALUES (?, ?, ?, ?)')
        .run('acme', 'alice', 'Alice', '2025-01-01T00:00:00.000Z');
      legacy
        .prepare(
          `INSERT INTO transcriptions (transcription_id, team_id, user_id, name, languages, transcription_model, status, upload_status,
           upload_expires_at, created_at, updated_at) VALUES ('t1', 'acme', 'alice', 'old.wav', '["ja"]', 'default', 'COMPLETED', 'COMPLETED', ?, ?, ?)`,
        )
        .run('2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
      legacy.close();

      const database = await openSqliteDatabase(dataDir);
      try {
        expect(await applied(database)).toEqual(migrations.map((m) => m.name));
        expect(database.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
        const record = await new KyselyTranscriptionRepository(database.kysely).getById('t1');
        expect(record).toMatchObject({
          name: 'old.wav',
          languages: ['ja'],
          userName: 'Alice',
          stage: null,
          processingStartedAt: null,
        });
        // The upgraded schema is the fresh one: same tables, same columns, same indexes and triggers.
        const fresh = await databases.open('sqlite');
        const shape = (db: Database.Database) =>
          db
            .prepare(
              `SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`,
            )
            .all()
            .concat(
              ...['transcriptions', 'jobs', 'analyses'].map((t) =>
                db
                  .prepare(
                    `SELECT '${t}' AS t, name, lower(type) AS type, "notnull", pk FROM pragma_table_info('${t}') ORDER BY name`,
                  )
                  .all(),
              ),
            );
        expect(shape(database.sqlite)).toEqual(shape(fresh.sqlite!));
        // And it works: a new key in the old team sees its list version move with a new transcription.
        const keys = new KyselyKeyRepository(database.kysely);
        const { key } = await keys.create({ teamId: 'acme', userId: 'alice', roles: [] });
        expect((await keys.authenticate(key))?.userName).toBe('Alice');
      } finally {
        await database.close();
      }
    },
  );

  it('newer than the legacy versions it knows is refused', async () => {
    const { dataDir } = await databases.settings('sqlite');
    const legacy = createLegacyDatabase(dataDir);
    legacy.pragma(`user_version = ${migrations.length + 3}`);
    legacy.close();
    await expect(openSqliteDatabase(dataDir)).rejects.toThrow(DatabaseTooNewError);
    const raw = new Database(path.join(dataDir, 'kikitori.sqlite'));
    // Refused without a change.
    expect(raw.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'kysely_migration'`).get()).toEqual({
      n: 0,
    });
    raw.close();
  });
});
