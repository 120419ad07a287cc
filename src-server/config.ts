// One typed configuration, read once, failing fast on bad settings.
// Every CLI flag has an environment twin (flags win); see README "Configuration".
import path from 'node:path';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Base for absolute URLs (signed upload/download links). Null: derived from each request's Host. */
  publicUrl: string | null;
  /** Largest accepted audio upload, in bytes. */
  maxUploadBytes: number;
  /** Lifetime of a signed upload URL; a ticket never uploaded is CANCELLED after it. */
  uploadUrlTtlSeconds: number;
  /** Lifetime of signed download URLs (audio_path, transcription_path). */
  downloadUrlTtlSeconds: number;
  /** Items per page on list operations. */
  pageSize: number;
  /** Transcription jobs run at once. */
  jobConcurrency: number;
  /** A running job whose heartbeat is older than this is considered dead and runs again. */
  jobStaleAfterMs: number;
  logLevel: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const PAGE_SIZE = 20;

type Env = Record<string, string | undefined>;

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min) throw new ConfigError(`${name} must be at least ${min}, got ${value}`);
  return value;
}

export interface ConfigOverrides {
  host?: string;
  port?: string | number;
  dataDir?: string;
  publicUrl?: string;
}

export function loadConfig(overrides: ConfigOverrides = {}, env: Env = process.env): ServerConfig {
  const port = integer('port (--port / KIKITORI_PORT)', overrides.port?.toString() ?? env.KIKITORI_PORT, 8080, 0);
  if (port > 65535) throw new ConfigError(`port must be 0..65535, got ${port}`);
  const publicUrl = overrides.publicUrl ?? env.KIKITORI_PUBLIC_URL ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new ConfigError(`KIKITORI_PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
  }
  return {
    host: overrides.host ?? env.KIKITORI_HOST ?? '127.0.0.1',
    port,
    dataDir: path.resolve(overrides.dataDir ?? env.KIKITORI_DATA_DIR ?? './kikitori-data'),
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    maxUploadBytes: integer('KIKITORI_MAX_UPLOAD_BYTES', env.KIKITORI_MAX_UPLOAD_BYTES, 4 * 1024 ** 3, 1),
    uploadUrlTtlSeconds: integer('KIKITORI_UPLOAD_URL_TTL', env.KIKITORI_UPLOAD_URL_TTL, 24 * 3600, 1),
    downloadUrlTtlSeconds: integer('KIKITORI_DOWNLOAD_URL_TTL', env.KIKITORI_DOWNLOAD_URL_TTL, 6 * 3600, 1),
    pageSize: PAGE_SIZE,
    jobConcurrency: integer('KIKITORI_JOB_CONCURRENCY', env.KIKITORI_JOB_CONCURRENCY, 1, 1),
    jobStaleAfterMs: integer('KIKITORI_JOB_STALE_AFTER_MS', env.KIKITORI_JOB_STALE_AFTER_MS, 60_000, 1000),
    logLevel: env.KIKITORI_LOG_LEVEL ?? 'info',
  };
}
