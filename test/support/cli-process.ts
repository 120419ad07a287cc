// Runs the real kikitori-server CLI (the compiled build, as users run it) in a child process.
import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { launcherOf, startServer, type ServerChild } from '../e2e/host/server-process.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = launcherOf(ROOT);

export async function cli(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
}

export type ServerProcess = ServerChild;

/** Starts `serve` on a free port and resolves once it prints its URL. */
export function serveProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer(ROOT, dataDir, env);
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
}
