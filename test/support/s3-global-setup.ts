// vitest globalSetup of the `postgres-s3` project (vitest.config.ts): one s3rver for the whole run. Each test
// server then gets its own bucket on it (test/support/test-server.ts) through this variable, and a fresh
// database on the run's PostgreSQL cluster (test/support/postgres-cluster-setup.ts).
import { startS3 } from './s3.js';

export default async function setup(): Promise<() => Promise<void>> {
  const s3 = await startS3();
  process.env.KIKITORI_TEST_S3_ENDPOINT = s3.endpoint;
  return async () => {
    await s3.stop();
  };
}
