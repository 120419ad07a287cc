// vitest globalSetup for `npm run test:postgres`: one throwaway PostgreSQL cluster for the whole run. Each
// test server then gets a fresh database on it (test/support/test-server.ts), through this variable.
import { startPostgres } from './postgres.js';

export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  process.env.KIKITORI_TEST_POSTGRES_URL = cluster.url();
  return () => cluster.stop();
}
