// kikitori-server's configuration: every setting declared once (environment variable, CLI flag,
// type, default, bounds, meaning) as a TypeBox schema, parsed once into a typed, nested ServerConfig.
// The CLI hands its flags and the process environment to loadConfig(); everything else receives the
// section it needs as a parameter. Bad settings fail at start with a ConfigError that names the
// variable (and flag) and says what to do.
//
// Adding a setting: declare it in ServerConfigSchema below, document it in README.md (a unit test checks
// that every variable is there), and pass its section to whatever needs it. AWS credentials and region
// stay with the AWS SDK's own variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION): they are
// not kikitori settings.
import path from 'node:path';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** The shortest KIKITORI_SIGNING_SECRET accepted, in bytes (UTF-8). */
export const MIN_SIGNING_SECRET_BYTES = 32;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Items per page on list operations: fixed by the API spec, not a setting. */
export const PAGE_SIZE = 20;

export const SPEECH_ENGINE_NAMES = ['pocketsphinx', 'whisper', 'remote'] as const;
export type SpeechEngineName = (typeof SPEECH_ENGINE_NAMES)[number];
/** What a transcription_model may be mapped to: an engine, or `auto` (whisper with the best installed model, else pocketsphinx; chosen per job). */
export const ENGINE_CHOICES = [...SPEECH_ENGINE_NAMES, 'auto'] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];

/** Where the official whisper.cpp ggml files are served. */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ANALYSIS_PREFERENCES = ['llm', 'local'] as const;

/** What a leaf of the schema says about itself, beside its JSON Schema keywords. */
interface SettingMeta {
  /** The environment variable. */
  env: string;
  /** The CLI flag, for settings that have one. Flags win over the environment. */
  flag?: string;
  description: string;
  /** The default as README shows it, when it is not a literal `default` (derived or engine-side). */
  defaultText?: string;
  /** Never echoed in errors or logs. */
  secret?: boolean;
  /** What a valid value looks like, for error messages about a `pattern`. */
  expect?: string;
  /** A file or directory: resolved against the working directory. */
  resolvePath?: boolean;
}

const setting = (meta: SettingMeta) => ({ 'x-setting': meta });

const HTTP_URL = '^https?://[^/]+';

export const ServerConfigSchema = Type.Object({
  server: Type.Object({
    host: Type.String({
      default: '127.0.0.1',
      ...setting({
        env: 'KIKITORI_HOST',
        flag: '--host',
        description: 'interface to listen on (0.0.0.0 to serve a team)',
      }),
    }),
    port: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: 8080,
      ...setting({ env: 'KIKITORI_PORT', flag: '--port', description: 'port to listen on; 0 picks a free one' }),
    }),
    /** Base for absolute URLs (signed upload/download links). Null: derived from each request's Host. */
    publicUrl: Type.Union([Type.String({ pattern: HTTP_URL }), Type.Null()], {
      default: null,
      ...setting({
        env: 'KIKITORI_PUBLIC_URL',
        description: 'base of signed URLs when behind a proxy',
        defaultText: "from the request's Host",
        expect: 'an http(s) URL such as https://kikitori.example.com',
      }),
    }),
    /** What this process does: HTTP, jobs, or both (decision: docs/deploy). */
    role: Type.Enum(SERVER_ROLES, {
      default: 'all',
      ...setting({
        env: 'KIKITORI_ROLE',
        flag: '--role',
        description: 'api: HTTP only; worker: jobs only, no port; all: both, jobs off the HTTP thread',
      }),
    }),
    /** On SIGTERM/SIGINT, how long running jobs may take to finish before they go back to the queue. */
    drainSeconds: Type.Integer({
      minimum: 0,
      default: 30,
      ...setting({
        env: 'KIKITORI_DRAIN_SECONDS',
        description: 'seconds a stopping worker lets running jobs finish before handing them back to the queue',
      }),
    }),
    // Timeouts (decision 0026): a stalled client is cut off by the idle timeout, never a slow but
    // steady upload; the headers timeout is the slow-loris defence.
    headersTimeoutSeconds: Type.Integer({
      minimum: 1,
      default: 30,
      ...setting({
        env: 'KIKITORI_HEADERS_TIMEOUT',
        description: 'seconds a client has to send the request line and headers',
      }),
    }),
    idleTimeoutSeconds: Type.Integer({
      minimum: 1,
      default: 120,
      ...setting({
        env: 'KIKITORI_IDLE_TIMEOUT',
        description: 'seconds a request may stall (no bytes received) before the connection is closed',
      }),
    }),
    requestTimeoutSeconds: Type.Integer({
      minimum: 0,
      default: 24 * 3600,
      ...setting({
        env: 'KIKITORI_REQUEST_TIMEOUT',
        description: 'seconds to receive a whole request, body included; 0: no limit',
      }),
    }),
  }),
  // Per-minute request budgets (decision 0026); 0 turns one off. /healthz is never limited.
  rateLimits: Type.Object({
    perKey: Type.Integer({
      minimum: 0,
      default: 600,
      ...setting({
        env: 'KIKITORI_RATE_LIMIT_PER_KEY',
        description: 'requests per minute for each API key; 0: unlimited',
      }),
    }),
    perIp: Type.Integer({
      minimum: 0,
      default: 1200,
      ...setting({
        env: 'KIKITORI_RATE_LIMIT_PER_IP',
        description:
          'requests per minute from each client address without a key (signed upload and download URLs, /docs); 0: unlimited',
      }),
    }),
  }),
  disk: Type.Object({
    minFreeBytes: Type.Integer({
      minimum: 0,
      default: 256 * 1024 ** 2,
      ...setting({
        env: 'KIKITORI_MIN_FREE_DISK_BYTES',
        description: 'disk space kept free in the data dir: uploads and decoding that would eat into it are refused',
      }),
    }),
  }),
  database: Type.Object({
    /** Null: SQLite in the data dir. */
    url: Type.Union([Type.String({ pattern: '^postgres(ql)?://' }), Type.Null()], {
      default: null,
      ...setting({
        env: 'KIKITORI_DATABASE_URL',
        flag: '--database-url',
        description: 'PostgreSQL for every record and the job queue',
        defaultText: 'SQLite in DATA_DIR',
        expect: 'a URL such as postgres://user:password@host:5432/kikitori',
        secret: true,
      }),
    }),
  }),
  storage: Type.Object({
    /** Null: files in DATA_DIR/storage. */
    url: Type.Union([Type.String({ pattern: '^s3://[^/]+' }), Type.Null()], {
      default: null,
      ...setting({
        env: 'KIKITORI_STORAGE_URL',
        description: 'S3 bucket (and key prefix) for audio and transcripts',
        defaultText: 'files in DATA_DIR/storage',
        expect: 'a URL such as s3://bucket/prefix',
      }),
    }),
    s3Endpoint: Type.Union([Type.String({ pattern: HTTP_URL }), Type.Null()], {
      default: null,
      ...setting({
        env: 'KIKITORI_S3_ENDPOINT',
        description: 'endpoint of an S3-compatible store (path-style addressing)',
        defaultText: "AWS's own",
        expect: 'an http(s) URL such as http://minio:9000',
      }),
    }),
  }),
  dataDir: Type.String({
    default: './kikitori-data',
    ...setting({
      env: 'KIKITORI_DATA_DIR',
      flag: '--data-dir',
      description: 'where everything is stored',
      resolvePath: true,
    }),
  }),
  log: Type.Object({
    level: Type.Enum(LOG_LEVELS, {
      default: 'info',
      ...setting({ env: 'KIKITORI_LOG_LEVEL', description: 'pino log level' }),
    }),
    /** An exiting process waits this long at most for stdout to take its last log lines (decision 0047). */
    flushSeconds: Type.Integer({
      minimum: 0,
      maximum: 3600,
      default: 2,
      ...setting({
        env: 'KIKITORI_LOG_FLUSH_SECONDS',
        description:
          'seconds an exiting process keeps trying to write its last log lines to a stdout nobody reads; then it exits without them',
      }),
    }),
  }),
  uploads: Type.Object({
    /** Largest accepted audio upload, in bytes. */
    maxBytes: Type.Integer({
      minimum: 1,
      default: 4 * 1024 ** 3,
      ...setting({ env: 'KIKITORI_MAX_UPLOAD_BYTES', description: 'largest accepted audio file, in bytes' }),
    }),
    /** A ticket never uploaded is CANCELLED after this. */
    urlTtlSeconds: Type.Integer({
      minimum: 1,
      default: 24 * 3600,
      ...setting({ env: 'KIKITORI_UPLOAD_URL_TTL', description: 'seconds an upload URL lives' }),
    }),
    /** Bytes of stored audio each team may keep; unset: no quota. */
    teamQuotaBytes: Type.Optional(
      Type.Integer({
        minimum: 1,
        ...setting({
          env: 'KIKITORI_TEAM_QUOTA_BYTES',
          description: 'bytes of stored audio each team may keep',
          defaultText: 'unlimited',
        }),
      }),
    ),
    /** Resumable (tus) uploads a team may have open at once; each holds its size of the quota until it ends. */
    maxOpenPerTeam: Type.Integer({
      minimum: 1,
      default: 20,
      ...setting({
        env: 'KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM',
        description: 'resumable (tus) uploads each team may have open at once',
      }),
    }),
  }),
  voices: Type.Object({
    /** Voices a team may enrol (decision 0084): recognition compares every separated speaker with each. */
    maxPerTeam: Type.Integer({
      minimum: 1,
      default: 100,
      ...setting({
        env: 'KIKITORI_MAX_VOICES_PER_TEAM',
        description: 'voices each team may enrol in its voice library',
      }),
    }),
  }),
  downloads: Type.Object({
    /** Lifetime of signed download URLs (audio_path, transcription_path). */
    urlTtlSeconds: Type.Integer({
      minimum: 1,
      default: 6 * 3600,
      ...setting({ env: 'KIKITORI_DOWNLOAD_URL_TTL', description: 'seconds a signed download URL lives' }),
    }),
  }),
  jobs: Type.Object({
    concurrency: Type.Integer({
      minimum: 1,
      default: 1,
      ...setting({ env: 'KIKITORI_JOB_CONCURRENCY', description: 'transcriptions run at once' }),
    }),
    /** A running job whose heartbeat is older than this is considered dead and runs again. */
    staleAfterMs: Type.Integer({
      minimum: 1000,
      default: 60_000,
      ...setting({
        env: 'KIKITORI_JOB_STALE_AFTER_MS',
        description: 'milliseconds after which a silent running job is taken over',
      }),
    }),
    /** Finished job rows (completed, failed, cancelled) are deleted after this. */
    retentionDays: Type.Integer({
      minimum: 0,
      default: 7,
      ...setting({ env: 'KIKITORI_JOB_RETENTION_DAYS', description: 'days finished job rows are kept' }),
    }),
  }),
  openai: Type.Object({
    /** Requests of /v1/audio/* admitted beyond those the job slots run; more answer 503 with Retry-After. */
    maxWaiting: Type.Integer({
      minimum: 0,
      default: 8,
      ...setting({
        env: 'KIKITORI_OPENAI_MAX_WAITING',
        description: 'OpenAI-route requests that may wait for a job slot; more are answered 503 with Retry-After',
      }),
    }),
  }),
  // Live transcription over /v1/realtime (decision 0063): each session holds a decoder, so these bound memory and CPU.
  live: Type.Object({
    maxSessions: Type.Integer({
      minimum: 0,
      default: 4,
      ...setting({
        env: 'KIKITORI_LIVE_MAX_SESSIONS',
        description: 'live transcription sessions (/v1/realtime) open at once on this server; 0 turns live off',
      }),
    }),
    maxSessionsPerKey: Type.Integer({
      minimum: 1,
      default: 2,
      ...setting({ env: 'KIKITORI_LIVE_MAX_SESSIONS_PER_KEY', description: 'live sessions open at once per API key' }),
    }),
    maxSessionSeconds: Type.Integer({
      minimum: 1,
      default: 3 * 3600,
      ...setting({
        env: 'KIKITORI_LIVE_MAX_SESSION_SECONDS',
        description: 'longest live session, in seconds; then it ends with a session_expired error',
      }),
    }),
    idleTimeoutSeconds: Type.Integer({
      minimum: 1,
      default: 60,
      ...setting({
        env: 'KIKITORI_LIVE_IDLE_TIMEOUT',
        description: 'seconds a live session may receive nothing from its client before it is ended',
      }),
    }),
    maxFrameBytes: Type.Integer({
      minimum: 1024,
      default: 1024 * 1024,
      ...setting({
        env: 'KIKITORI_LIVE_MAX_FRAME_BYTES',
        description: 'largest WebSocket message a live client may send (base64 audio included), in bytes',
      }),
    }),
  }),
  signing: Type.Object({
    secret: Type.Optional(
      Type.String({
        ...setting({
          env: 'KIKITORI_SIGNING_SECRET',
          description: 'HMAC secret for signed URLs',
          defaultText: 'random, kept in DATA_DIR/signing.key',
          secret: true,
        }),
      }),
    ),
  }),
  engines: Type.Object({
    default: Type.Enum(ENGINE_CHOICES, {
      default: 'auto',
      ...setting({
        env: 'KIKITORI_ENGINE_DEFAULT',
        description:
          'engine for transcription_model "default"; auto: whisper with the best installed model, else pocketsphinx',
      }),
    }),
    diarizationHigh: Type.Enum(ENGINE_CHOICES, {
      ...setting({
        env: 'KIKITORI_ENGINE_DIARIZATION_HIGH',
        description: 'engine for transcription_model "diarization-high"',
        defaultText: 'same as KIKITORI_ENGINE_DEFAULT',
      }),
    }),
    speakers: Type.Enum(['embedded', 'none'], {
      default: 'embedded',
      ...setting({ env: 'KIKITORI_SPEAKER_ENGINE', description: 'speaker separation' }),
    }),
    pocketsphinx: Type.Object({
      library: Type.Optional(
        Type.String({
          ...setting({
            env: 'KIKITORI_POCKETSPHINX_LIBRARY',
            description:
              'the libpocketsphinx shared library to load (libsphinxbase is taken from the same folder when it is there)',
            defaultText: 'libpocketsphinx.so.3 from the system library path',
          }),
        }),
      ),
      modelDir: Type.Optional(
        Type.String({
          ...setting({
            env: 'KIKITORI_POCKETSPHINX_MODEL_DIR',
            description: 'pocketsphinx model directory',
            defaultText: '/usr/share/pocketsphinx/model/en-us',
          }),
        }),
      ),
    }),
    whisper: Type.Object({
      model: Type.Optional(
        Type.String({
          ...setting({
            env: 'KIKITORI_WHISPER_MODEL',
            description: 'a ggml file path or a catalogue name',
            defaultText: 'best model in DATA_DIR/models',
          }),
        }),
      ),
      threads: Type.Optional(
        Type.Integer({
          minimum: 1,
          ...setting({
            env: 'KIKITORI_WHISPER_THREADS',
            description: 'CPU threads per transcription',
            defaultText: 'half the cores',
          }),
        }),
      ),
      beamSize: Type.Optional(
        Type.Integer({
          minimum: 1,
          ...setting({ env: 'KIKITORI_WHISPER_BEAM_SIZE', description: 'beam search width', defaultText: 'greedy' }),
        }),
      ),
    }),
    // Checked by the engine when it is used, not here: a server whose remote engine is misconfigured
    // still starts and serves the other engines, and `kikitori-server engines` says what is wrong.
    remote: Type.Object({
      baseUrl: Type.Optional(
        Type.String({
          ...setting({
            env: 'KIKITORI_REMOTE_ASR_BASE_URL',
            description: 'OpenAI-compatible base URL before /audio/transcriptions',
          }),
        }),
      ),
      apiKey: Type.Optional(
        Type.String({
          ...setting({
            env: 'KIKITORI_REMOTE_ASR_API_KEY',
            description: 'bearer key of the remote service',
            secret: true,
          }),
        }),
      ),
      model: Type.Optional(
        Type.String({
          ...setting({ env: 'KIKITORI_REMOTE_ASR_MODEL', description: 'model name', defaultText: 'whisper-1' }),
        }),
      ),
      languages: Type.Optional(
        Type.Array(Type.String(), {
          ...setting({
            env: 'KIKITORI_REMOTE_ASR_LANGUAGES',
            description: 'comma-separated languages the service recognizes',
            defaultText: "whisper's languages",
          }),
        }),
      ),
      timeoutMs: Type.Optional(
        Type.Integer({
          minimum: 1,
          ...setting({
            env: 'KIKITORI_REMOTE_ASR_TIMEOUT_MS',
            description: 'per-request limit in milliseconds',
            defaultText: '30 minutes',
          }),
        }),
      ),
    }),
  }),
  // Where ffmpeg and ffprobe come from: this path, else the command on PATH, else the binary bundled
  // through npm (engines/audio/ffmpeg-tools.ts, decision 0015).
  audio: Type.Object({
    maxSeconds: Type.Integer({
      minimum: 1,
      default: 12 * 3600,
      ...setting({ env: 'KIKITORI_MAX_AUDIO_SECONDS', description: 'longest recording transcribed, in seconds' }),
    }),
    ffmpegPath: Type.Optional(
      Type.String({
        ...setting({
          env: 'KIKITORI_FFMPEG_PATH',
          description: 'the ffmpeg program that decodes uploads',
          defaultText: 'ffmpeg on PATH, else the bundled one',
          resolvePath: true,
        }),
      }),
    ),
    ffprobePath: Type.Optional(
      Type.String({
        ...setting({
          env: 'KIKITORI_FFPROBE_PATH',
          description: 'the ffprobe program that inspects uploads',
          defaultText: 'ffprobe on PATH, else the bundled one',
          resolvePath: true,
        }),
      }),
    ),
  }),
  models: Type.Object({
    /** Downloads of catalogue models come from `${baseUrl}/${file}`. */
    baseUrl: Type.String({
      pattern: HTTP_URL,
      default: DEFAULT_MODEL_BASE_URL,
      ...setting({
        env: 'KIKITORI_MODEL_BASE_URL',
        description: 'where model downloads fetch the whisper.cpp ggml files (a mirror)',
        expect: 'an http(s) URL',
      }),
    }),
    /** A JSON file that replaces the built-in catalogue (checked when the server or a `models` command starts). */
    catalog: Type.Optional(
      Type.String({
        ...setting({
          env: 'KIKITORI_MODEL_CATALOG',
          description: 'JSON file that replaces the model catalogue',
          defaultText: 'the official whisper.cpp models',
          resolvePath: true,
        }),
      }),
    ),
  }),
  analysis: Type.Object({
    llm: Type.Object({
      baseUrl: Type.Optional(
        Type.String({
          pattern: HTTP_URL,
          ...setting({
            env: 'KIKITORI_LLM_BASE_URL',
            description: 'OpenAI-compatible chat endpoint, including the API prefix',
            expect: 'an http(s) URL',
          }),
        }),
      ),
      model: Type.Optional(
        Type.String({
          ...setting({ env: 'KIKITORI_LLM_MODEL', description: 'chat model name (required with a base URL)' }),
        }),
      ),
      apiKey: Type.Optional(
        Type.String({
          ...setting({ env: 'KIKITORI_LLM_API_KEY', description: 'bearer key of the chat endpoint', secret: true }),
        }),
      ),
    }),
    summary: Type.Enum(ANALYSIS_PREFERENCES, {
      ...setting({
        env: 'KIKITORI_SUMMARY_ENGINE',
        description: 'which summary engine comes first',
        defaultText: 'llm when an endpoint is configured, else local',
      }),
    }),
    emotion: Type.Enum(ANALYSIS_PREFERENCES, {
      ...setting({
        env: 'KIKITORI_EMOTION_ENGINE',
        description: 'which emotion engine comes first',
        defaultText: 'llm when an endpoint is configured, else local',
      }),
    }),
    translation: Type.Enum(ANALYSIS_PREFERENCES, {
      ...setting({
        env: 'KIKITORI_TRANSLATION_ENGINE',
        description: 'which translation engine comes first',
        defaultText: 'llm when an endpoint is configured, else local',
      }),
    }),
  }),
});

export type ServerConfig = Static<typeof ServerConfigSchema> & {
  /** Items per page on list operations (PAGE_SIZE). */
  readonly pageSize: number;
};
export type EnginesConfig = ServerConfig['engines'];
export type AnalysisConfig = ServerConfig['analysis'];
export type LlmConfig = AnalysisConfig['llm'];
export type SigningConfig = ServerConfig['signing'];
export type ModelsConfig = ServerConfig['models'];
export type AudioConfig = ServerConfig['audio'];
export type RateLimitsConfig = ServerConfig['rateLimits'];
export type DatabaseConfig = ServerConfig['database'];
export type StorageConfig = ServerConfig['storage'];
export type LiveConfig = ServerConfig['live'];

/** One declared setting, found by walking the schema. */
export interface SettingInfo extends SettingMeta {
  /** Dot path in ServerConfig, e.g. "engines.whisper.threads". */
  path: string;
  schema: TSchema;
}

function collectSettings(schema: TSchema, prefix: string, out: SettingInfo[]): SettingInfo[] {
  const meta = (schema as { 'x-setting'?: SettingMeta })['x-setting'];
  if (meta) {
    out.push({ ...meta, path: prefix, schema });
    return out;
  }
  for (const [key, child] of Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {})) {
    collectSettings(child, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

/** Every setting, in declaration order. */
export const CONFIG_SETTINGS: readonly SettingInfo[] = collectSettings(ServerConfigSchema, '', []);

/** How errors name a setting: its flag and variable when it has a flag, since either may have set it. */
const settingName = (s: SettingInfo) => (s.flag ? `${s.flag.slice(2)} (${s.flag} / ${s.env})` : s.env);

const envOf = (settingPath: string) => CONFIG_SETTINGS.find((s) => s.path === settingPath)!.env;

export type Env = Readonly<Record<string, string | undefined>>;
/** Parsed CLI options as commander names them (`--data-dir` -> dataDir). */
export type ConfigFlags = Readonly<Record<string, unknown>>;

const flagKey = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function enumValues(schema: TSchema): readonly string[] | undefined {
  return (schema as { enum?: string[] }).enum;
}

function describeDefault(s: SettingInfo): string | undefined {
  const value = (s.schema as { default?: unknown }).default;
  if (s.defaultText !== undefined) return s.defaultText;
  return value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}

function parseSetting(s: SettingInfo, raw: string, source: string): unknown {
  const shown = s.secret ? 'the value given' : `"${raw}"`;
  const fix = (what: string) => {
    const fallback = describeDefault(s);
    return new ConfigError(
      `${source} must be ${what}; got ${shown}. Fix it${fallback === undefined ? ', or unset it' : `, or unset it to use the default (${fallback})`}.`,
    );
  };
  const schema = s.schema as { type?: string; minimum?: number; maximum?: number; anyOf?: TSchema[] };
  let value: unknown;
  if (schema.type === 'integer') {
    const text = raw.trim();
    const range =
      schema.maximum !== undefined
        ? ` from ${schema.minimum} to ${schema.maximum}`
        : schema.minimum !== undefined
          ? ` of ${schema.minimum} or more`
          : '';
    if (!/^\d+$/.test(text)) throw fix(`a whole number${range}`);
    value = Number(text);
    if (!Value.Check(s.schema, value)) throw fix(`a whole number${range}`);
    return value;
  }
  const values = enumValues(s.schema);
  if (values) {
    value = raw.trim().toLowerCase();
    if (!values.includes(value as string)) throw fix(`one of ${values.join(', ')}`);
    return value;
  }
  if (schema.type === 'array')
    return raw
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
  value = raw;
  const check = schema.anyOf
    ? schema.anyOf.find((member) => (member as { type?: string }).type === 'string')!
    : s.schema;
  if (!Value.Check(check, value)) throw fix(s.expect ?? 'a valid value');
  // URLs are joined with paths later: one form, without trailing slashes.
  return (check as { pattern?: string }).pattern === HTTP_URL ? (value as string).replace(/\/+$/, '') : value;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  const parent = keys.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, target);
  parent[keys.at(-1)!] = value;
}

/**
 * Reads every setting from the CLI flags (which win) and the environment. Empty values count as
 * unset. Throws ConfigError on the first bad setting.
 */
export function loadConfig(flags: ConfigFlags, env: Env): ServerConfig {
  const config: Record<string, unknown> = {};
  // Every section exists even when all its settings are unset, so consumers never test for one.
  for (const s of CONFIG_SETTINGS) {
    let node = config;
    for (const key of s.path.split('.').slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  }
  for (const s of CONFIG_SETTINGS) {
    const flagValue = s.flag === undefined ? undefined : flags[flagKey(s.flag)];
    const fromFlag = (typeof flagValue === 'string' || typeof flagValue === 'number') && String(flagValue) !== '';
    const raw = fromFlag ? String(flagValue) : env[s.env];
    let value: unknown;
    if (raw !== undefined && raw.trim() !== '') value = parseSetting(s, raw, settingName(s));
    else value = (s.schema as { default?: unknown }).default;
    if (value !== undefined) setPath(config, s.path, s.resolvePath ? path.resolve(value as string) : value);
  }
  const typed = config as Static<typeof ServerConfigSchema>;
  resolveDerived(typed);
  if (!Value.Check(ServerConfigSchema, typed)) {
    const first = [...Value.Errors(ServerConfigSchema, typed)][0];
    // Every leaf was parsed above, so this is a mistake in the schema, not in the operator's settings.
    throw new Error(`configuration does not match its schema at ${first?.instancePath}: ${first?.message}`);
  }
  return { ...typed, pageSize: PAGE_SIZE };
}

/** Defaults that depend on other settings, and rules that span several. */
function resolveDerived(config: Static<typeof ServerConfigSchema>): void {
  const secret = config.signing.secret;
  // HMAC-SHA256 is as strong as its key up to 32 bytes; a shorter secret can be guessed offline from one signed URL.
  if (secret !== undefined && Buffer.byteLength(secret, 'utf8') < MIN_SIGNING_SECRET_BYTES) {
    throw new ConfigError(
      `${envOf('signing.secret')} must be at least ${MIN_SIGNING_SECRET_BYTES} bytes; the value given has ${Buffer.byteLength(secret, 'utf8')}. ` +
        `Generate one with \`openssl rand -base64 48\`, or unset it to use a random key kept in DATA_DIR/signing.key.`,
    );
  }

  const engines = config.engines as { default: EngineChoice; diarizationHigh?: EngineChoice };
  engines.diarizationHigh ??= engines.default;

  const analysis = config.analysis as Partial<Record<'summary' | 'emotion' | 'translation', 'llm' | 'local'>> & {
    llm: LlmConfig;
  };
  const llm = analysis.llm;
  const [baseUrlEnv, modelEnv] = [envOf('analysis.llm.baseUrl'), envOf('analysis.llm.model')];
  if (llm.baseUrl !== undefined && llm.model === undefined) {
    throw new ConfigError(
      `${modelEnv} is required when ${baseUrlEnv} is set: name the chat model, e.g. ${modelEnv}=llama3.1:8b.`,
    );
  }
  const llmConfigured = llm.baseUrl !== undefined;
  for (const key of ['summary', 'emotion', 'translation'] as const) {
    const variable = envOf(`analysis.${key}`);
    if (analysis[key] === 'llm' && !llmConfigured) {
      throw new ConfigError(
        `${variable}=llm needs ${baseUrlEnv} and ${modelEnv}: configure an LLM endpoint, or set ${variable}=local.`,
      );
    }
    analysis[key] ??= llmConfigured ? 'llm' : 'local';
  }
}

/** The configuration with secrets replaced, for logs and diagnostics. */
export function redactConfig(config: ServerConfig): ServerConfig {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const s of CONFIG_SETTINGS.filter((setting) => setting.secret)) {
    const keys = s.path.split('.');
    const parent = keys
      .slice(0, -1)
      .reduce<Record<string, unknown> | undefined>(
        (node, key) => node?.[key] as Record<string, unknown> | undefined,
        copy,
      );
    const leaf = keys.at(-1)!;
    if (parent && parent[leaf] !== undefined && parent[leaf] !== null) parent[leaf] = '[redacted]';
  }
  return copy as unknown as ServerConfig;
}

/** The setting behind a CLI flag, so commands declare their options from the schema. */
export function settingForFlag(flag: string): SettingInfo {
  const found = CONFIG_SETTINGS.find((s) => s.flag === flag);
  if (!found) throw new Error(`no setting has the flag ${flag}`);
  return found;
}
