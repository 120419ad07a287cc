// Wires the backends (SQLite or PostgreSQL, files or S3, the job queue) and the local engines into an
// AppContext, and runs the server's background duties. Used by the CLI and by tests. One wiring place
// for every role: HTTP with or without the jobs (createRuntime), and the jobs alone (createWorkerRuntime).
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { liveTranscriptionsOf } from './application/live-transcription.js';
import type { AppContext } from './app-context.js';
import type { ServerConfig } from './config.js';
import { watchChanges } from './db/change-watch.js';
import { openDatabase, type Database } from './db/database.js';
import { KyselyAnalysisRepository } from './db/analysis-repository.js';
import { AnalysisService } from './domain/analysis-service.js';
import { createAnalysisEngines } from './engines/analysis-setup.js';
import type { AnalysisEngineRegistry } from './engines/analysis/analysis-registry.js';
import { analyzeEmotionJob } from './jobs/analyze-emotion.js';
import { summarizeJob } from './jobs/summarize.js';
import { translateJob } from './jobs/translate.js';
import { applyReplacementsJob } from './jobs/apply-replacements.js';
import { KyselyDictionaryRepository } from './db/dictionary-repository.js';
import { KyselyVoiceRepository } from './db/voice-repository.js';
import { EmbeddingVoicePrints } from './engines/speakers/embedding-voice-prints.js';
import { KyselyKeyRepository } from './db/key-repository.js';
import { KyselyReviewRepository } from './db/review-repository.js';
import { KyselyRevisionRepository } from './db/revision-repository.js';
import { RevisionStore } from './domain/revision-store.js';
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
import { speakerModelManager } from './models/speaker-models.js';
import { ModelManager } from './models/manager.js';
import { transcribeJob } from './jobs/transcribe.js';
import { openAiTranscribeJob, sweepOpenAiLeftovers } from './jobs/openai-transcribe.js';
import { inThreadReplacements, TranscriptionPipeline } from './domain/transcription-pipeline.js';
import { PhoneticVocabularyStage } from './engines/vocabulary/phonetic-vocabulary-stage.js';
import { FfmpegDecodeStage } from './engines/audio/decode-stage.js';
import { mergeSpeakersByModel } from './engines/speakers/embedding-speaker-merge.js';
import { speakerStage } from './engines/speakers/speaker-stage.js';
import { WhisperEngine } from './engines/speech/whisper-engine.js';
import { loadSigningSecret, UrlSigner } from './signing/url-signer.js';
import { FileSystemStorage } from './storage/file-system-storage.js';
import { parseStorageUrl, S3Storage } from './storage/s3-storage.js';
import { sweepTusUploads } from './application/resumable-uploads.js';
import { statfsFreeSpace, type FreeSpaceReader } from './storage/free-space.js';
import { KyselyStorageUsageRepository } from './db/storage-usage-repository.js';
import { HealthMonitor } from './process/health.js';

export interface ServerRuntime {
  ctx: AppContext;
  /** Every record's database (SQLite or PostgreSQL); tests query it through `db.kysely`. */
  db: Database;
  app: FastifyInstance;
  /** Starts jobs (when this process runs them) and the upload-expiry sweep, then listens. Resolves with the URL. */
  listen(): Promise<string>;
  /**
   * SIGTERM: /readyz turns 503, running jobs get `graceMs` to finish (then go back to the queue), HTTP
   * closes once its in-flight requests have finished.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

/** A `worker` process: the jobs, no HTTP. */
export interface WorkerRuntime {
  ctx: WorkerContext;
  start(): Promise<void>;
  /** Takes no new job; lets running ones finish for up to `graceMs`, hands the rest back; then closes. */
  drain(graceMs: number): Promise<void>;
  /** Hands running jobs back at once, then closes. */
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
  /**
   * Whether this process runs the queue's jobs besides HTTP. The CLI's `api` and `all` roles say false
   * (`all` runs them in a worker process it supervises); in-process tests keep the default, true.
   */
  runJobs?: boolean;
}

/** What both kinds of process build: the backends, the engines and the services over them. */
async function wireCommon(config: ServerConfig, options: RuntimeOptions) {
  const logger = options.logger ?? pino({ level: config.log.level });
  configureAudioTools(config.audio);
  // A malformed KIKITORI_MODEL_CATALOG stops the start here, with a ConfigError naming it.
  const catalogue = loadCatalogue(config.models);
  const records = await openRecords(config, logger);
  const storage = createStorage(config);
  const queue = createQueue(config, records, logger, options);
  const revisions = new RevisionStore(records.revisions, storage, records.reviews);
  const service = new TranscriptionService(
    records.transcriptions,
    records.dictionaries,
    storage,
    queue,
    config.uploads.urlTtlSeconds,
    revisions,
  );
  const freeSpace = options.freeSpace ?? statfsFreeSpace;
  const models = new ModelManager({
    dataDir: config.dataDir,
    baseUrl: config.models.baseUrl,
    catalogue,
    logger,
    freeSpace,
    reserveBytes: config.disk.minFreeBytes,
  });
  const engines =
    options.engines ??
    createEngineRegistry(config.engines, { dataDir: config.dataDir, logger, installedModels: models });
  const analysisEngines = options.analysisEngines ?? createAnalysisEngines(config.analysis);
  // Each component's check is a real round trip to it: a read of a row and an object that do not exist.
  const health = new HealthMonitor(
    {
      database: async () => void (await records.transcriptions.get('healthz', 'healthz')),
      storage: async () => void (await storage.stat('healthz')),
      queue: async () => (queue.check ? queue.check() : undefined),
    },
    logger,
  );
  return { logger, records, storage, queue, service, revisions, models, engines, analysisEngines, freeSpace, health };
}
type Common = Awaited<ReturnType<typeof wireCommon>>;
export type WorkerContext = Common;

/** Voice prints by the installed speaker-embedding model, or the MFCC prints without one (decision 0097). */
export function voicePrints(
  config: ServerConfig,
  logger?: { warn(obj: object, message: string): void },
): EmbeddingVoicePrints {
  return new EmbeddingVoicePrints(
    speakerModelManager({ dataDir: config.dataDir, baseUrl: config.models.baseUrl, catalog: config.models.catalog }),
    undefined,
    logger,
  );
}

/** The transcription pipeline a worker runs with this configuration (bench:cluster runs it alone too, as a ceiling). */
export function transcriptionPipeline(
  config: ServerConfig,
  engines: EngineRegistry,
  freeSpace: FreeSpaceReader,
  logger?: { warn(obj: object, message: string): void },
): TranscriptionPipeline {
  // One instance: the voice stage and diarization-high's merge share the loaded speaker model (decision 0097).
  const voices = voicePrints(config, logger);
  return new TranscriptionPipeline({
    decode: new FfmpegDecodeStage({
      maxSeconds: config.audio.maxSeconds,
      minFreeBytes: config.disk.minFreeBytes,
      freeSpace,
    }),
    vocabulary: new PhoneticVocabularyStage(),
    replacements: inThreadReplacements,
    speakers: engines.speakers ? speakerStage(engines.speakers, mergeSpeakersByModel(voices)) : null,
    voices,
    // whisper names the language when the recognizer doubts it (decision 0070), if a multilingual model is there.
    languageIdentifier:
      [...engines.speechEngines.values()].find((e): e is WhisperEngine => e instanceof WhisperEngine) ?? null,
  });
}

/** What OpenAI requests cut short by a crash left in storage and the work dir (decision 0044); a failure is logged, not fatal. */
async function sweepOpenAi(config: ServerConfig, common: Common): Promise<void> {
  const { storage, queue, logger } = common;
  await sweepOpenAiLeftovers({ storage, queue, logger, workDir: path.join(config.dataDir, 'work') }).catch(
    (error: unknown) => logger.error({ err: error }, 'sweep of interrupted OpenAI requests failed'),
  );
}

/** Every job type, on this process's queue; it runs them once the queue starts. */
function registerJobs(config: ServerConfig, common: Common): void {
  const { records, queue, service, storage, engines, analysisEngines, freeSpace, logger } = common;
  const { transcriptions, dictionaries } = records;
  // The one pipeline, for transcriptions and the OpenAI route's jobs alike; both share the "speech" group's
  // concurrency. Forced replacements run on this thread, which is a worker process's, never the HTTP one's
  // (decision 0028; docs/deploy/README.md).
  const pipeline = transcriptionPipeline(config, engines, freeSpace, logger);
  const workDir = path.join(config.dataDir, 'work');
  queue.work('transcribe', {
    ...transcribeJob({
      transcriptions,
      dictionaries,
      voices: records.voices,
      service,
      storage,
      engines,
      pipeline,
      workDir,
    }),
    concurrency: config.jobs.concurrency,
  });
  queue.work('openai-transcribe', {
    ...openAiTranscribeJob({
      dictionaries,
      voices: records.voices,
      voicePrints: voicePrints(config, logger),
      storage,
      engines,
      pipeline,
      workDir,
    }),
    concurrency: config.jobs.concurrency,
  });
  const analysisDeps = {
    transcriptions,
    analyses: records.analyses,
    service,
    engines: analysisEngines,
  };
  // Analyses are short; two at once keeps a summary from waiting behind a long translation.
  queue.work('summarize', { ...summarizeJob(analysisDeps), concurrency: 2 });
  queue.work('analyze-emotion', { ...analyzeEmotionJob(analysisDeps), concurrency: 2 });
  queue.work('translate', { ...translateJob(analysisDeps), concurrency: 2 });
  queue.work('apply-replacements', { ...applyReplacementsJob({ service }), concurrency: 2 });
}

/** HTTP, and the jobs too unless `options.runJobs` is false. */
export async function createRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<ServerRuntime> {
  const common = await wireCommon(config, options);
  const { logger, records, storage, queue, service, models, engines, analysisEngines, freeSpace, health } = common;
  const { database, transcriptions, dictionaries } = records;
  const runJobs = options.runJobs ?? true;
  const analyses = records.analyses;
  const changes = await watchChanges(database, config.database.url, logger);
  const ctx: AppContext = {
    config,
    logger,
    keys: records.keys,
    dictionaries,
    voices: records.voices,
    voicePrints: voicePrints(config, logger),
    transcriptions,
    revisions: common.revisions,
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
    health,
    changes,
  };
  if (runJobs) registerJobs(config, common);
  const app = await buildApp(ctx);
  let sweep: NodeJS.Timeout | null = null;

  const sweepExpired = () =>
    service
      .cancelExpiredUploads()
      .then(async (n) => {
        if (n > 0) logger.info({ cancelled: n }, 'cancelled transcriptions whose upload URL expired unused');
        // Partial tus uploads of those (and of used or deleted tickets) go too.
        const partial = await sweepTusUploads(config.dataDir, records.storageUsage);
        if (partial > 0)
          logger.info({ removed: partial }, 'removed partial resumable uploads that can no longer complete');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'upload expiry sweep failed'));

  const shutDown = async (graceMs: number) => {
    if (sweep) clearInterval(sweep);
    // Live sessions first: new ones are refused from here, and a session that saves (decision 0063) stores
    // its audio and queues its transcription while the queue still takes jobs.
    await liveTranscriptionsOf(ctx).shutdown();
    // Then jobs (with their grace), while HTTP still answers: clients keep polling their transcriptions.
    await queue.stop({ graceMs });
    await app.close();
    await changes.close();
    await models.close();
    await storage.close?.();
    await records.close();
  };

  return {
    ctx,
    db: database,
    app,
    async listen() {
      await sweepOpenAi(config, common);
      if (runJobs) await queue.start();
      await sweepExpired();
      sweep = setInterval(() => void sweepExpired(), options.sweepIntervalMs ?? 60_000);
      const url = await app.listen({ host: config.server.host, port: config.server.port });
      health.markStarted();
      return url;
    },
    async drain(graceMs) {
      health.markDraining();
      await shutDown(graceMs);
    },
    close: () => shutDown(0),
  };
}

/** The `worker` role: the queue's jobs, no port. */
export async function createWorkerRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<WorkerRuntime> {
  const common = await wireCommon(config, options);
  registerJobs(config, common);
  const { queue, models, records } = common;
  const shutDown = async (graceMs: number) => {
    await queue.stop({ graceMs });
    await models.close();
    await common.storage.close?.();
    await records.close();
  };
  return {
    ctx: common,
    async start() {
      await sweepOpenAi(config, common);
      await queue.start();
      common.health.markStarted();
    },
    drain: (graceMs) => shutDown(graceMs),
    close: () => shutDown(0),
  };
}

// The three backends, each chosen by configuration. Every one has the embedded default (SQLite, files,
// the SQLite queue) and a cluster one (PostgreSQL, S3, pg-boss).

/** Every repository, on one database: SQLite in the data dir, or PostgreSQL when KIKITORI_DATABASE_URL names one. */
async function openRecords(config: ServerConfig, logger: Logger) {
  const database = await openDatabase(config, {
    onPoolError: (error) => logger.error({ err: error }, 'a PostgreSQL connection failed'),
  });
  const db = database.kysely;
  return {
    database,
    transcriptions: new KyselyTranscriptionRepository(db),
    dictionaries: new KyselyDictionaryRepository(db),
    voices: new KyselyVoiceRepository(db),
    keys: new KyselyKeyRepository(db),
    reviews: new KyselyReviewRepository(db),
    revisions: new KyselyRevisionRepository(db),
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
  if (!sqlite)
    throw new Error('Without KIKITORI_DATABASE_URL the records are on SQLite, where the queue keeps its jobs table.');
  return new SqliteJobQueue(sqlite, {
    staleAfterMs: config.jobs.staleAfterMs,
    retentionMs: config.jobs.retentionDays * 24 * 3600_000,
    logger,
    retryBaseMs: options.retryBaseMs,
  });
}
