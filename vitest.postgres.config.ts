// The server integration suite on PostgreSQL (`npm run test:postgres [files]`): the same tests, every test
// server on a fresh database of one throwaway cluster instead of SQLite in its data dir.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/integration/server/**/*.test.ts'],
    globalSetup: ['test/support/postgres-global-setup.ts'],
    env: { KIKITORI_TEST_DATABASE: 'postgres' },
  },
});
