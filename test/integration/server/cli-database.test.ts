// The CLI on a chosen database: `migrate` alone, and `keys` and `serve` with --database-url (or
// KIKITORI_DATABASE_URL) on a real PostgreSQL, as an alternative to the data dir's SQLite.
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-server/db/database.js';
import { migrations } from '../../../src-server/db/migrations/index.js';
import { cli, exited, serveProcess } from '../../support/cli-process.js';
import { runCluster as cluster } from '../../support/postgres.js';
import { tempDir } from '../../support/test-server.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = tempDir('kikitori-cli-db-');
  dirs.push(dir);
  return dir;
};
const names = migrations.map((m) => m.name).join(', ');

describe('kikitori-server migrate', () => {
  it('applies the migrations to PostgreSQL, then finds nothing to do', async () => {
    const url = await cluster.createDatabase();
    const first = await cli(['migrate', '--database-url', url, '--data-dir', dataDir()]);
    expect(first.stdout).toBe(`Applied ${migrations.length} migration(s): ${names}.\n`);
    const again = await cli(['migrate', '--data-dir', dataDir()], { KIKITORI_DATABASE_URL: url });
    expect(again.stdout).toBe('The database is up to date.\n');
  });

  it("applies them to the data dir's SQLite without a database URL", async () => {
    const dir = dataDir();
    expect((await cli(['migrate', '--data-dir', dir])).stdout).toBe(
      `Applied ${migrations.length} migration(s): ${names}.\n`,
    );
    expect(fs.existsSync(`${dir}/kikitori.sqlite`)).toBe(true);
  });

  it('refuses a database a newer kikitori-server migrated, saying to upgrade', async () => {
    const url = await cluster.createDatabase();
    const database = await openDatabase({ dataDir: dataDir(), database: { url } });
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9000-future', ${new Date().toISOString()})`.execute(
      database.kysely,
    );
    await database.close();
    await expect(cli(['migrate', '--database-url', url, '--data-dir', dataDir()])).rejects.toMatchObject({
      stderr: `The database is at migrations this kikitori-server does not know (9000-future), but this kikitori-server knows only up to ${migrations.at(-1)!.name}. Upgrade kikitori-server.\n`,
    });
  });
});

describe('keys and serve on PostgreSQL', () => {
  it('creates, lists and revokes keys there, and the server authenticates them from there', async () => {
    const url = await cluster.createDatabase();
    const dir = dataDir();
    const created = await cli([
      'keys',
      'create',
      '--database-url',
      url,
      '--data-dir',
      dir,
      '--team',
      'acme',
      '--user',
      'alice',
      '--user-name',
      'Alice',
    ]);
    const key = created.stdout.trim().split('\n').at(-1)!;
    const keyId = created.stdout.match(/Created key (\S+)/)![1]!;
    const listed = JSON.parse(
      (await cli(['keys', 'list', '--json', '--data-dir', dataDir()], { KIKITORI_DATABASE_URL: url })).stdout,
    );
    expect(listed).toEqual([expect.objectContaining({ keyId, teamId: 'acme', userName: 'Alice', revokedAt: null })]);
    // Not in the data dir's SQLite: a server on that alone does not know the key.
    expect(JSON.parse((await cli(['keys', 'list', '--json', '--data-dir', dir])).stdout)).toEqual([]);

    // Several processes may share this database, so it takes the shared signing secret (decision 0033).
    const server = await serveProcess(dir, {
      KIKITORI_DATABASE_URL: url,
      KIKITORI_SIGNING_SECRET: 'a-signing-secret-of-at-least-32-bytes!',
    });
    try {
      const list = await fetch(`${server.url}/api/v1/transcriptions`, { headers: { 'x-api-key': key } });
      expect(list.status).toBe(200);
      await cli(['keys', 'revoke', '--database-url', url, '--data-dir', dir, keyId]);
      expect((await fetch(`${server.url}/api/v1/transcriptions`, { headers: { 'x-api-key': key } })).status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    expect(server.child.exitCode).toBe(0);
  });
});
