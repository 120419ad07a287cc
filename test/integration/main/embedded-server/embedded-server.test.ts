import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedServer, type EmbeddedServerStatus } from '../../../../src-main/embedded-server/embedded-server.js';
import { createAesGcmSecretBox } from '../../../../src-main/settings/secret-box.js';
import { CLI, cli } from '../../../support/cli-process.js';
import { tempDir } from '../../../support/test-server.js';
import { shortSpeech, until } from '../main-test-support.js';

const secrets = createAesGcmSecretBox(Buffer.alloc(32, 3));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('embedded server', () => {
  const dir = tempDir('kikitori-embedded-');
  const servers: EmbeddedServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const make = (statuses: EmbeddedServerStatus[] = []) => {
    const server = new EmbeddedServer({
      command: { command: process.execPath, args: [CLI] },
      dataDir: path.join(dir, 'server-data'),
      keyFile: path.join(dir, 'server-key.bin'),
      secrets,
      restartDelayMs: () => 50,
      onStatus: (s) => statuses.push(s),
    });
    servers.push(server);
    return server;
  };

  const list = async (server: EmbeddedServer) => {
    const connection = server.connection();
    if ('unavailable' in connection) throw new Error(connection.unavailable.reason);
    return fetch(`${connection.baseUrl}/api/v1/transcriptions`, { headers: { 'x-api-key': connection.apiKey } });
  };

  it('starts on loopback with a key it made itself, kept only encrypted', async () => {
    const statuses: EmbeddedServerStatus[] = [];
    const server = make(statuses);
    expect(server.connection()).toEqual({
      unavailable: { code: 'offline', reason: 'app.embedded-not-running' },
    });
    await server.start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statuses.map((s) => s.state)).toEqual(['starting', 'running']);
    const listed = await list(server);
    expect(listed.status).toBe(200);
    // The app is its server's only client: no rate limit (a limited response would carry x-ratelimit-limit).
    expect(listed.headers.get('x-ratelimit-limit')).toBeNull();
    const { apiKey } = server.connection() as { apiKey: string };
    const sealed = fs.readFileSync(path.join(dir, 'server-key.bin'));
    expect(sealed.includes(Buffer.from(apiKey))).toBe(false);
    expect(secrets.decrypt(sealed)).toBe(apiKey);
    const pid = server.pid;
    await server.start(); // already running: nothing new
    expect(server.pid).toBe(pid);
    await server.stop();
  });

  it('stops mid-transcription by handing the job back, within the time it has before it would be killed', async () => {
    const server = make();
    await server.start();
    const { baseUrl, apiKey } = server.connection() as { baseUrl: string; apiKey: string };
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${route}`, {
        method,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as {
        transcription_id: string;
        audio_upload_url: string;
        stage: string | null;
        status: string;
      };
    };
    // About a minute of speech: recognition runs far longer than the server has to stop.
    const long = path.join(dir, 'long-speech.wav');
    await promisify(execFile)('sox', [await shortSpeech(), long, 'repeat', '25']);
    const ticket = await api('POST', '/api/v1/transcriptions/upload', { filename: 'long-speech.wav' });
    expect((await fetch(ticket.audio_upload_url, { method: 'PUT', body: fs.readFileSync(long) })).status).toBe(200);
    await api('POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    await until(
      async () => (await api('GET', `/api/v1/transcriptions/${ticket.transcription_id}`)).stage === 'recognizing',
    );
    await server.stop();
    // Exited on its own (not killed at the end of the grace), so the job went back to the queue.
    expect(server.lastExit).toEqual({ code: 0, signal: null });
  });

  it('restarts the server when it dies', async () => {
    const statuses: EmbeddedServerStatus[] = [];
    const server = make(statuses);
    await server.start();
    const firstPid = server.pid!;
    process.kill(firstPid, 'SIGKILL');
    await until(() => statuses.some((s) => s.state === 'crashed') && server.status.state === 'running');
    expect(server.pid).not.toBe(firstPid);
    expect((await list(server)).status).toBe(200);
    await server.stop();
  });

  it('reuses its key across starts, makes a new one if the data dir was wiped, and stops cleanly', async () => {
    const server = make();
    await server.start();
    const { stdout } = await cli(['keys', 'list', '--data-dir', path.join(dir, 'server-data'), '--json']);
    expect(JSON.parse(stdout)).toHaveLength(1);
    const pid = server.pid!;
    await server.stop();
    expect(alive(pid)).toBe(false);
    expect(server.status).toEqual({ state: 'stopped' });

    fs.rmSync(path.join(dir, 'server-data'), { recursive: true, force: true });
    const fresh = make();
    await fresh.start();
    expect((await list(fresh)).status).toBe(200);
    await fresh.stop();
  });

  const canManage = async (server: EmbeddedServer) => {
    const connection = server.connection() as { baseUrl: string; apiKey: string };
    const response = await fetch(`${connection.baseUrl}/api/v1/models`, {
      headers: { 'x-api-key': connection.apiKey },
    });
    return ((await response.json()) as { can_manage: boolean }).can_manage;
  };

  it('makes its key with the DELETE and OPERATOR roles, and adds OPERATOR to a key made before that role existed', async () => {
    const dataDir = path.join(dir, 'server-data');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.join(dir, 'server-key.bin'), { force: true });
    const server = make();
    await server.start();
    expect(await canManage(server)).toBe(true);
    const keys = JSON.parse((await cli(['keys', 'list', '--data-dir', dataDir, '--json'])).stdout) as {
      roles: string[];
    }[];
    expect(keys.map((k) => k.roles)).toEqual([['DELETE', 'OPERATOR']]);
    await server.stop();

    // An older app's key: DELETE only.
    const { stdout } = await cli([
      'keys',
      'create',
      '--data-dir',
      dataDir,
      '--team',
      'local',
      '--user',
      'older',
      '--role',
      'DELETE',
    ]);
    const olderKey = stdout.trim().split('\n').at(-1)!;
    fs.writeFileSync(path.join(dir, 'server-key.bin'), secrets.encrypt(olderKey));
    const upgraded = make();
    await upgraded.start();
    expect((upgraded.connection() as { apiKey: string }).apiKey).toBe(olderKey);
    expect(await canManage(upgraded)).toBe(true);
    const after = JSON.parse((await cli(['keys', 'list', '--data-dir', dataDir, '--json'])).stdout) as {
      userId: string;
      roles: string[];
    }[];
    expect(after.find((k) => k.userId === 'older')?.roles).toEqual(['DELETE', 'OPERATOR']);
    await upgraded.stop();

    // The previous app's key: DELETE and ADMIN, which no longer manages the server's models.
    const previous = (
      await cli([
        'keys',
        'create',
        '--data-dir',
        dataDir,
        '--team',
        'local',
        '--user',
        'previous',
        '--role',
        'DELETE',
        '--role',
        'ADMIN',
      ])
    ).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    fs.writeFileSync(path.join(dir, 'server-key.bin'), secrets.encrypt(previous));
    const again = make();
    await again.start();
    expect((again.connection() as { apiKey: string }).apiKey).toBe(previous);
    expect(await canManage(again)).toBe(true);
    const last = JSON.parse((await cli(['keys', 'list', '--data-dir', dataDir, '--json'])).stdout) as {
      userId: string;
      roles: string[];
    }[];
    expect(last.find((k) => k.userId === 'previous')?.roles).toEqual(['ADMIN', 'DELETE', 'OPERATOR']);
    await again.stop();
  });
});
