import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Real servers, ffmpeg and speech decoding: generous per-test bounds, but no timing assertions.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only contend for the CPU the speech engine needs.
    maxWorkers: 2,
  },
});
