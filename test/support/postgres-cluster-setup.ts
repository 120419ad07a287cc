// vitest globalSetup of every project (vitest.config.ts): the run's one throwaway PostgreSQL cluster. Test files
// take a fresh database on it (testDatabase()/runCluster in test/support/postgres.ts) instead of starting their
// own. vitest runs a project's global setups once per project, all in its main process, so the first starts the
// cluster and the last teardown stops it; the test workers it forks find the admin URL in the environment.
import { startPostgres, type PostgresServer } from './postgres.js';

interface Shared {
  cluster: Promise<PostgresServer>;
  users: number;
}

const KEY = Symbol.for('kikitori.test.postgresCluster');
const registry = globalThis as { [KEY]?: Shared };

export default async function setup(): Promise<() => Promise<void>> {
  const shared = (registry[KEY] ??= { cluster: startPostgres(), users: 0 });
  shared.users++;
  const cluster = await shared.cluster;
  process.env.KIKITORI_TEST_POSTGRES_URL = cluster.url();
  return async () => {
    if (--shared.users > 0) return;
    delete registry[KEY];
    delete process.env.KIKITORI_TEST_POSTGRES_URL;
    await cluster.stop();
  };
}
