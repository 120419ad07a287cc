// Everything that belongs to one server profile: its cache database and files, the API client, the
// upload queue, the poller and the services on top. Switching profiles stops one session and starts
// another; each keeps its own cache, so switching back is instant and offline-capable.
import os from 'node:os';
import path from 'node:path';
import type { ServerProfile } from '../src-shared/ipc-contract.js';
import { AnalysisService } from './analyses/analysis-service.js';
import { ApiClient, type ConnectionProvider } from './api-client/api-client.js';
import type { RetryPolicy } from '../src-shared/backoff.js';
import { openCacheStore, type CacheStore } from './cache/cache-store.js';
import { DictionaryService } from './dictionaries/dictionary-service.js';
import { VoiceService } from './voices/voice-service.js';
import { EditService } from './edits/edit-service.js';
import { ModelsService, type OfferMemory } from './models/models-service.js';
import type { MachineResources } from './models/recommended-model.js';
import type { NotificationEvent } from './notifications.js';
import type { EventSink } from './event-sink.js';
import { PeaksCache } from './peaks/peaks.js';
import { RecordingService } from './recordings/recording-service.js';
import { OpenTranscriptFollower } from './sync/open-transcript-follower.js';
import { DEFAULT_SYNC_INTERVALS, SyncEngine, type SyncIntervals } from './sync/sync-engine.js';
import { RerunService } from './transcripts/rerun-service.js';
import { TranscriptService } from './transcripts/transcript-service.js';
import { UploadManager } from './uploads/upload-manager.js';

export interface ProfileSessionOptions {
  profile: ServerProfile;
  /** This profile's directory: cache.sqlite, audio/, peaks/, recordings/. */
  dir: string;
  connection: ConnectionProvider;
  emit: EventSink;
  notify: (event: NotificationEvent) => void;
  syncIntervals?: Partial<SyncIntervals>;
  retry?: Partial<RetryPolicy>;
  uploadConcurrency?: number;
  /** For Settings → Speech recognition: this computer's resources, and where the first-run offer's dismissal is kept. */
  speech?: { machine: MachineResources; offer: OfferMemory; pollMs?: number };
}

export class ProfileSession {
  readonly profile: ServerProfile;
  readonly store: CacheStore;
  readonly client: ApiClient;
  readonly transcripts: TranscriptService;
  readonly edits: EditService;
  readonly analyses: AnalysisService;
  readonly dictionaries: DictionaryService;
  readonly voices: VoiceService;
  readonly uploads: UploadManager;
  readonly recordings: RecordingService;
  readonly reruns: RerunService;
  readonly sync: SyncEngine;
  /** Keeps the transcript open in the window up to the server's latest revision. */
  readonly follower: OpenTranscriptFollower;
  readonly peaks: PeaksCache;
  readonly models: ModelsService;
  /** Aborts long work (peaks, downloads) when the session stops. */
  private readonly lifetime = new AbortController();

  constructor(options: ProfileSessionOptions) {
    const { emit } = options;
    this.profile = options.profile;
    this.store = openCacheStore(path.join(options.dir, 'cache.sqlite'));
    // The poller hears about reachability from every request, whoever made it.
    let sync: SyncEngine | null = null;
    this.client = new ApiClient({
      connection: options.connection,
      retry: options.retry,
      // A request still finishing after stop() must not reach the poller, whose cache is closed by then.
      onReachability: (r) => {
        if (!this.lifetime.signal.aborted) sync?.setReachability(r);
      },
    });
    this.peaks = new PeaksCache(path.join(options.dir, 'peaks'));
    const changed = (ids: string[]) => emit('transcripts:changed', { ids });
    this.transcripts = new TranscriptService({
      store: this.store,
      client: this.client,
      audioDir: path.join(options.dir, 'audio'),
      onChanged: changed,
      onForget: (id) => void this.peaks.delete(id),
    });
    this.edits = new EditService({
      store: this.store,
      client: this.client,
      transcripts: this.transcripts,
      notify: options.notify,
      onChanged: changed,
      isOnline: () => this.sync.isOnline(),
    });
    this.analyses = new AnalysisService({
      store: this.store,
      client: this.client,
      onChanged: (id, kind, language) => emit('analysis:changed', { id, kind, language }),
    });
    this.dictionaries = new DictionaryService(this.store, this.client);
    this.voices = new VoiceService({
      store: this.store,
      client: this.client,
      transcripts: this.transcripts,
      edits: this.edits,
    });
    this.uploads = new UploadManager({
      uploads: this.store.uploads,
      client: this.client,
      concurrency: options.uploadConcurrency ?? 2,
      onChange: (job) => emit('uploads:changed', job),
      keepAudio: (id, file) => this.transcripts.keepUploadedAudio(id, file),
      onStarted: async (transcription, job) => {
        this.transcripts.record(transcription);
        this.sync.kick();
        // A recording is needed no more once its transcription has started with its own copy of the audio (decision 0027).
        if (this.transcripts.localAudio(transcription.transcription_id))
          await this.recordings.release(job.filePath).catch(() => {});
      },
      onReplacing: (replaced, transcription) => this.reruns.replaced(replaced, transcription.transcription_id),
    });
    this.recordings = new RecordingService({
      dir: path.join(options.dir, 'recordings'),
      uploads: this.uploads,
      repository: this.store.uploads,
      live: { connection: options.connection, onText: (text) => emit('recordings:live', text) },
    });
    this.reruns = new RerunService({
      store: this.store,
      transcripts: this.transcripts,
      uploads: this.uploads,
      client: this.client,
      kick: () => this.sync.kick(),
    });
    this.models = new ModelsService({
      client: this.client,
      profile: this.profile,
      emit,
      machine: options.speech?.machine ?? { totalMemoryBytes: os.totalmem(), cpuCount: os.availableParallelism() },
      offer: options.speech?.offer ?? sessionOnlyOffer(),
      signal: this.lifetime.signal,
      pollMs: options.speech?.pollMs,
    });
    this.sync = sync = new SyncEngine({
      profileId: this.profile.id,
      store: this.store,
      client: this.client,
      transcripts: this.transcripts,
      analyses: this.analyses,
      emit,
      notify: options.notify,
      intervals: options.syncIntervals,
      onOnline: () => {
        this.uploads.kick();
        this.edits.flush().catch(() => {});
        this.follower.kick();
      },
    });
    this.follower = new OpenTranscriptFollower({
      transcripts: this.transcripts,
      emit,
      isOnline: () => this.sync.isOnline(),
      intervals: { ...DEFAULT_SYNC_INTERVALS, ...options.syncIntervals },
    });
  }

  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  start(): void {
    this.uploads.start();
    this.sync.start();
  }

  async stop(): Promise<void> {
    this.lifetime.abort();
    this.recordings.endLive();
    await Promise.all([this.sync.stop(), this.uploads.stop(), this.follower.stop()]);
    this.store.close();
  }
}

/** Without a settings store (tests of other parts): the offer's dismissal lasts as long as the session. */
function sessionOnlyOffer(): OfferMemory {
  let dismissed = false;
  return { dismissed: () => dismissed, dismiss: () => void (dismissed = true) };
}
