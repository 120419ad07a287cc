import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { otherConnection, startTestServer, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.key('acme', 'alice');
  bob = await server.key('globex', 'bob');
});
afterAll(() => server.close());

const expectErrorBody = (json: any, code: number) => {
  expect(json).toEqual({ error_id: expect.any(String), error_code: code, error_message: expect.any(String) });
  expect(json.error_message.length).toBeGreaterThan(10);
};

describe('authentication', () => {
  it('answers /healthz without a key', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    // `status: "ok"` as before, with the components it checked (docs/deploy/README.md).
    expect(await response.json()).toEqual({
      status: 'ok',
      role: 'all',
      components: {
        database: { status: 'ok' },
        storage: { status: 'ok' },
        queue: { status: 'ok', detail: expect.stringMatching(/^\d+ queued, \d+ running$/) },
      },
    });
  });

  it('answers 401 with the error body when the key is missing', async () => {
    const response = await fetch(`${server.url}/api/v1/dictionaries`);
    expect(response.status).toBe(401);
    expectErrorBody(await response.json(), ErrorCode.MISSING_API_KEY);
  });

  it('answers 401 for an unknown key, in either header', async () => {
    const viaHeader = await server.api('kk_not-a-real-key', 'GET', '/api/v1/transcriptions');
    expect(viaHeader.status).toBe(401);
    expectErrorBody(viaHeader.json, ErrorCode.INVALID_API_KEY);
    const viaBearer = await fetch(`${server.url}/api/v1/transcriptions`, {
      headers: { authorization: 'Bearer kk_nope' },
    });
    expect(viaBearer.status).toBe(401);
  });

  it('accepts the same key as X-API-KEY and as Authorization: Bearer', async () => {
    const viaHeader = await server.api(alice, 'GET', '/api/v1/dictionaries');
    expect(viaHeader.status).toBe(200);
    const viaBearer = await fetch(`${server.url}/api/v1/dictionaries`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(viaBearer.status).toBe(200);
  });

  it('stores keys hashed, never in clear', async () => {
    const rows = await server.runtime.db.kysely.selectFrom('api_keys').select(['key_hash', 'key_prefix']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(alice);
    expect(dump).not.toContain(bob);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
  });

  it('rejects a revoked key', async () => {
    const key = await server.key('acme', 'carol');
    expect((await server.api(key, 'GET', '/api/v1/dictionaries')).status).toBe(200);
    const [info] = (await server.runtime.ctx.keys.list('acme')).filter((k) => k.userId === 'carol');
    await server.runtime.ctx.keys.revoke(info!.keyId);
    expect((await server.api(key, 'GET', '/api/v1/dictionaries')).status).toBe(401);
  });

  it('rejects a key that another process revoked, though this one had accepted (and kept) it', async () => {
    const key = await server.key('acme', 'dan');
    for (let i = 0; i < 3; i++) expect((await server.api(key, 'GET', '/api/v1/transcriptions')).status).toBe(200);
    const [info] = (await server.runtime.ctx.keys.list('acme')).filter((k) => k.userId === 'dan');
    const other = await otherConnection(server);
    try {
      await other.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ?', [new Date().toISOString(), info!.keyId]);
    } finally {
      await other.close();
    }
    // Seen within milliseconds: SQLite rereads data_version every 5 ms, PostgreSQL's NOTIFY arrives (decision 0039).
    await expect
      .poll(async () => (await server.api(key, 'GET', '/api/v1/transcriptions')).status, { interval: 20 })
      .toBe(401);
    expect((await server.api(key, 'GET', '/api/v1/dictionaries')).status).toBe(401);
  });

  it('answers each key as its own caller when one kept-alive connection presents several in turn', async () => {
    const acme = await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'Acme only' });
    const globex = await server.api(bob, 'POST', '/api/v1/dictionaries', { name: 'Globex only' });
    // One socket for every request: the server keeps the last key's hash with the connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ports = new Set<number>();
    const dictionariesOf = (key: string) =>
      new Promise<{ status: number; ids: string[] }>((resolve, reject) => {
        const request = http.get(
          `${server.url}/api/v1/dictionaries`,
          { agent, headers: { 'x-api-key': key } },
          (response) => {
            ports.add(response.socket.localPort!);
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            response.on('end', () => {
              const json = JSON.parse(text) as Array<{ dictionary_id: string }> | { error_code: number };
              resolve({
                status: response.statusCode!,
                ids: Array.isArray(json) ? json.map((d) => d.dictionary_id) : [],
              });
            });
          },
        );
        request.on('error', reject);
      });
    try {
      for (const key of [alice, bob, 'kk_not-a-real-key', alice, alice, bob]) {
        const { status, ids } = await dictionariesOf(key);
        if (key === alice) {
          expect(status).toBe(200);
          expect(ids).toContain(acme.json.dictionary_id);
          expect(ids).not.toContain(globex.json.dictionary_id);
        } else if (key === bob) {
          expect(status).toBe(200);
          expect(ids).toContain(globex.json.dictionary_id);
          expect(ids).not.toContain(acme.json.dictionary_id);
        } else expect(status).toBe(401);
      }
      expect(ports.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});

describe('team scoping', () => {
  it("answers 404 for another team's dictionary, exactly as for an unknown id", async () => {
    const created = await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'Acme terms' });
    expect(created.status).toBe(200);
    const id = created.json.dictionary_id;
    expect((await server.api(alice, 'GET', `/api/v1/dictionaries/${id}`)).status).toBe(200);
    const foreign = await server.api(bob, 'GET', `/api/v1/dictionaries/${id}`);
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign.json, ErrorCode.DICTIONARY_NOT_FOUND);
    expect((await server.api(bob, 'DELETE', `/api/v1/dictionaries/${id}`)).status).toBe(404);
    expect((await server.api(bob, 'POST', `/api/v1/dictionaries/${id}/words`, { word: 'x' })).status).toBe(404);
    const list = await server.api(bob, 'GET', '/api/v1/dictionaries');
    expect(list.json.map((d: any) => d.dictionary_id)).not.toContain(id);
  });

  it("answers 404 for another team's transcription, and refuses its dictionary on upload", async () => {
    const ticket = await server.api(alice, 'POST', '/api/v1/transcriptions/upload', { filename: 'a.wav' });
    expect(ticket.status).toBe(200);
    const foreign = await server.api(bob, 'GET', `/api/v1/transcriptions/${ticket.json.transcription_id}`);
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign.json, ErrorCode.TRANSCRIPTION_NOT_FOUND);
    expect((await server.api(bob, 'GET', '/api/v1/transcriptions')).json).toEqual([]);

    const dictionary = await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'private' });
    const refused = await server.api(bob, 'POST', '/api/v1/transcriptions/upload', {
      filename: 'b.wav',
      dictionary_id: dictionary.json.dictionary_id,
    });
    expect(refused.status).toBe(404);
  });
});

describe('roles', () => {
  it('needs the DELETE role to delete a transcription', async () => {
    const admin = await server.key('acme', 'admin', ['DELETE']);
    const ticket = await server.api(alice, 'POST', '/api/v1/transcriptions/upload', { filename: 'c.wav' });
    const id = ticket.json.transcription_id;
    const forbidden = await server.api(alice, 'DELETE', `/api/v1/transcriptions/${id}`);
    expect(forbidden.status).toBe(403);
    expectErrorBody(forbidden.json, ErrorCode.ROLE_REQUIRED);
    const deleted = await server.api(admin, 'DELETE', `/api/v1/transcriptions/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect((await server.api(alice, 'GET', `/api/v1/transcriptions/${id}`)).status).toBe(404);
  });
});
