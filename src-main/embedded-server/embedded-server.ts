// The kikitori-server the app runs for itself: a child process on 127.0.0.1 with a random port and a
// data dir under the app's user data. It makes its own API key once (`keys create`), kept encrypted
// through the SecretBox, waits for the "listening on" line, restarts the server if it dies, and stops
// it on quit. The command is injected: Electron runs process.execPath with ELECTRON_RUN_AS_NODE=1,
// tests plain node, both pointing at bin/kikitori-server.js.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiConnection } from '../api-client/api-client.js';
import type { SecretBox } from '../settings/secret-box.js';
import { backoffDelay } from '../../src-shared/backoff.js';
import type { IpcError } from '../../src-shared/ipc-contract.js';
import { appError } from '../app-failure.js';

const run = promisify(execFile);

/**
 * The app's own key deletes transcriptions and manages speech models (Settings → Speech recognition): the
 * app runs this server, so it is its operator (decision 0045).
 */
const KEY_ROLES = ['DELETE', 'OPERATOR'] as const;

export interface ServerCommand {
  command: string;
  /** Arguments before the subcommand, e.g. ['/app/bin/kikitori-server.js']. */
  args: string[];
  env?: Record<string, string>;
}

export type EmbeddedServerStatus =
  | { state: 'stopped' }
  | { state: 'starting' }
  | { state: 'running'; url: string }
  | { state: 'crashed'; detail: string; restartInMs: number };

export interface EmbeddedServerOptions {
  command: ServerCommand;
  /** The server's data dir (database, audio, transcripts). */
  dataDir: string;
  /** Where the encrypted API key is kept. */
  keyFile: string;
  secrets: SecretBox;
  /** Extra environment for `serve` (e.g. KIKITORI_UPLOAD_URL_TTL in tests). */
  serveEnv?: Record<string, string>;
  startTimeoutMs?: number;
  /** Delay before restart number `attempt` (0-based) after a crash. */
  restartDelayMs?: (attempt: number) => number;
  onStatus?: (status: EmbeddedServerStatus) => void;
}

const LOCAL_TEAM = 'local';
const LOCAL_USER = 'local';

/** How long a stopping server (the app quitting) gets before it is killed. */
export const STOP_GRACE_MS = 10_000;
/**
 * How long the server lets a running transcription finish when it stops, before handing it back to its
 * queue (it resumes at the next start): well inside STOP_GRACE_MS, so the hand-back is done rather than
 * cut off by the kill. The server's own default (30 s) suits a cluster's workers, not an app quitting.
 */
export const DRAIN_SECONDS = 5;

export class EmbeddedServer {
  private child: ChildProcess | null = null;
  private currentUrl: string | null = null;
  private key: string | null = null;
  private stopping = false;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private starting: Promise<void> | null = null;
  private state: EmbeddedServerStatus = { state: 'stopped' };
  private output: string[] = [];
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(private readonly options: EmbeddedServerOptions) {}

  get url(): string | null {
    return this.currentUrl;
  }

  /** The server process, while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How the last server process ended (a signal means it was killed), for diagnostics. */
  get lastExit(): { code: number | null; signal: NodeJS.Signals | null } | null {
    return this.exit;
  }

  get status(): EmbeddedServerStatus {
    return this.state;
  }

  /** For the API client: where to reach the server, or why it cannot be reached yet. */
  connection(): ApiConnection | { unavailable: IpcError } {
    if (this.currentUrl && this.key) return { baseUrl: this.currentUrl, apiKey: this.key };
    switch (this.state.state) {
      case 'crashed':
        return { unavailable: appError({ code: 'offline', reason: 'embedded-stopped', detail: this.state.detail }) };
      case 'stopped':
        return { unavailable: appError({ code: 'offline', reason: 'embedded-not-running' }) };
      default:
        return { unavailable: appError({ code: 'offline', reason: 'embedded-starting' }) };
    }
  }

  /** Starts the server (making the API key the first time) and resolves once it listens. */
  start(): Promise<void> {
    this.stopping = false;
    if (this.child && this.currentUrl) return Promise.resolve(); // already running
    if (!this.starting) {
      this.starting = this.startOnce().finally(() => (this.starting = null));
    }
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.starting?.catch(() => {});
    const child = this.child;
    this.child = null;
    this.currentUrl = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    this.setStatus({ state: 'stopped' });
  }

  /** The last lines the server printed, for diagnostics. */
  recentOutput(): string {
    return this.output.join('\n');
  }

  private async startOnce(): Promise<void> {
    this.setStatus({ state: 'starting' });
    await fsp.mkdir(this.options.dataDir, { recursive: true });
    this.key ??= await this.loadKey();
    if (!this.key) this.key = await this.createKey();
    await this.spawnServer();
    const state = await this.keyState();
    // A key from an earlier data dir (deleted since) is refused: make a new one.
    if (state === 'refused') this.key = await this.createKey();
    // A key made before OPERATOR existed (DELETE, or DELETE and ADMIN): the app manages speech models through it, so add the role.
    if (state === 'no-operator') await this.grantRoles(this.key);
    this.setStatus({ state: 'running', url: this.currentUrl! });
  }

  private async loadKey(): Promise<string | null> {
    try {
      const sealed = await fsp.readFile(this.options.keyFile);
      return this.options.secrets.decrypt(sealed);
    } catch {
      return null;
    }
  }

  private async createKey(): Promise<string> {
    const { command, args, env } = this.options.command;
    const { stdout } = await run(
      command,
      [
        ...args,
        'keys',
        'create',
        '--data-dir',
        this.options.dataDir,
        '--team',
        LOCAL_TEAM,
        '--user',
        LOCAL_USER,
        '--user-name',
        'This computer',
        ...KEY_ROLES.flatMap((r) => ['--role', r]),
      ],
      { env: { ...process.env, ...env } },
    );
    const key = stdout.trim().split('\n').at(-1)?.trim();
    if (!key) throw new Error('kikitori-server did not print an API key.');
    // Without protected storage the key lives in memory only; a new one is made at the next start.
    if (this.options.secrets.isAvailable()) {
      await fsp.mkdir(path.dirname(this.options.keyFile), { recursive: true });
      await fsp.writeFile(this.options.keyFile, this.options.secrets.encrypt(key), { mode: 0o600 });
    }
    return key;
  }

  /** Whether the server accepts the key, and whether the key may manage speech models (OPERATOR). */
  private async keyState(): Promise<'accepted' | 'refused' | 'no-operator'> {
    try {
      const response = await fetch(`${this.currentUrl}/api/v1/models`, {
        headers: { 'x-api-key': this.key! },
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json().catch(() => null)) as { can_manage?: unknown } | null;
      if (response.status === 401) return 'refused';
      return response.status === 200 && body?.can_manage === false ? 'no-operator' : 'accepted';
    } catch {
      return 'accepted'; // a network hiccup on loopback is not a verdict on the key
    }
  }

  private async grantRoles(key: string): Promise<void> {
    const { command, args, env } = this.options.command;
    // Keys are found by their first 10 characters (`keys list` shows them), never by the secret itself.
    await run(
      command,
      [
        ...args,
        'keys',
        'grant',
        key.slice(0, 10),
        '--data-dir',
        this.options.dataDir,
        ...KEY_ROLES.flatMap((r) => ['--role', r]),
      ],
      {
        env: { ...process.env, ...env },
      },
    );
  }

  private spawnServer(): Promise<void> {
    const { command, args, env } = this.options.command;
    const child = spawn(
      command,
      [...args, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', this.options.dataDir],
      {
        // The app is the only client of its loopback server: a rate limit would only slow down a large library's sync.
        env: {
          ...process.env,
          KIKITORI_LOG_LEVEL: 'warn',
          KIKITORI_RATE_LIMIT_PER_KEY: '0',
          KIKITORI_RATE_LIMIT_PER_IP: '0',
          KIKITORI_DRAIN_SECONDS: String(DRAIN_SECONDS),
          ...env,
          ...this.options.serveEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    this.output = [];
    const remember = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.output.length > 50) this.output.splice(0, this.output.length - 50);
    };
    child.stderr.on('data', remember);
    return new Promise<void>((resolve, reject) => {
      let stdout = '';
      let ready = false;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `kikitori-server did not start within ${(this.options.startTimeoutMs ?? 60_000) / 1000} s.\n${this.recentOutput()}`,
          ),
        );
      }, this.options.startTimeoutMs ?? 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        remember(chunk);
        if (ready) return;
        stdout += chunk.toString('utf8');
        const match = stdout.match(/listening on (http:\/\/\S+)/);
        if (match) {
          ready = true;
          clearTimeout(timer);
          this.currentUrl = match[1]!;
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        if (!ready) reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        this.exit = { code, signal };
        if (!ready) {
          reject(new Error(`kikitori-server exited (${signal ?? code}) before it was ready.\n${this.recentOutput()}`));
          return;
        }
        if (this.child === child) this.onUnexpectedExit(signal ?? String(code));
      });
    });
  }

  private onUnexpectedExit(how: string) {
    this.child = null;
    this.currentUrl = null;
    if (this.stopping) return;
    const delay =
      this.options.restartDelayMs?.(this.crashes) ??
      backoffDelay(this.crashes, { baseDelayMs: 1000, maxDelayMs: 30_000 });
    this.crashes++;
    this.setStatus({ state: 'crashed', detail: `exit ${how}`, restartInMs: delay });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.start().then(
        () => {
          // Stable for a minute: the next crash starts the backoff over.
          setTimeout(() => {
            if (this.child && this.state.state === 'running') this.crashes = 0;
          }, 60_000).unref();
        },
        (error: unknown) =>
          this.onUnexpectedExit(error instanceof Error ? error.message.split('\n')[0]! : String(error)),
      );
    }, delay);
    this.restartTimer.unref?.();
  }

  private setStatus(status: EmbeddedServerStatus) {
    this.state = status;
    this.options.onStatus?.(status);
  }
}

/** The server launcher in this checkout / app bundle: bin/kikitori-server.js two levels above src-main's build. */
export function defaultServerScript(fromDir: string): string | null {
  for (let dir = fromDir, i = 0; i < 6; i++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'bin', 'kikitori-server.js');
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}
