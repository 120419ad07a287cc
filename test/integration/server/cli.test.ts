import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { cli, exited, serveProcess } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-server.js';

const dataDir = tempDir('kikitori-cli-');
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('kikitori-server CLI', () => {
  let keyId = '';
  let key = '';

  it('keys create prints the new key alone on the last line', async () => {
    const { stdout } = await cli([
      'keys',
      'create',
      '--data-dir',
      dataDir,
      '--team',
      'acme',
      '--user',
      'alice',
      '--user-name',
      'Alice',
      '--role',
      'DELETE',
    ]);
    const lines = stdout.trim().split('\n');
    key = lines.at(-1)!;
    expect(key).toMatch(/^kk_[A-Za-z0-9_-]{43}$/);
    keyId = stdout.match(/Created key (\S+)/)![1]!;
  });

  it('keys list shows keys without revealing them', async () => {
    const { stdout } = await cli(['keys', 'list', '--data-dir', dataDir, '--json']);
    const list = JSON.parse(stdout);
    expect(list).toEqual([
      expect.objectContaining({
        keyId,
        teamId: 'acme',
        userId: 'alice',
        userName: 'Alice',
        roles: ['DELETE'],
        revokedAt: null,
      }),
    ]);
    expect(stdout).not.toContain(key);
  });

  it('serve prints its URL when ready, accepts the key, and stops cleanly on SIGTERM', async () => {
    const server = await serveProcess(dataDir);
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const response = await fetch(`${server.url}/api/v1/transcriptions`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(200);
      await cli(['keys', 'revoke', '--data-dir', dataDir, keyId]);
      expect((await fetch(`${server.url}/api/v1/transcriptions`, { headers: { 'x-api-key': key } })).status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    expect(server.child.exitCode).toBe(0);
  });

  it('fails fast with a clear message on bad configuration', async () => {
    await expect(cli(['serve', '--port', 'eighty', '--data-dir', dataDir])).rejects.toMatchObject({
      stderr: expect.stringContaining('Configuration error: port'),
    });
    await expect(cli(['keys', 'revoke', '--data-dir', dataDir, 'no-such-key'])).rejects.toMatchObject({
      stderr: expect.stringContaining('No single key matches'),
    });
  });
});
