// A real PostgreSQL (Debian's package) in a temporary directory: one per vitest run (postgres-cluster-setup.ts),
// on which each test file takes its own databases.
// initdb refuses to run as root, so under root the cluster belongs to the `postgres` system user that the
// Debian package creates; otherwise it runs as the current user.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const SUPERUSER = 'kikitori';

export interface PostgresServer {
  /** Connection URL of a database on this server (default: the `postgres` maintenance database). */
  url(database?: string): string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Debian installs each major version under /usr/lib/postgresql/<major>/bin; the newest wins. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error("PostgreSQL is not installed: run `npm run setup` (it installs Debian's postgresql)");
  return path.join(root, majors[0]!, 'bin');
}

/** The uid/gid the cluster runs as: the postgres system user under root, else the current user. */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error("No `postgres` system user: run `npm run setup` (Debian's postgresql package creates it)");
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let counter = 0;

/** Creates a fresh, empty database through the admin URL of a cluster and returns its URL. */
async function createDatabaseOn(adminUrl: string, prefix = 'kikitori_test'): Promise<string> {
  const name = `${prefix}_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The run's one cluster, started by test/support/postgres-cluster-setup.ts (the globalSetup of every vitest
 * project) and stopped when the run ends. Test files take databases on it; none starts a cluster of its own.
 */
export const runCluster: Pick<PostgresServer, 'url' | 'createDatabase'> = {
  url(database = 'postgres') {
    const url = new URL(adminUrl());
    url.pathname = `/${database}`;
    return url.toString();
  },
  createDatabase: (prefix) => createDatabaseOn(adminUrl(), prefix),
};

/** A fresh, empty database on the run's cluster, as a URL; it goes when the cluster stops. */
export function testDatabase(prefix?: string): Promise<string> {
  return runCluster.createDatabase(prefix);
}

function adminUrl(): string {
  const url = process.env.KIKITORI_TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      'No PostgreSQL cluster for this run: run the tests through vitest (its globalSetup test/support/postgres-cluster-setup.ts starts one)',
    );
  return url;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const owner = clusterOwner();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-pg-'));
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (owner) {
    fs.chownSync(base, owner.uid, owner.gid);
    fs.chownSync(dataDir, owner.uid, owner.gid);
  }
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  await run(
    path.join(bin, 'initdb'),
    ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'],
    {
      ...asOwner,
      cwd: base,
    },
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      base,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    { ...asOwner, cwd: base, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;

  // Ready once it accepts a connection.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${stderr}`);
    const client = new pg.Client({ connectionString: url() });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt > 300) throw new Error(`PostgreSQL did not accept connections: ${String(error)}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    url,
    createDatabase: (prefix) => createDatabaseOn(url(), prefix),
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT'); // fast shutdown
      await exited;
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
