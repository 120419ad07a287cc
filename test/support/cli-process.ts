// Runs the real kikitori-server CLI (the compiled build, as users run it) in a child process.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const CLI = path.resolve(import.meta.dirname, '../../bin/kikitori-server.js');

export async function cli(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** Starts `serve` on a free port and resolves once it prints its URL. */
export function serveProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = stdout.match(/listening on (http:\/\/\S+)/);
      if (match) resolve({ child, url: match[1]!, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready:\n${stderr}`)));
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}
