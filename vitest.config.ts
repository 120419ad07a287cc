import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The second backend: every test server on a fresh PostgreSQL database (records and the pg-boss queue) and its
 * own S3 bucket, of one throwaway cluster and one s3rver started by the global setups. The rule (issue 23):
 * a behaviour runs once per backend only where the backend matters; HTTP behaviour (parsing, validation, error
 * bodies, engines, languages) runs once, on SQLite and files in `sqlite-files`. So this project runs only the
 * files listed here, each for its reason, and every area keeps at least one end-to-end test over real HTTP on
 * PostgreSQL and S3. The queue, storage, repository, migration and CLI-database contracts pick both backends
 * themselves in `sqlite-files` (jobs/, db/, storage-contract, job-queue-workers, pg-boss-queue-workers,
 * cli-database), as does the cluster drill (test/integration/cluster).
 */
// One PostgreSQL cluster per run, shared by both projects; each test file takes its own databases on it.
const RUN_CLUSTER = 'test/support/postgres-cluster-setup.ts';

const POSTGRES_S3_FILES = [
  // Keys stored hashed and looked up in the database; a key revoked by another process reaches this one
  // through the database's change notifications (LISTEN/NOTIFY); team scoping in the queries.
  'auth',
  // Repository SQL: bulk adds all or nothing in one transaction, the blacklist cap counted, pages ordered.
  'dictionaries',
  // Stored audio summed per team in SQL, and a team's own quota written by the CLI to the same database.
  'storage-quota',
  // Open tus uploads hold their size of the quota as rows taken under advisory locks; the presigned S3 GET.
  'upload-hardening',
  // One of two concurrent PUTs wins by a conditional update; tus uploads on the database's reservations.
  'upload-integrity',
  // The team-wide list's join, list caches dropped on another process's write, the expiry sweep's query.
  'uploads',
  // Uploads through presigned S3 URLs, committed at /transcribe; audio served by the store; objects deleted.
  's3-storage-mode',
  // The server's jobs on pg-boss: a transcription and an OpenAI-route request.
  'pg-boss-queue-server',
  // The whole pipeline on pg-boss and S3: transcript, review, and delete with every object and row.
  'transcription-pipeline',
  // The OpenAI route's job rows taken over after a crash, and the sweep of its uploads in S3.
  'openai-leftovers',
  // Revisions: changes and snapshots in SQL, two writers racing for one number refused by the key, If-Match.
  'revisions',
  // Transcribing again: the conditional UPDATE that lets one of two requests run it, on pg-boss and S3.
  'transcribe-again',
  // The areas whose files are HTTP behaviour (apply replacements, analyses, models), walked once here.
  'backend-areas',
  // The voice library: its tables on PostgreSQL, and samples printed from audio kept in S3 (decision 0065).
  'voice-library',
  // A live session saved while the server drains: pg-boss takes no job once stopped, so sessions end first.
  'live-drain',
  // OpenAI's diarized_json: known_speaker_references[] clips stored in S3 beside the upload and printed by the
  // pg-boss job from there; known_speaker_names[] matched against the library's voices on PostgreSQL.
  'openai-diarized',
].map((name) => `test/integration/server/${name}.test.ts`);
// A renamed or moved file would silently leave the project: say so instead.
for (const file of POSTGRES_S3_FILES)
  if (!fs.existsSync(fileURLToPath(new URL(file, import.meta.url))))
    throw new Error(`vitest.config.ts: ${file} (postgres-s3) does not exist`);

export const postgresS3Project = {
  name: 'postgres-s3',
  include: POSTGRES_S3_FILES,
  globalSetup: [RUN_CLUSTER, 'test/support/s3-global-setup.ts'],
  env: { KIKITORI_TEST_DATABASE: 'postgres', KIKITORI_TEST_STORAGE: 's3' },
};

export default defineConfig({
  test: {
    // Real servers, ffmpeg and speech decoding: generous per-test bounds, but no timing assertions.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only contend for the CPU the speech engine needs.
    maxWorkers: 2,
    // The default report, then the 15 slowest files with their project (issue 23: keep the suite fast).
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // `npm test` runs both; `npm run test:postgres` (--project postgres-s3) only the second.
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite-files',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          // Each area it walks has its own file here, on SQLite.
          exclude: ['test/integration/server/backend-areas.test.ts'],
          globalSetup: [RUN_CLUSTER],
        },
      },
      { extends: true, test: postgresS3Project },
    ],
  },
});
