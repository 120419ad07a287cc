// Hostile input on the channels that used to take paths and pick servers (decision 0046): the renderer
// is treated as compromised. It may send raw paths, made-up or replayed handles, and ask main to switch
// to a server of its choosing; main's own dialogs are the only way a path or a new server gets in.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IpcChannel, IpcRequest, UploadOptions } from '../../../../src-shared/ipc-contract.js';
import { invokeHandler } from '../../../../src-main/ipc/handler-registry.js';
import { createMainServices, type MainServices, type ServerToConfirm } from '../../../../src-main/services.js';
import { createConfSettingsStore } from '../../../../src-main/settings/conf-settings-store.js';
import { createAesGcmSecretBox } from '../../../../src-main/settings/secret-box.js';
import { CLI } from '../../../support/cli-process.js';
import { tempDir } from '../../../support/test-server.js';

const OPTIONS: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

describe('paths and servers the renderer names', () => {
  const dir = tempDir('kikitori-hostile-ipc-');
  const secret = path.join(dir, 'secret.wav');
  const secrets = path.join(dir, 'private');
  let picked: string[] = [];
  let confirm = false;
  const asked: ServerToConfirm[] = [];
  let services: MainServices;
  // A server the attacker controls: it must hear nothing until the user says yes.
  const heard: string[] = [];
  const attacker = http.createServer((req, res) => {
    heard.push(`${req.method} ${req.url} key=${String(req.headers['x-api-key'] ?? '')}`);
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end('{"error_id":"x","error_code":"UNAUTHORIZED","error_message":"no"}');
  });
  let attackerUrl = '';

  const call = (channel: IpcChannel, request: unknown) =>
    invokeHandler(services.handlers, channel, request as IpcRequest<IpcChannel>);
  const refused = async (channel: IpcChannel, request: unknown) => {
    const result = await call(channel, request);
    if (result.ok) throw new Error(`${channel} accepted ${JSON.stringify(request)}`);
    return result.error;
  };

  beforeAll(async () => {
    fs.writeFileSync(secret, Buffer.alloc(4096, 7));
    fs.mkdirSync(secrets);
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    services = await createMainServices({
      userDataDir: path.join(dir, 'user-data'),
      dialogs: {
        openAudioFiles: async () => picked,
        openModelFile: async () => null,
        openFolder: async () => null,
        saveFile: async () => null,
        confirmServer: async (server) => {
          asked.push(server);
          if (confirm) heard.push('--- confirmed ---');
          return confirm;
        },
      },
      notifier: { notify: () => {} },
      secrets: createAesGcmSecretBox(Buffer.alloc(32, 9)),
      settings: createConfSettingsStore({ cwd: path.join(dir, 'user-data') }),
      emit: () => {},
      serverCommand: { command: process.execPath, args: [CLI] },
      appVersion: '0.1.0-test',
      platform: 'linux',
      locale: 'en-US',
      tuning: {
        syncIntervals: { minMs: 50, maxMs: 200, offlineMaxMs: 200 },
        retry: { retries: 0, baseDelayMs: 10, maxDelayMs: 20 },
      },
    });
    // Not started: no profile session, no embedded server. Refusals must come before either is needed.
  });
  afterAll(async () => {
    await services?.stop();
    await new Promise<void>((resolve) => attacker.close(() => resolve()));
    attacker.closeAllConnections();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a raw path, or anything else, where a handle is expected, with a closed validation code', async () => {
    const hostile = [
      secret,
      `../${path.basename(secret)}`,
      'file-../../etc/passwd',
      `file-${'0'.repeat(31)}`,
      `file-${'G'.repeat(32)}`,
      `FILE-${'a'.repeat(32)}`,
      `file-${'a'.repeat(32)}\n`,
      '',
      'x'.repeat(5000),
    ];
    for (const value of hostile) {
      expect(await refused('uploads:add', { files: [value], options: OPTIONS })).toMatchObject({
        code: 'validation',
        field: 'files.0',
        reason: 'app.invalid-request',
        detail: expect.stringContaining('This file was not chosen in Kikitori'),
      });
      expect(await refused('uploads:add-folder', { folder: value, options: OPTIONS })).toMatchObject({
        code: 'validation',
        field: 'folder',
        reason: 'app.invalid-request',
        detail: 'This folder was not chosen in Kikitori. Choose or drop it again.',
      });
      expect(await refused('transcripts:rerun', { id: 't1', file: value })).toMatchObject({
        code: 'validation',
        field: 'file',
      });
    }
    // The old shapes: a path under its old name is an unknown field.
    expect(await refused('uploads:add', { paths: [secret], options: OPTIONS })).toMatchObject({
      code: 'validation',
      field: 'paths',
    });
    expect(await refused('uploads:add-folder', { path: secrets, options: OPTIONS })).toMatchObject({
      code: 'validation',
      field: 'path',
    });
    expect(await refused('transcripts:rerun', { id: 't1', path: secret })).toMatchObject({
      code: 'validation',
      field: 'path',
    });
    expect(await refused('uploads:add', { files: [{ path: secret }], options: OPTIONS })).toMatchObject({
      code: 'validation',
      field: 'files.0',
    });
  });

  it('refuses a well-formed handle main never issued, and one of the other kind, before reading anything', async () => {
    const made = `file-${'ab'.repeat(16)}`;
    expect(await refused('uploads:add', { files: [made], options: OPTIONS })).toMatchObject({
      code: 'not-found',
      field: 'files.0',
    });
    expect(await refused('uploads:add-folder', { folder: made, options: OPTIONS })).toMatchObject({
      code: 'not-found',
      field: 'folder',
    });
    expect(await refused('transcripts:rerun', { id: 't1', file: made })).toMatchObject({
      code: 'not-found',
      field: 'file',
    });

    // A file main's own dialog offered is not a folder to walk.
    picked = [secret];
    const offered = await call('uploads:pick', undefined);
    if (!offered.ok) throw new Error(JSON.stringify(offered.error));
    const [offer] = offered.value as Array<{ handle: string; name: string; size: number }>;
    expect(offer).toMatchObject({ name: 'secret.wav', size: 4096 });
    expect(await refused('uploads:add-folder', { folder: offer!.handle, options: OPTIONS })).toMatchObject({
      code: 'not-found',
      field: 'folder',
    });
    // The preload's channel checks its paths too (a drop of something gone).
    expect(await refused('files:offer-dropped', { paths: [path.join(dir, 'never there.wav')] })).toMatchObject({
      code: 'not-found',
      reason: 'app.file-unreadable',
      params: { name: 'never there.wav' },
    });
    expect(await refused('files:offer-dropped', { paths: [] })).toMatchObject({ code: 'validation', field: 'paths' });
  });

  it('switches to a new server only once the user confirms in main’s dialog: until then the server hears nothing', async () => {
    const added = await call('profiles:add', {
      name: 'Totally the team server',
      baseUrl: attackerUrl,
      apiKey: 'the-users-key',
    });
    if (!added.ok) throw new Error(JSON.stringify(added.error));
    const id = (added.value as { id: string }).id;

    confirm = false;
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await refused('profiles:activate', { id })).toMatchObject({
        code: 'cancelled',
        reason: 'app.switch-not-confirmed',
        params: { url: attackerUrl },
      });
    }
    // Declined each time, and asked each time (a refusal is not remembered as consent), with the address shown.
    expect(asked).toEqual(Array.from({ length: 3 }, () => ({ name: 'Totally the team server', baseUrl: attackerUrl })));
    // The page cannot set the active profile another way.
    expect(await refused('settings:update', { activeProfileId: id })).toMatchObject({
      code: 'validation',
      field: 'activeProfileId',
    });
    expect(await refused('profiles:activate', { id: '../embedded' })).toMatchObject({
      code: 'validation',
      field: 'id',
    });
    expect(await refused('profiles:activate', { id: 'no-such-profile' })).toMatchObject({ code: 'not-found' });
    expect(asked).toHaveLength(3);
    const settings = await call('settings:get', undefined);
    expect(settings.ok && settings.value).toMatchObject({ activeProfileId: 'embedded' });

    // Yes: from that moment on main talks to it (the control that shows this test would see a request).
    confirm = true;
    const activated = await call('profiles:activate', { id });
    expect(activated).toMatchObject({ ok: true, value: { activeProfileId: id } });
    await vi.waitFor(() => expect(heard.length).toBeGreaterThan(1), { timeout: 10_000, interval: 20 });
    expect(heard[0]).toBe('--- confirmed ---');
    expect(heard.slice(1).every((line) => line.includes('key=the-users-key'))).toBe(true);
    expect(asked).toHaveLength(4);
  });
});
