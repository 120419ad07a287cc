import { defineConfig } from 'vitest/config';

/**
 * The server integration suite again on the other backend: every test server on a fresh PostgreSQL database
 * (records and the pg-boss queue) and its own S3 bucket, of one throwaway cluster and one s3rver started by
 * the global setups. Only test/integration/server: the rest of the tests do not depend on the backend.
 * Left out, as the backend of this project does not reach them (they start no test server of their own):
 * the CLI and process tests read the SQLite file and data dir the CLI makes (cli, crash-recovery,
 * deleted-data, logs-and-files, process-exit, server-roles), and the queue, storage and CLI-database tests already run each backend
 * themselves (job-queue-workers on SQLite, pg-boss-queue-workers, storage-contract, cli-database).
 */
// One PostgreSQL cluster per run, shared by both projects; each test file takes its own databases on it.
const RUN_CLUSTER = 'test/support/postgres-cluster-setup.ts';

export const postgresS3Project = {
  name: 'postgres-s3',
  include: ['test/integration/server/**/*.test.ts'],
  exclude: [
    'test/integration/server/cli.test.ts',
    'test/integration/server/crash-recovery.test.ts',
    'test/integration/server/deleted-data.test.ts',
    'test/integration/server/logs-and-files.test.ts',
    'test/integration/server/process-exit.test.ts',
    'test/integration/server/server-roles.test.ts',
    'test/integration/server/job-queue-workers.test.ts',
    'test/integration/server/pg-boss-queue-workers.test.ts',
    'test/integration/server/storage-contract.test.ts',
    'test/integration/server/cli-database.test.ts',
    // Moved from test/unit (issue 23): they start no test server on the project's backend, or pick their
    // backends themselves (db: both dialects; jobs: pg-boss), so a second run adds nothing.
    'test/integration/server/config.test.ts',
    'test/integration/server/db/**',
    'test/integration/server/engines/**',
    'test/integration/server/jobs/**',
  ],
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
          globalSetup: [RUN_CLUSTER],
        },
      },
      { extends: true, test: postgresS3Project },
    ],
  },
});
