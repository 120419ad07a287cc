// kikitori-server as users run it (bin/kikitori-server.js, the compiled build) in a child process. The
// launcher is found from the repository root given, so this also works when compiled into dist/
// (bench/desktop-bench.ts runs from there). test/support/cli-process.ts builds on it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../../src-server/config.js';
import { openDatabase } from '../../../src-server/db/database.js';
import { KyselyKeyRepository } from '../../../src-server/db/key-repository.js';

const run = promisify(execFile);

export function launcherOf(root: string): string {
  return path.join(root, 'bin/kikitori-server.js');
}

export async function createApiKey(
  root: string,
  dataDir: string,
  roles: readonly string[] = ['DELETE'],
): Promise<string> {
  const { stdout } = await run(process.execPath, [
    launcherOf(root),
    'keys',
    'create',
    '--data-dir',
    dataDir,
    '--team',
    'e2e',
    '--user',
    'tester',
    '--user-name',
    'Test User',
    ...roles.flatMap((role) => ['--role', role]),
  ]);
  return stdout.trim().split('\n').at(-1)!.trim();
}

/**
 * The same key, made by the repository `keys create` calls, in this process: the CLI's own process loads
 * the whole server for one row, which cost each spec's host seconds. The CLI command has its own tests
 * (test/integration/server/cli.test.ts).
 */
export async function createApiKeyInProcess(dataDir: string, roles: readonly string[] = ['DELETE']): Promise<string> {
  const database = await openDatabase(loadConfig({ dataDir }, process.env));
  try {
    const keys = new KyselyKeyRepository(database.kysely);
    const { key } = await keys.create({ teamId: 'e2e', userId: 'tester', userName: 'Test User', roles: [...roles] });
    return key;
  } finally {
    await database.close();
  }
}

export interface ServerChild {
  child: ChildProcess;
  url: string;
  /** What the server wrote to stderr so far, for failure messages. */
  stderr: () => string;
}

/** Starts `serve` on a free loopback port (or `port`, to come back where it was); resolves once it prints its URL. */
export function startServer(
  root: string,
  dataDir: string,
  env: Record<string, string> = {},
  port = 0,
): Promise<ServerChild> {
  const child = spawn(process.execPath, [launcherOf(root), 'serve', '--port', String(port), '--data-dir', dataDir], {
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = stdout.match(/listening on (http:\/\/\S+)/);
      if (match) resolve({ child, url: match[1]!, stderr: () => stderr });
    });
    child.once('exit', (code) =>
      reject(new Error(`kikitori-server exited with ${code} before it was ready:\n${stderr}`)),
    );
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await done;
}
