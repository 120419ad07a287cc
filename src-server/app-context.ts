// Everything a route or job needs, built once by the CLI (or a test) and handed to buildApp().
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { AnalysisRepository } from './db/analysis-repository.js';
import type { AnalysisService } from './domain/analysis-service.js';
import type { AnalysisEngineRegistry } from './engines/analysis/analysis-registry.js';
import type { DictionaryRepository } from './db/dictionary-repository.js';
import type { VoiceRepository } from './db/voice-repository.js';
import type { VoicePrinter, VoiceRecognitionStage } from './domain/voice-prints.js';
import type { KeyRepository } from './db/key-repository.js';
import type { RevisionStore } from './domain/revision-store.js';
import type { TranscriptionRepository } from './db/transcription-repository.js';
import type { TranscriptionService } from './domain/transcription-service.js';
import type { EngineRegistry } from './engines/engine-registry.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { ModelManager } from './models/manager.js';
import type { UrlSigner } from './signing/url-signer.js';
import type { Storage } from './storage/storage.js';
import type { FreeSpaceReader } from './storage/free-space.js';
import type { StorageUsageRepository } from './db/storage-usage-repository.js';
import type { HealthMonitor } from './process/health.js';
import type { ChangeWatch } from './db/change-watch.js';

export interface AppContext {
  config: ServerConfig;
  logger: Logger;
  keys: KeyRepository;
  dictionaries: DictionaryRepository;
  /** The team voice library (decision 0065). */
  voices: VoiceRepository;
  /** Prints voice samples for the library, and recognizes enrolled voices in live turns. */
  voicePrints: VoicePrinter & VoiceRecognitionStage;
  transcriptions: TranscriptionRepository;
  /** A transcript's revisions: the one place that reads and writes them (decision 0052). */
  revisions: RevisionStore;
  service: TranscriptionService;
  storage: Storage;
  queue: JobQueue;
  signer: UrlSigner;
  engines: EngineRegistry;
  analyses: AnalysisRepository;
  analysisService: AnalysisService;
  analysisEngines: AnalysisEngineRegistry;
  /** Speech models: catalogue, downloads, what is installed. */
  models: ModelManager;
  /** Free disk space in the data dir (uploads and decoding keep a reserve). */
  freeSpace: FreeSpaceReader;
  /** Stored audio per team, for KIKITORI_TEAM_QUOTA_BYTES. */
  storageUsage: StorageUsageRepository;
  /** What /healthz and /readyz report. */
  health: HealthMonitor;
  /** Whether anything the hot caches hold may have changed (decision 0039); null: no such caching. */
  changes: ChangeWatch | null;
}
