// The server's schema migrations, run by Kysely's Migrator on SQLite and PostgreSQL alike (database.ts).
// Names sort in the order they run; a migration never changes once released.
import type { Kysely } from 'kysely';
import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-analyses.js';
import { migration0003 } from './0003-processing-stage.js';
import { migration0004 } from './0004-job-results.js';
import { migration0005 } from './0005-audio-sha256.js';
import { migration0006 } from './0006-team-quotas.js';
import { migration0007 } from './0007-change-notifications.js';
import { migration0008 } from './0008-upload-reservations.js';
import { migration0009 } from './0009-revisions.js';
import { migration0010 } from './0010-analysis-revision.js';
import { migration0011 } from './0011-multichannel.js';
import { migration0012 } from './0012-voice-library.js';
import { migration0013 } from './0013-transcription-warnings.js';
import { migration0014 } from './0014-failure-codes.js';

export interface ServerMigration {
  /** 1, 2, ...: on SQLite also the PRAGMA user_version the database is left at, as before Kysely. */
  version: number;
  /** Kysely's migration name, e.g. 0001-initial. */
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
}

/** Every migration, in order. Versions are contiguous from 1. */
export const migrations: readonly ServerMigration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
];
