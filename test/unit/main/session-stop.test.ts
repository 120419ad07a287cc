// A request still on its way when the profile's session stops (the app quitting, a profile switch) ends
// as requests do; its reachability report no longer reaches the poller, whose cache is closed by then
// ("The database connection is not open" from inside the API client, before).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ProfileSession } from '../../../src-main/profile-session.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventRecorder, until } from './main-test-support.js';

const base = tempDir('kikitori-session-stop-');
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));
let arrived = 0;
const server = http.createServer((request, response) => {
  if (request.url?.startsWith('/api/v1/transcriptions/late')) {
    arrived++;
    void held.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('[]');
});
afterAll(async () => {
  release();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(base, { recursive: true, force: true });
});

it('a request that answers after stop() ends without touching the closed cache', async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = path.join(base, 'profile');
  fs.mkdirSync(dir, { recursive: true });
  const session = new ProfileSession({
    profile: { id: 'remote', kind: 'remote', name: 'Team', baseUrl: url },
    dir,
    connection: () => ({ baseUrl: url, apiKey: 'key' }),
    emit: eventRecorder().emit,
    notify: () => {},
    syncIntervals: { minMs: 50, maxMs: 200, offlineMaxMs: 200 },
    retry: { retries: 0, baseDelayMs: 10, maxDelayMs: 20 },
  });
  session.start();
  const late = session.client.getTranscription('late').then(
    () => 'answered',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  await until(() => arrived === 1);
  await session.stop();
  release();
  expect(await late).not.toMatch(/database connection is not open/);
});
