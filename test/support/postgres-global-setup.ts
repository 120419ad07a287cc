// vitest globalSetup of the `postgres-s3` project (vitest.config.ts): one throwaway PostgreSQL cluster and one
// s3rver for the whole run. Each test server then gets a fresh database on the cluster and its own bucket on
// the S3 server (test/support/test-server.ts), through these variables.
import { startPostgres } from './postgres.js';
import { startS3 } from './s3.js';

export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  const s3 = await startS3().catch(async (error: unknown) => {
    await cluster.stop();
    throw error;
  });
  process.env.KIKITORI_TEST_POSTGRES_URL = cluster.url();
  process.env.KIKITORI_TEST_S3_ENDPOINT = s3.endpoint;
  return async () => {
    await s3.stop();
    await cluster.stop();
  };
}
