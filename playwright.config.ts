// End-to-end tests: Debian's Chromium drives the built renderer served by the test host
// (test/e2e/host), which runs the real main-process services against a real kikitori-server.
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  // Playback is started by keyboard and clicks, but some tests start it programmatically.
  '--autoplay-policy=no-user-gesture-required',
];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/playwright',
  // Two spec files at a time, each with its own host and server (every port is picked free): much of a
  // spec's time is waiting on the server, the page's polling and Chromium, which the other one fills.
  workers: 2,
  fullyParallel: false,
  // Real speech recognition runs inside some tests; states are awaited, never slept on.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 880 },
    launchOptions: { executablePath: process.env.KIKITORI_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
