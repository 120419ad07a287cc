// The app's own server: its key manages this computer's speech models (ADMIN), also when the key was
// made before that role existed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedServer } from '../../../../src-main/embedded-server/embedded-server.js';
import { createAesGcmSecretBox } from '../../../../src-main/settings/secret-box.js';
import { CLI, cli } from '../../../support/cli-process.js';
import { tempDir } from '../../../support/test-server.js';

const secrets = createAesGcmSecretBox(Buffer.alloc(32, 5));

describe('embedded server and speech models', () => {
  const dir = tempDir('kikitori-embedded-admin-');
  const servers: EmbeddedServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (sub: string) => {
    const server = new EmbeddedServer({
      command: { command: process.execPath, args: [CLI] },
      dataDir: path.join(dir, sub, 'server-data'),
      keyFile: path.join(dir, sub, 'server-key.bin'),
      secrets,
    });
    servers.push(server);
    await server.start();
    const connection = server.connection();
    if ('unavailable' in connection) throw new Error(connection.unavailable);
    const response = await fetch(`${connection.baseUrl}/api/v1/models`, { headers: { 'x-api-key': connection.apiKey } });
    return { server, apiKey: connection.apiKey, models: (await response.json()) as { can_manage: boolean } };
  };

  it('makes its key with the ADMIN role', async () => {
    expect((await start('fresh')).models.can_manage).toBe(true);
  });

  it('grants ADMIN to a key made before the role existed, and keeps the key', async () => {
    const dataDir = path.join(dir, 'older', 'server-data');
    const { stdout } = await cli(['keys', 'create', '--data-dir', dataDir, '--team', 'local', '--user', 'local', '--role', 'DELETE']);
    const olderKey = stdout.trim().split('\n').at(-1)!.trim();
    fs.writeFileSync(path.join(dir, 'older', 'server-key.bin'), secrets.encrypt(olderKey));
    const { apiKey, models } = await start('older');
    expect(apiKey).toBe(olderKey);
    expect(models.can_manage).toBe(true);
  });
});
