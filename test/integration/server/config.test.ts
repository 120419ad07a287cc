// The configuration loader: one schema, defaults, environment, flags over environment, clear errors,
// secrets kept out of logs, and the README documenting every variable.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_SETTINGS,
  ConfigError,
  DEFAULT_MODEL_BASE_URL,
  loadConfig,
  redactConfig,
} from '../../../src-server/config.js';
import { createAnalysisEngines } from '../../../src-server/engines/analysis-setup.js';
import { createEngineRegistry } from '../../../src-server/engines/engine-setup.js';
import { cli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const failure = (run: () => unknown): ConfigError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('gives every setting its default, in one nested shape', () => {
    expect(loadConfig({}, {})).toEqual({
      server: {
        host: '127.0.0.1',
        port: 8080,
        role: 'all',
        drainSeconds: 30,
        publicUrl: null,
        headersTimeoutSeconds: 30,
        idleTimeoutSeconds: 120,
        requestTimeoutSeconds: 86_400,
      },
      rateLimits: { perKey: 600, perIp: 1200 },
      disk: { minFreeBytes: 256 * 1024 ** 2 },
      database: { url: null },
      storage: { url: null, s3Endpoint: null },
      dataDir: path.resolve('./kikitori-data'),
      log: { level: 'info', flushSeconds: 2 },
      uploads: { maxBytes: 4 * 1024 ** 3, urlTtlSeconds: 86_400, maxOpenPerTeam: 20 },
      voices: { maxPerTeam: 100 },
      downloads: { urlTtlSeconds: 21_600 },
      jobs: { concurrency: 1, staleAfterMs: 60_000, retentionDays: 7 },
      openai: { maxWaiting: 8 },
      live: {
        maxSessions: 4,
        maxSessionsPerKey: 2,
        maxSessionSeconds: 10_800,
        idleTimeoutSeconds: 60,
        maxFrameBytes: 1_048_576,
      },
      signing: {},
      engines: {
        default: 'auto',
        diarizationHigh: 'auto',
        speakers: 'embedded',
        pocketsphinx: {},
        whisper: {},
        remote: {},
      },
      audio: { maxSeconds: 43_200 },
      models: { baseUrl: DEFAULT_MODEL_BASE_URL },
      analysis: { llm: {}, summary: 'local', emotion: 'local', translation: 'local' },
      pageSize: 20,
    });
  });

  it('reads every variable into its section', () => {
    const config = loadConfig(
      {},
      {
        KIKITORI_HOST: '0.0.0.0',
        KIKITORI_PORT: '9000',
        KIKITORI_DATA_DIR: '/srv/kikitori',
        KIKITORI_PUBLIC_URL: 'https://kikitori.example.com//',
        KIKITORI_LOG_LEVEL: 'WARN',
        KIKITORI_LOG_FLUSH_SECONDS: '5',
        KIKITORI_MAX_UPLOAD_BYTES: '1000',
        KIKITORI_UPLOAD_URL_TTL: '60',
        KIKITORI_DOWNLOAD_URL_TTL: '120',
        KIKITORI_JOB_CONCURRENCY: '3',
        KIKITORI_JOB_STALE_AFTER_MS: '5000',
        KIKITORI_SIGNING_SECRET: 'shared-secret-of-at-least-32-bytes',
        KIKITORI_ENGINE_DEFAULT: ' Whisper ',
        KIKITORI_SPEAKER_ENGINE: 'none',
        KIKITORI_POCKETSPHINX_MODEL_DIR: '/opt/ps',
        KIKITORI_POCKETSPHINX_LIBRARY: '/opt/ps/lib/libpocketsphinx.so.3',
        KIKITORI_FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg',
        KIKITORI_FFPROBE_PATH: '/opt/ffmpeg/bin/ffprobe',
        KIKITORI_WHISPER_MODEL: 'small',
        KIKITORI_WHISPER_THREADS: '2',
        KIKITORI_WHISPER_BEAM_SIZE: '5',
        KIKITORI_REMOTE_ASR_BASE_URL: 'http://gpu-box:8000/v1',
        KIKITORI_REMOTE_ASR_API_KEY: 'sk-remote',
        KIKITORI_REMOTE_ASR_MODEL: 'large-v3',
        KIKITORI_REMOTE_ASR_LANGUAGES: 'EN, ja,,es',
        KIKITORI_REMOTE_ASR_TIMEOUT_MS: '60000',
        KIKITORI_MODEL_BASE_URL: 'http://mirror.local/whisper/',
        KIKITORI_MODEL_CATALOG: '/etc/kikitori/models.json',
        KIKITORI_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
        KIKITORI_LLM_MODEL: 'llama3.1:8b',
        KIKITORI_LLM_API_KEY: 'sk-llm',
        KIKITORI_TRANSLATION_ENGINE: 'local',
        KIKITORI_HEADERS_TIMEOUT: '10',
        KIKITORI_IDLE_TIMEOUT: '30',
        KIKITORI_REQUEST_TIMEOUT: '0',
        KIKITORI_RATE_LIMIT_PER_KEY: '60',
        KIKITORI_RATE_LIMIT_PER_IP: '0',
        KIKITORI_MIN_FREE_DISK_BYTES: '1000000',
        KIKITORI_TEAM_QUOTA_BYTES: '5000000000',
        KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM: '5',
        KIKITORI_MAX_AUDIO_SECONDS: '3600',
        KIKITORI_JOB_RETENTION_DAYS: '30',
        KIKITORI_OPENAI_MAX_WAITING: '2',
        KIKITORI_LIVE_MAX_SESSIONS: '8',
        KIKITORI_LIVE_MAX_SESSIONS_PER_KEY: '3',
        KIKITORI_LIVE_MAX_SESSION_SECONDS: '600',
        KIKITORI_LIVE_IDLE_TIMEOUT: '15',
        KIKITORI_LIVE_MAX_FRAME_BYTES: '65536',
        KIKITORI_ROLE: 'worker',
        KIKITORI_DATABASE_URL: 'postgres://kikitori:pw@db:5432/kikitori',
        KIKITORI_STORAGE_URL: 's3://audio/team-a',
        KIKITORI_S3_ENDPOINT: 'http://minio:9000',
      },
    );
    expect(config).toMatchObject({
      server: {
        host: '0.0.0.0',
        port: 9000,
        role: 'worker',
        publicUrl: 'https://kikitori.example.com',
        headersTimeoutSeconds: 10,
        idleTimeoutSeconds: 30,
        requestTimeoutSeconds: 0,
      },
      rateLimits: { perKey: 60, perIp: 0 },
      disk: { minFreeBytes: 1_000_000 },
      database: { url: 'postgres://kikitori:pw@db:5432/kikitori' },
      storage: { url: 's3://audio/team-a', s3Endpoint: 'http://minio:9000' },
      dataDir: '/srv/kikitori',
      log: { level: 'warn', flushSeconds: 5 },
      uploads: { maxBytes: 1000, urlTtlSeconds: 60, teamQuotaBytes: 5_000_000_000, maxOpenPerTeam: 5 },
      downloads: { urlTtlSeconds: 120 },
      jobs: { concurrency: 3, staleAfterMs: 5000, retentionDays: 30 },
      openai: { maxWaiting: 2 },
      live: {
        maxSessions: 8,
        maxSessionsPerKey: 3,
        maxSessionSeconds: 600,
        idleTimeoutSeconds: 15,
        maxFrameBytes: 65_536,
      },
      signing: { secret: 'shared-secret-of-at-least-32-bytes' },
      engines: {
        default: 'whisper',
        diarizationHigh: 'whisper',
        speakers: 'none',
        pocketsphinx: { modelDir: '/opt/ps', library: '/opt/ps/lib/libpocketsphinx.so.3' },
        whisper: { model: 'small', threads: 2, beamSize: 5 },
        remote: {
          baseUrl: 'http://gpu-box:8000/v1',
          apiKey: 'sk-remote',
          model: 'large-v3',
          languages: ['en', 'ja', 'es'],
          timeoutMs: 60_000,
        },
      },
      audio: { ffmpegPath: '/opt/ffmpeg/bin/ffmpeg', ffprobePath: '/opt/ffmpeg/bin/ffprobe', maxSeconds: 3600 },
      models: { baseUrl: 'http://mirror.local/whisper', catalog: '/etc/kikitori/models.json' },
      analysis: {
        llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b', apiKey: 'sk-llm' },
        summary: 'llm',
        emotion: 'llm',
        translation: 'local',
      },
    });
  });

  it('lets flags win over the environment, and treats empty values as unset', () => {
    const env = {
      KIKITORI_HOST: '0.0.0.0',
      KIKITORI_PORT: '9000',
      KIKITORI_DATA_DIR: '/from/env',
      KIKITORI_JOB_CONCURRENCY: '',
    };
    expect(loadConfig({ host: '::1', port: 0, dataDir: 'relative' }, env)).toMatchObject({
      server: { host: '::1', port: 0 },
      dataDir: path.resolve('relative'),
      jobs: { concurrency: 1 },
    });
    expect(loadConfig({ port: '' }, env).server.port).toBe(9000);
    // Options that are not settings (commander's --json, --team...) are ignored.
    expect(loadConfig({ json: true, team: 'acme', role: ['DELETE'] }, {}).server.port).toBe(8080);
  });

  it('derives the diarization-high engine and the analysis order from other settings', () => {
    expect(loadConfig({}, { KIKITORI_ENGINE_DEFAULT: 'remote' }).engines.diarizationHigh).toBe('remote');
    expect(
      loadConfig({}, { KIKITORI_ENGINE_DEFAULT: 'remote', KIKITORI_ENGINE_DIARIZATION_HIGH: 'pocketsphinx' }).engines,
    ).toMatchObject({ default: 'remote', diarizationHigh: 'pocketsphinx' });
    expect(loadConfig({}, { KIKITORI_SUMMARY_ENGINE: 'local' }).analysis.summary).toBe('local');
  });

  it('fails fast, naming the variable or flag, what is expected and how to fix it', () => {
    expect(failure(() => loadConfig({}, { KIKITORI_PORT: 'abc' })).message).toBe(
      'port (--port / KIKITORI_PORT) must be a whole number from 0 to 65535; got "abc". Fix it, or unset it to use the default (8080).',
    );
    expect(failure(() => loadConfig({ port: '70000' }, {})).message).toMatch(
      /^port \(--port \/ KIKITORI_PORT\) must be a whole number from 0 to 65535; got "70000"/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_PORT: '-1' })).message).toMatch(
      /KIKITORI_PORT\) must be a whole number from 0 to 65535; got "-1"/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_JOB_STALE_AFTER_MS: '999' })).message).toMatch(
      /KIKITORI_JOB_STALE_AFTER_MS must be a whole number of 1000 or more; got "999"/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_MAX_UPLOAD_BYTES: '1.5' })).message).toMatch(
      /KIKITORI_MAX_UPLOAD_BYTES must be a whole number of 1 or more/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_WHISPER_THREADS: '0' })).message).toMatch(
      /KIKITORI_WHISPER_THREADS must be a whole number of 1 or more; got "0". Fix it, or unset it to use the default \(half the cores\)/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_ENGINE_DEFAULT: 'wisper' })).message).toMatch(
      /KIKITORI_ENGINE_DEFAULT must be one of pocketsphinx, whisper, remote, auto; got "wisper"/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_SPEAKER_ENGINE: 'pyannote' })).message).toMatch(
      /KIKITORI_SPEAKER_ENGINE must be one of embedded, none/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_LOG_LEVEL: 'loud' })).message).toMatch(
      /KIKITORI_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_PUBLIC_URL: 'kikitori.example.com' })).message).toMatch(
      /KIKITORI_PUBLIC_URL must be an http\(s\) URL/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_MODEL_BASE_URL: 'ftp://mirror' })).message).toMatch(
      /KIKITORI_MODEL_BASE_URL must be an http\(s\) URL/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_LLM_BASE_URL: 'localhost:11434' })).message).toMatch(
      /KIKITORI_LLM_BASE_URL must be an http\(s\) URL/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).message).toMatch(
      /KIKITORI_LLM_MODEL is required when KIKITORI_LLM_BASE_URL is set/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_EMOTION_ENGINE: 'llm' })).message).toMatch(
      /KIKITORI_EMOTION_ENGINE=llm needs KIKITORI_LLM_BASE_URL and KIKITORI_LLM_MODEL.*KIKITORI_EMOTION_ENGINE=local/,
    );
    expect(failure(() => loadConfig({}, { KIKITORI_TRANSLATION_ENGINE: 'cloud' })).message).toMatch(
      /KIKITORI_TRANSLATION_ENGINE must be one of llm, local/,
    );
  });

  it('refuses a signing secret shorter than 32 bytes, counting bytes rather than characters', () => {
    const short = failure(() => loadConfig({}, { KIKITORI_SIGNING_SECRET: 'x'.repeat(31) }));
    expect(short).toBeInstanceOf(ConfigError);
    expect(short.message).toMatch(/KIKITORI_SIGNING_SECRET must be at least 32 bytes; the value given has 31/);
    expect(short.message).not.toContain('x'.repeat(31));
    expect(loadConfig({}, { KIKITORI_SIGNING_SECRET: 'x'.repeat(32) }).signing.secret).toBe('x'.repeat(32));
    // Eleven three-byte characters are 33 bytes.
    expect(loadConfig({}, { KIKITORI_SIGNING_SECRET: '聞'.repeat(11) }).signing.secret).toBe('聞'.repeat(11));
    expect(() => loadConfig({}, { KIKITORI_SIGNING_SECRET: '聞'.repeat(10) })).toThrow(ConfigError);
  });

  it('keeps secrets out of what it logs', () => {
    const config = loadConfig(
      {},
      {
        KIKITORI_SIGNING_SECRET: 's1'.repeat(16),
        KIKITORI_REMOTE_ASR_API_KEY: 's2',
        KIKITORI_LLM_BASE_URL: 'http://llm/v1',
        KIKITORI_LLM_MODEL: 'm',
        KIKITORI_LLM_API_KEY: 's3',
      },
    );
    const logged = JSON.stringify(redactConfig(config));
    expect(logged).not.toMatch(/"s[123]"/);
    expect(redactConfig(config)).toMatchObject({
      signing: { secret: '[redacted]' },
      engines: { remote: { apiKey: '[redacted]' } },
      analysis: { llm: { apiKey: '[redacted]', model: 'm' } },
    });
    expect(config.analysis.llm.apiKey).toBe('s3');
    expect(JSON.stringify(redactConfig(loadConfig({}, {})))).not.toMatch(/redacted/);
    expect(
      CONFIG_SETTINGS.filter((s) => s.secret)
        .map((s) => s.env)
        .sort(),
    ).toEqual([
      'KIKITORI_DATABASE_URL',
      'KIKITORI_LLM_API_KEY',
      'KIKITORI_REMOTE_ASR_API_KEY',
      'KIKITORI_SIGNING_SECRET',
    ]);
  });

  it('declares each variable and flag once, and README.md documents every one', () => {
    const envs = CONFIG_SETTINGS.map((s) => s.env);
    expect(new Set(envs).size).toBe(envs.length);
    expect(envs.length).toBeGreaterThanOrEqual(30);
    expect(envs.every((e) => /^KIKITORI_[A-Z0-9_]+$/.test(e))).toBe(true);
    expect(CONFIG_SETTINGS.filter((s) => s.flag).map((s) => s.flag)).toEqual([
      '--host',
      '--port',
      '--role',
      '--database-url',
      '--data-dir',
    ]);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(envs.filter((e) => !readme.includes(`\`${e}\``))).toEqual([]);
    for (const s of CONFIG_SETTINGS.filter((setting) => setting.flag)) expect(readme).toContain(`\`${s.flag}\``);
  });

  it('hands each consumer its section', () => {
    const config = loadConfig(
      {},
      {
        KIKITORI_ENGINE_DEFAULT: 'whisper',
        KIKITORI_ENGINE_DIARIZATION_HIGH: 'remote',
        KIKITORI_SPEAKER_ENGINE: 'none',
        KIKITORI_LLM_BASE_URL: 'http://llm/v1',
        KIKITORI_LLM_MODEL: 'm',
        KIKITORI_SUMMARY_ENGINE: 'local',
      },
    );
    const engines = createEngineRegistry(config.engines, { dataDir: config.dataDir });
    expect([...engines.speechEngines.keys()]).toEqual(['pocketsphinx', 'whisper', 'remote']);
    expect(engines.speechFor('default').name).toBe('whisper');
    expect(engines.speechFor('diarization-high').name).toBe('remote');
    expect(engines.speakers).toBeNull();
    const analysis = createAnalysisEngines(config.analysis);
    expect(analysis.summary.map((e) => e.name)).toEqual(['textrank', 'llm']);
    expect(analysis.emotion.map((e) => e.name)).toEqual(['llm', 'goemotions-linear']);
    expect(createAnalysisEngines(loadConfig({}, {}).analysis).translation.map((e) => e.name)).toEqual(['apertium']);
  });
});

describe('kikitori-server configuration errors', () => {
  it('stops with the flag or variable named, before doing anything', async () => {
    const dataDir = tempDir();
    try {
      const badFlag = await cli(['serve', '--port', '99999', '--data-dir', dataDir]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(badFlag).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          /^Configuration error: port \(--port \/ KIKITORI_PORT\) must be a whole number from 0 to 65535; got "99999"/,
        ),
      });
      const badEnv = await cli(['keys', 'list', '--data-dir', dataDir], {
        KIKITORI_LLM_BASE_URL: 'http://llm/v1',
      }).catch((e: { code: number; stderr: string }) => e);
      expect(badEnv).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^Configuration error: KIKITORI_LLM_MODEL is required/),
      });
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
