// The per-team storage quota over real HTTP (decision 0026; issue 11): the server's default and a team's own,
// set with `kikitori-server teams quota` while the server runs, checked at the ticket and on the PUT, and freed
// on delete. Apart from limits.test.ts because the quota is summed and kept in the database: this file runs on
// both backends (vitest.config.ts), the other limits on SQLite only.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { cli } from '../../support/cli-process.js';
import { startTestServer, tempDir, testDatabaseEnv, uploadFile, type TestServer } from '../../support/test-server.js';

const dir = tempDir('kikitori-quota-');

const ticket = (server: TestServer, key: string, filename = 'meeting.flac') =>
  server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename });

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('storage quota per team', () => {
  let server: TestServer;
  let alice: string;
  let other: string;
  let file60k: string;
  let file40k: string;
  beforeAll(async () => {
    // The quota as the server's own upload route enforces it, on the PUT (files). In S3 mode the client PUTs
    // to the store, and the quota is checked when /transcribe commits the object: s3-storage-mode.test.ts.
    server = await startTestServer({ env: { KIKITORI_TEAM_QUOTA_BYTES: '100000' }, storage: 'files' });
    alice = await server.key('acme', 'alice', ['DELETE']);
    other = await server.key('globex');
    file60k = path.join(dir, 'a.bin');
    file40k = path.join(dir, 'b.bin');
    fs.writeFileSync(file60k, Buffer.alloc(60_000, 1));
    fs.writeFileSync(file40k, Buffer.alloc(40_000, 1));
  });
  afterAll(() => server.close());

  it('refuses a PUT that would pass the quota, counts streamed bodies too, and frees quota on delete', async () => {
    const first = await uploadFile(server, alice, file60k);

    const second = (await ticket(server, alice)).json;
    const refused = await fetch(second.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file60k) });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error_code: number; error_message: string };
    expect(body.error_code).toBe(ErrorCode.QUOTA_EXCEEDED);
    expect(body.error_message).toBe(
      "This file (60 kB) would take your team past its storage quota of 100 kB (60 kB already stored). Delete transcriptions you no longer need, or ask the server's administrator for a larger quota.",
    );

    // Without a Content-Length, the stream stops at the quota's remainder.
    const chunked = await fetch(second.audio_upload_url, {
      method: 'PUT',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(60_000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(403);
    expect(((await chunked.json()) as { error_code: number }).error_code).toBe(ErrorCode.QUOTA_EXCEEDED);

    // Another team has its own quota.
    await uploadFile(server, other, file60k);

    expect((await server.api(alice, 'DELETE', `/api/v1/transcriptions/${first.transcription_id}`)).status).toBe(200);
    expect((await fetch(second.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file60k) })).status).toBe(200);
  });

  it('refuses a new upload ticket once the team has used its quota', async () => {
    await uploadFile(server, alice, file40k);
    const refused = await ticket(server, alice);
    expect(refused.status).toBe(403);
    expect(refused.json.error_code).toBe(ErrorCode.QUOTA_EXCEEDED);
    expect(refused.json.error_message).toMatch(
      /^Your team has used its storage quota of 100 kB \(100 kB stored\)\. Delete transcriptions/,
    );
    expect((await ticket(server, other)).status).toBe(200);
  });
});

// Issue 11: a team's own quota, set with `kikitori-server teams quota` while the server runs, is what the
// ticket and the PUT check; --unlimited lifts it, --default gives the server's default back.
describe("a team's own storage quota", () => {
  let server: TestServer;
  let databaseEnv: Record<string, string>;
  let alice: string;
  let other: string;
  let file60k: string;
  // The CLI reads the same settings as the server (its default quota, its database).
  const quota = async (...args: string[]) =>
    (
      await cli(['teams', 'quota', '--team', 'acme', '--data-dir', server.dataDir, ...args], {
        ...databaseEnv,
        KIKITORI_TEAM_QUOTA_BYTES: '100000',
      })
    ).stdout;
  beforeAll(async () => {
    databaseEnv = await testDatabaseEnv();
    // File storage: the PUT itself is checked here (with S3 storage the PUT goes to the store, and
    // /transcribe checks the quota, which s3-storage-mode.test.ts covers).
    server = await startTestServer({ storage: 'files', env: { ...databaseEnv, KIKITORI_TEAM_QUOTA_BYTES: '100000' } });
    alice = await server.key('acme');
    other = await server.key('globex');
    file60k = path.join(dir, 'own-quota.bin');
    fs.writeFileSync(file60k, Buffer.alloc(60_000, 1));
  });
  afterAll(() => server.close());

  it('is honoured by the ticket and the PUT, per team, and can be lifted or reset', async () => {
    expect(await quota()).toMatch(
      /^Team "acme" has a storage quota of 100 kB \(100000 bytes\): the server's default\./,
    );
    expect(await quota('--bytes', '150000')).toMatch(
      /^Team "acme" has a storage quota of 150 kB \(150000 bytes\): its own\./,
    );

    // Two 60 kB files fit in acme's own 150 kB, not in the default 100 kB other teams keep.
    await uploadFile(server, alice, file60k);
    await uploadFile(server, alice, file60k);
    const third = (await ticket(server, alice)).json;
    const refused = await fetch(third.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file60k) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error_message: string }).error_message).toMatch(
      /past its storage quota of 150 kB \(120 kB already stored\)/,
    );
    await uploadFile(server, other, file60k);
    const otherSecond = (await ticket(server, other)).json;
    expect((await fetch(otherSecond.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file60k) })).status).toBe(
      403,
    );

    expect(await quota('--unlimited')).toMatch(
      /^Team "acme" has no storage quota: its own\. It stores 120 kB of audio\./,
    );
    expect((await fetch(third.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file60k) })).status).toBe(200);

    expect(await quota('--default')).toMatch(
      /^Team "acme" has a storage quota of 100 kB \(100000 bytes\): the server's default\./,
    );
    const refusedTicket = await ticket(server, alice);
    expect(refusedTicket.status).toBe(403);
    expect(refusedTicket.json.error_code).toBe(ErrorCode.QUOTA_EXCEEDED);
  });

  it('refuses a quota that is not a whole number of bytes, or two choices at once', async () => {
    await expect(quota('--bytes', '12x')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--bytes N/),
    });
    await expect(quota('--bytes', '0')).rejects.toMatchObject({ code: 1 });
    await expect(quota('--bytes', '5', '--unlimited')).rejects.toMatchObject({ code: 1 });
  });
});
