// The server integration suite on PostgreSQL + S3 alone: the `postgres-s3` project of vitest.config.ts
// (`npm run test:postgres [files]` runs it as `vitest run --project postgres-s3`; this file is for tools
// that take a config).
import { defineConfig } from 'vitest/config';
import base, { postgresS3Project } from './vitest.config.js';

const { projects: _projects, ...shared } = base.test ?? {};

export default defineConfig({
  test: { ...shared, ...postgresS3Project },
});
