// The server's database: SQLite in the data dir (the embedded default) or PostgreSQL (KIKITORI_DATABASE_URL),
// both behind one Kysely instance that every repository queries (decision 0034). Schema changes are Kysely
// migrations run by its Migrator, which holds an advisory lock on PostgreSQL so processes starting together
// migrate once. A database newer than this code is refused rather than damaged.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type SqliteDialectConfig,
} from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';
import { eraseDeletedContent, TRUNCATE_WAL_SQL } from '../../src-shared/sqlite-secure-delete.js';
import { LocalWrites } from './change-watch.js';
import { isPostgres } from './migrations/dialect.js';
import { migrations as allMigrations, type ServerMigration } from './migrations/index.js';
import type { Kdb, Schema } from './schema.js';

/** The raw better-sqlite3 handle: the SQLite job queue's hand-written SQL runs on it. */
export type Db = BetterSqlite3.Database;

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly dialect: DialectName;
  /** The one query layer every repository uses. */
  readonly kysely: Kdb;
  /** SQLite only: the same connection, raw, for the SQLite job queue. Null on PostgreSQL. */
  readonly sqlite: Db | null;
  /** This process's writes through `kysely`, counted for the caches that must see them (change-watch.ts). */
  readonly localWrites: LocalWrites;
  close(): Promise<void>;
}

/** A SQLite database: its raw handle is there. */
export type SqliteDatabase = Database & { readonly dialect: 'sqlite'; readonly sqlite: Db };

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
}

export interface DatabaseSettings {
  dataDir: string;
  database: { url: string | null };
}

export interface OpenOptions {
  /** Run pending migrations while opening (the default); `kikitori-server migrate` and tests may say no. */
  migrate?: boolean;
  /** Where errors of idle PostgreSQL connections go (a dropped connection must not crash the process). */
  onPoolError?: (error: Error) => void;
}

/** SQLite in DATA_DIR, or PostgreSQL when the configuration names a database URL; migrated unless told not to. */
export async function openDatabase(config: DatabaseSettings, options: OpenOptions = {}): Promise<Database> {
  const database: Database =
    config.database.url === null ? openSqlite(config.dataDir) : openPostgres(config.database.url, options);
  if (options.migrate ?? true) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/** DATA_DIR/kikitori.sqlite, migrated: the SQLite job queue's home whatever the configured database. */
export async function openSqliteDatabase(dataDir: string): Promise<SqliteDatabase> {
  const database = openSqlite(dataDir);
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openSqlite(dataDir: string): SqliteDatabase {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'kikitori.sqlite');
  // Created private before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const raw = new BetterSqlite3(file);
  // WAL lets readers proceed during writes; synchronous=NORMAL is durable across process crashes in WAL mode.
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // Deleted transcripts, reviews and dictionaries leave no bytes behind (decision 0047).
  eraseDeletedContent(raw);
  return sqliteDatabase(raw);
}

/**
 * After a delete of what users said or wrote commits (decision 0047). SQLite: the WAL goes into the database
 * file, where secure_delete has zeroed the deleted rows, and is truncated (TRUNCATE_WAL_SQL). PostgreSQL
 * keeps the dead rows until VACUUM; docs/deploy says what that means.
 */
export async function truncateWalAfterDelete(db: Kdb): Promise<void> {
  if (!isPostgres(db)) await sql.raw(TRUNCATE_WAL_SQL).execute(db);
}

/**
 * Wraps an open better-sqlite3 handle. Kysely and the job queue share this one connection: Kysely's
 * transactions on it only await its own synchronous statements, so nothing else runs inside them.
 */
export function sqliteDatabase(raw: Db): SqliteDatabase {
  const localWrites = new LocalWrites();
  const kysely = new Kysely<Schema>({
    dialect: new TransactionalSqliteDialect({ database: raw }),
    plugins: [localWrites],
  });
  return {
    dialect: 'sqlite',
    kysely,
    sqlite: raw,
    localWrites,
    async close() {
      await kysely.destroy(); // closes the better-sqlite3 handle too
    },
  };
}

// SQLite runs DDL in transactions perfectly well; Kysely's adapter just says it does not, which would make
// the Migrator run each migration outside one. Saying so makes a failed upgrade roll back whole, as before.
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
// A transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE), waiting up to busy_timeout for it.
// Kysely's BEGIN is deferred: a transaction that reads and then writes fails at once with SQLITE_BUSY when
// another process (the `all` role's worker, a second worker) commits in between, and busy_timeout cannot help
// (the read's snapshot is stale). The job queue's own transactions are immediate for the same reason.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class TransactionalSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createAdapter() {
    return new TransactionalSqliteAdapter();
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.settings);
  }
}

// int8 (COUNT, bigint columns such as audio_size and list_version) as a JS number rather than a string: every
// value the server keeps there is far below 2^53.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

function openPostgres(url: string, options: OpenOptions): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  pool.on('error', (error) => options.onPoolError?.(error));
  const localWrites = new LocalWrites();
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), plugins: [localWrites] });
  return {
    dialect: 'postgres',
    kysely,
    sqlite: null,
    localWrites,
    async close() {
      await kysely.destroy(); // ends the pool
    },
  };
}

/** Applies every pending migration; returns the names applied now. */
export async function migrate(
  database: Database,
  migrations: readonly ServerMigration[] = allMigrations,
): Promise<string[]> {
  await refuseNewer(database, migrations);
  const migrator = new Migrator({
    db: database.kysely,
    provider: { getMigrations: async () => kyselyMigrations(database, migrations) },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('The database migration failed.', { cause: error });
  if (database.sqlite) {
    // Kept up to date so that a kikitori-server from before Kysely, which knows only user_version, refuses a newer schema.
    const applied = await executedMigrationNames(database);
    const version = Math.max(0, ...migrations.filter((m) => applied.includes(m.name)).map((m) => m.version));
    database.sqlite.pragma(`user_version = ${version}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

function kyselyMigrations(database: Database, migrations: readonly ServerMigration[]): Record<string, Migration> {
  // A SQLite data dir from before Kysely has user_version 1..4 and no kysely_migration table: the migrations
  // it already has are recorded as applied without running again, and the rest run as usual.
  const legacyVersion = database.sqlite ? (database.sqlite.pragma('user_version', { simple: true }) as number) : 0;
  return Object.fromEntries(
    migrations.map((m) => [
      m.name,
      {
        up: async (db: Kysely<unknown>) => {
          if (m.version > legacyVersion) await m.up(db);
        },
      },
    ]),
  );
}

async function refuseNewer(database: Database, migrations: readonly ServerMigration[]): Promise<void> {
  const known = new Set(migrations.map((m) => m.name));
  const unknown = (await executedMigrationNames(database)).filter((name) => !known.has(name));
  const legacyVersion = database.sqlite ? (database.sqlite.pragma('user_version', { simple: true }) as number) : 0;
  const latest = migrations.at(-1)?.version ?? 0;
  if (unknown.length > 0 || legacyVersion > latest) {
    const what =
      unknown.length > 0
        ? `migrations this kikitori-server does not know (${unknown.join(', ')})`
        : `schema version ${legacyVersion}`;
    throw new DatabaseTooNewError(
      `The database is at ${what}, but this kikitori-server knows only up to ${migrations.at(-1)?.name ?? 'none'}. Upgrade kikitori-server.`,
    );
  }
}

/** Names Kysely has recorded as applied; none before its table exists. */
async function executedMigrationNames(database: Database): Promise<string[]> {
  const introspector: DatabaseIntrospector = database.kysely.introspection;
  const tables = await introspector.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return [];
  const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(database.kysely);
  return rows.rows.map((r) => r.name);
}
