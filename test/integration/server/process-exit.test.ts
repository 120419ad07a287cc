// Exit is bounded (issue 22, item 9): `kikitori-server serve`, the built CLI, with a stdout pipe that stops
// being read once the URL is printed, then filled with request logs. SIGTERM still ends it (the last log
// lines get KIKITORI_LOG_FLUSH_SECONDS), also when its data dir was removed under it, and a second SIGTERM
// ends a process that is still waiting for its stdout. Before, pino's exit flush slept and retried the full
// pipe on the main thread without limit, and the second signal's handler never ran.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, exited } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-server.js';

const SECRET = 'exit-test-secret-0123456789abcdef0123456789abcdef';
const TIMEOUT = 120_000;
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  url: string;
  dataDir: string;
  stderr: () => string;
}

/** `serve` logging every request; its stdout is read up to the URL line and never again. */
function serveUnread(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const dataDir = tempDir('kikitori-exit-');
  dirs.push(dataDir);
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = stdout.match(/listening on (http:\/\/\S+)/);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.pause();
      resolve({ child, url: match[1]!, dataDir, stderr: () => stderr });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it was ready:\n${stderr}`)));
  });
}

/** Requests whose log lines (each with a 4 kB URL) are many times what the pipe and the paused reader hold. */
async function fillStdout(url: string): Promise<void> {
  const query = 'x'.repeat(4096);
  for (let round = 0; round < 50; round++) {
    await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${url}/api/v1/transcriptions?q=${query}`).then((r) => r.arrayBuffer())),
    );
  }
}

/** Resolves once stderr contains `text`, or rejects if the process exits first. */
function stderrSays(server: Server, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!server.stderr().includes(text)) return;
      server.child.stderr!.off('data', check);
      resolve();
    };
    server.child.stderr!.on('data', check);
    server.child.once('exit', () => reject(new Error(`exited before saying "${text}":\n${server.stderr()}`)));
    check();
  });
}

describe('exit with a stdout nobody reads', () => {
  it(
    'SIGTERM ends `serve`: the last log lines get a bounded time, then it exits 0 without them',
    { timeout: TIMEOUT },
    async () => {
      const server = await serveUnread([]);
      await fillStdout(server.url);
      server.child.kill('SIGTERM');
      await exited(server.child);
      expect(server.child.exitCode).toBe(0);
      expect(server.stderr()).toContain('stdout is not being read; waiting up to 2 s');
    },
  );

  it('SIGTERM ends `serve` whose data dir was removed under it', { timeout: TIMEOUT }, async () => {
    const server = await serveUnread([]);
    await fillStdout(server.url);
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    server.child.kill('SIGTERM');
    await exited(server.child);
    // By itself (0, or 1 if the drain failed), not by a signal.
    expect([0, 1]).toContain(server.child.exitCode);
  });

  it(
    'a second SIGTERM ends a process still waiting for its stdout, by the signal itself',
    { timeout: TIMEOUT },
    async () => {
      // An hour to flush: only the second signal can end it within the test's time.
      const server = await serveUnread(['--role', 'api'], {
        KIKITORI_SIGNING_SECRET: SECRET,
        KIKITORI_LOG_FLUSH_SECONDS: '3600',
      });
      await fillStdout(server.url);
      server.child.kill('SIGTERM');
      await stderrSays(server, 'stdout is not being read; waiting up to 3600 s');
      server.child.kill('SIGTERM');
      await exited(server.child);
      // Killed by SIGTERM's default action: no JavaScript had to run, so a busy or blocked thread cannot stop it.
      expect(server.child.signalCode).toBe('SIGTERM');
    },
  );
});
