// Wires the embedded defaults (SQLite, file-system storage, SQLite job queue, local engines) into an
// AppContext, and runs the server's background duties. Used by the CLI and by tests.
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { AppContext } from './app-context.js';
import type { ServerConfig } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { KyselyAnalysisRepository } from './db/analysis-repository.js';
import { AnalysisService } from './domain/analysis-service.js';
import { createAnalysisEngines } from './engines/analysis-setup.js';
import type { AnalysisEngineRegistry } from './engines/analysis/analysis-registry.js';
import { analyzeEmotionJob } from './jobs/analyze-emotion.js';
import { summarizeJob } from './jobs/summarize.js';
import { translateJob } from './jobs/translate.js';
import { KyselyDictionaryRepository } from './db/dictionary-repository.js';
import { KyselyKeyRepository } from './db/key-repository.js';
import { KyselyReviewRepository } from './db/review-repository.js';
import { KyselyTranscriptionRepository } from './db/transcription-repository.js';
import { TranscriptionService } from './domain/transcription-service.js';
import { createEngineRegistry } from './engines/engine-setup.js';
import { configureAudioTools } from './engines/audio/ffmpeg-tools.js';
import type { EngineRegistry } from './engines/engine-registry.js';
import { SqliteJobQueue } from './jobs/sqlite-job-queue.js';
import { PgBossJobQueue } from './jobs/pg-boss-job-queue.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { Storage } from './storage/storage.js';
import { loadCatalogue } from './models/catalogue.js';
import { ModelManager } from './models/manager.js';
import { transcribeJob } from './jobs/transcribe.js';
import { openAiTranscribeJob } from './jobs/openai-transcribe.js';
import { inThreadReplacements, TranscriptionPipeline } from './domain/transcription-pipeline.js';
import { FfmpegDecodeStage } from './engines/audio/decode-stage.js';
import { speakerStage } from './engines/speakers/speaker-stage.js';
import { loadSigningSecret, UrlSigner } from './signing/url-signer.js';
import { FileSystemStorage } from './storage/file-system-storage.js';
import { parseStorageUrl, S3Storage } from './storage/s3-storage.js';
import { sweepTusUploads } from './http/routes/files/tus-upload.js';
import { statfsFreeSpace, type FreeSpaceReader } from './storage/free-space.js';
import { KyselyStorageUsageRepository } from './db/storage-usage-repository.js';

export interface ServerRuntime {
  ctx: AppContext;
  /** Every record's database (SQLite or PostgreSQL); tests query it through `db.kysely`. */
  db: Database;
  app: FastifyInstance;
  /** Starts jobs and the upload-expiry sweep, then listens. Resolves with the URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: Logger;
  engines?: EngineRegistry;
  analysisEngines?: AnalysisEngineRegistry;
  /** How often tickets never uploaded are checked for expiry. */
  sweepIntervalMs?: number;
  retryBaseMs?: number;
  /** Free disk space (tests stand in for a full disk here). */
  freeSpace?: FreeSpaceReader;
}

export async function createRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<ServerRuntime> {
  const logger = options.logger ?? pino({ level: config.log.level });
  configureAudioTools(config.audio);
  // A malformed KIKITORI_MODEL_CATALOG stops the start here, with a ConfigError naming it.
  const catalogue = loadCatalogue(config.models);
  const records = await openRecords(config, logger);
  const { database, transcriptions, dictionaries } = records;
  const storage = createStorage(config);
  const queue = createQueue(config, records, logger, options);
  const service = new TranscriptionService(transcriptions, dictionaries, storage, queue, config.uploads.urlTtlSeconds);
  const models = new ModelManager({ dataDir: config.dataDir, baseUrl: config.models.baseUrl, catalogue, logger });
  const engines = options.engines ?? createEngineRegistry(config.engines, { dataDir: config.dataDir, logger, installedModels: models });
  const analysisEngines = options.analysisEngines ?? createAnalysisEngines(config.analysis);
  const analyses = records.analyses;
  const freeSpace = options.freeSpace ?? statfsFreeSpace;
  const ctx: AppContext = {
    config,
    logger,
    keys: records.keys,
    dictionaries,
    transcriptions,
    reviews: records.reviews,
    service,
    storage,
    queue,
    signer: new UrlSigner(loadSigningSecret(config.dataDir, config.signing)),
    engines,
    analyses,
    analysisService: new AnalysisService(analyses, analysisEngines, queue),
    analysisEngines,
    models,
    freeSpace,
    storageUsage: records.storageUsage,
  };
  // The one pipeline, for transcriptions and the OpenAI route's jobs alike; both share the "speech" group's
  // concurrency. Forced replacements run on this thread for now (decision 0028: the worker-thread seam).
  const pipeline = new TranscriptionPipeline({
    decode: new FfmpegDecodeStage({ maxSeconds: config.audio.maxSeconds, minFreeBytes: config.disk.minFreeBytes, freeSpace }),
    replacements: inThreadReplacements,
    speakers: engines.speakers ? speakerStage(engines.speakers) : null,
  });
  const workDir = path.join(config.dataDir, 'work');
  queue.work('transcribe', { ...transcribeJob({ transcriptions, dictionaries, service, storage, engines, pipeline, workDir }), concurrency: config.jobs.concurrency });
  queue.work('openai-transcribe', { ...openAiTranscribeJob({ dictionaries, storage, engines, pipeline, workDir }), concurrency: config.jobs.concurrency });
  const analysisDeps = { transcriptions, analyses, service, engines: analysisEngines, reviews: ctx.reviews };
  // Analyses are short; two at once keeps a summary from waiting behind a long translation.
  queue.work('summarize', { ...summarizeJob(analysisDeps), concurrency: 2 });
  queue.work('analyze-emotion', { ...analyzeEmotionJob(analysisDeps), concurrency: 2 });
  queue.work('translate', { ...translateJob(analysisDeps), concurrency: 2 });
  const app = await buildApp(ctx);
  let sweep: NodeJS.Timeout | null = null;

  const sweepExpired = () =>
    service
      .cancelExpiredUploads()
      .then(async (n) => {
        if (n > 0) logger.info({ cancelled: n }, 'cancelled transcriptions whose upload URL expired unused');
        // Partial tus uploads of those (and of used or deleted tickets) go too.
        const partial = await sweepTusUploads(config.dataDir, transcriptions);
        if (partial > 0) logger.info({ removed: partial }, 'removed partial resumable uploads that can no longer complete');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'upload expiry sweep failed'));

  return {
    ctx,
    db: database,
    app,
    async listen() {
      await queue.start();
      await sweepExpired();
      sweep = setInterval(() => void sweepExpired(), options.sweepIntervalMs ?? 60_000);
      return app.listen({ host: config.server.host, port: config.server.port });
    },
    async close() {
      if (sweep) clearInterval(sweep);
      await app.close();
      await models.close();
      await queue.stop();
      await storage.close?.();
      await records.close();
    },
  };
}

// The three backends, each chosen by configuration. Every one has the embedded default (SQLite, files,
// the SQLite queue) and a cluster one (PostgreSQL, S3, pg-boss).

/** Every repository, on one database: SQLite in the data dir, or PostgreSQL when KIKITORI_DATABASE_URL names one. */
async function openRecords(config: ServerConfig, logger: Logger) {
  const database = await openDatabase(config, { onPoolError: (error) => logger.error({ err: error }, 'a PostgreSQL connection failed') });
  const db = database.kysely;
  return {
    database,
    transcriptions: new KyselyTranscriptionRepository(db),
    dictionaries: new KyselyDictionaryRepository(db),
    keys: new KyselyKeyRepository(db),
    reviews: new KyselyReviewRepository(db),
    analyses: new KyselyAnalysisRepository(db),
    storageUsage: new KyselyStorageUsageRepository(db),
    close: () => database.close(),
  };
}
type Records = Awaited<ReturnType<typeof openRecords>>;

/** Where audio and transcripts are kept. */
function createStorage(config: ServerConfig): Storage {
  if (!config.storage.url) return new FileSystemStorage(path.join(config.dataDir, 'storage'));
  const workDir = path.join(config.dataDir, 'work');
  fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
  // Region and credentials: the standard AWS variables and files, read by the SDK (decision 0030).
  return new S3Storage({
    ...parseStorageUrl(config.storage.url),
    endpoint: config.storage.s3Endpoint,
    // Per process: processes sharing a data dir never remove each other's copies.
    tmpDir: fs.mkdtempSync(path.join(workDir, 's3-')),
  });
}

/** The durable job queue: pg-boss on PostgreSQL (its own schema in the same database), else the records' SQLite. */
function createQueue(config: ServerConfig, records: Records, logger: Logger, options: RuntimeOptions): JobQueue {
  if (config.database.url) {
    return new PgBossJobQueue({
      connectionString: config.database.url,
      staleAfterMs: config.jobs.staleAfterMs,
      retentionMs: config.jobs.retentionDays * 24 * 3600_000,
      logger,
      retryBaseMs: options.retryBaseMs,
    });
  }
  const { sqlite } = records.database;
  if (!sqlite) throw new Error('Without KIKITORI_DATABASE_URL the records are on SQLite, where the queue keeps its jobs table.');
  return new SqliteJobQueue(sqlite, {
    staleAfterMs: config.jobs.staleAfterMs,
    retentionMs: config.jobs.retentionDays * 24 * 3600_000,
    logger,
    retryBaseMs: options.retryBaseMs,
  });
}
