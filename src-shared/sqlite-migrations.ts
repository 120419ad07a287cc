// Numbered schema migrations for SQLite, shared by kikitori-server's database and the desktop cache.
// The version lives in PRAGMA user_version; each migration runs in its own transaction; a database
// newer than the code is refused rather than damaged. Pure: works on any better-sqlite3-like handle.

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** The part of a better-sqlite3 Database the runner needs. */
export interface MigratableDatabase {
  pragma(source: string, options?: { simple: boolean }): unknown;
  exec(source: string): unknown;
  transaction(fn: () => void): () => void;
}

/** Applies every migration newer than the database; returns the resulting version. */
export function runMigrations(
  db: MigratableDatabase,
  migrations: readonly Migration[],
  tooNew: (current: number, latest: number) => Error,
): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) throw tooNew(current, latest);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.up);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return latest;
}
