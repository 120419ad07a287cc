// Deleted means gone from disk, for the SQLite files that hold what users said and wrote: kikitori-server's
// database and the desktop cache (decision 0047). Pure: works on any better-sqlite3-like handle.
//
// SQLite only unlinks a deleted row from its b-tree: without secure_delete the freed page keeps its bytes. In
// WAL mode the old versions of every changed page also stay in the -wal file, which is reused from its start
// after a checkpoint but not shortened, until something truncates it.

/** The part of a better-sqlite3 Database these need. */
export interface PragmaDatabase {
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/**
 * Freed pages are zeroed (secure_delete, checked: a build of SQLite can refuse it), and a WAL that restarts
 * after a complete checkpoint is cut to its first commit (journal_size_limit 0), so the frames of old page
 * versions do not stay on disk behind it even when truncateWal could not run.
 */
export function eraseDeletedContent(db: PragmaDatabase): void {
  db.pragma('secure_delete = ON');
  if (db.pragma('secure_delete', { simple: true }) !== 1) {
    throw new Error(
      'This SQLite cannot overwrite deleted content (PRAGMA secure_delete); deleted transcripts would stay on disk.',
    );
  }
  db.pragma('journal_size_limit = 0');
}

/**
 * The statement to run after a delete commits: copies the WAL into the database (where secure_delete has
 * zeroed the deleted rows) and truncates it to nothing. Best effort: while another connection reads an older
 * snapshot SQLite cannot truncate (it waits busy_timeout, then answers busy = 1 rather than failing); the
 * next delete, or the WAL's next restart, does it.
 */
export const TRUNCATE_WAL_SQL = 'PRAGMA wal_checkpoint(TRUNCATE)';
