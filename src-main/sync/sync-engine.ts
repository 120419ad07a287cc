// The background poller. It lives in main, so it keeps going while the window is hidden. While a
// transcription is CONVERTING/IN_PROGRESS (or an analysis IN_PROGRESS) it polls with backoff
// (1 s, doubling to 15 s, back to 1 s whenever something changed); otherwise it re-reads the whole list
// now and then. Completed transcripts are downloaded into the cache, the user is told when one ends,
// and an unreachable server flips the connection to offline while the cache keeps serving.
import { FINAL_TRANSCRIPTION_STATUSES } from '../../src-shared/api-types.js';
import type { ConnectionStatus, IpcError } from '../../src-shared/ipc-contract.js';
import { appError } from '../app-failure.js';
import type { AnalysisService } from '../analyses/analysis-service.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient, Reachability } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { TranscriptionChange } from '../cache/transcription-repository.js';
import type { NotificationEvent } from '../notifications.js';
import type { EventSink } from '../event-sink.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';
import { backoffDelay } from '../../src-shared/backoff.js';

export interface SyncIntervals {
  /** First delay between polls while something is processing, and after every change. */
  minMs: number;
  /** Longest delay between polls while something is processing. */
  maxMs: number;
  /** Delay between full list refreshes when nothing is processing. */
  idleMs: number;
  /** Longest delay between attempts while the server is unreachable. */
  offlineMaxMs: number;
  /**
   * First delay between checks of the transcript open in a visible window for a newer revision, and
   * after each change (open-transcript-follower.ts, decision 0056).
   */
  followMs: number;
  /** Longest delay between those checks while the transcript does not change. */
  followMaxMs: number;
}

export const DEFAULT_SYNC_INTERVALS: SyncIntervals = {
  minMs: 1_000,
  maxMs: 15_000,
  idleMs: 60_000,
  offlineMaxMs: 30_000,
  followMs: 2_000,
  followMaxMs: 8_000,
};

export interface SyncEngineOptions {
  profileId: string;
  store: CacheStore;
  client: ApiClient;
  transcripts: TranscriptService;
  analyses: AnalysisService;
  emit: EventSink;
  notify: (event: NotificationEvent) => void;
  intervals?: Partial<SyncIntervals>;
  /** Documents of older COMPLETED transcriptions fetched per poll, so they can be read offline. */
  backfillPerPoll?: number;
  /** The server answered again after being unreachable (flush the outbox, resume uploads). */
  onOnline?: () => void;
}

export class SyncEngine {
  private readonly intervals: SyncIntervals;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking: Promise<boolean> | null = null;
  private interval: number;
  /** Attempts since the server was last reachable: the retry backoff's step. */
  private offlineAttempts = 0;
  private lastFullAt = 0;
  private fullRequested = true;
  private online = false;
  private detail: IpcError | null = appError({ code: 'offline', reason: 'connecting' });
  private lastStatus = '';
  /** Documents that failed to download this session, not retried by the backfill. */
  private readonly backfillFailures = new Set<string>();

  constructor(private readonly options: SyncEngineOptions) {
    this.intervals = { ...DEFAULT_SYNC_INTERVALS, ...options.intervals };
    this.interval = this.intervals.minMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.fullRequested = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => {});
  }

  status(): ConnectionStatus {
    return {
      activeProfileId: this.options.profileId,
      online: this.online,
      detail: this.online ? null : this.detail,
      pending: this.options.store.transcriptions.processingIds().length,
    };
  }

  isOnline(): boolean {
    return this.online;
  }

  /** Re-reads everything now; resolves once done. */
  async refreshNow(): Promise<ConnectionStatus> {
    this.fullRequested = true;
    await this.runTick();
    return this.status();
  }

  /** Something started processing (an upload was accepted, an analysis requested): poll soon, quickly. */
  kick(): void {
    this.interval = this.intervals.minMs;
    if (this.running && !this.ticking) this.schedule(this.intervals.minMs);
  }

  /** Fed by the API client after every request. */
  setReachability(reachability: Reachability): void {
    const wasOnline = this.online;
    this.online = reachability.state === 'online';
    this.detail = reachability.state === 'online' ? null : reachability.detail;
    this.publishStatus();
    if (!wasOnline && this.online && this.running) {
      this.offlineAttempts = 0;
      this.fullRequested = true;
      this.options.onOnline?.();
      if (!this.ticking) this.schedule(0);
    }
  }

  private schedule(delay: number) {
    if (this.timer) clearTimeout(this.timer);
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runTick();
    }, delay);
    this.timer.unref?.();
  }

  private runTick(): Promise<boolean> {
    if (this.ticking) return this.ticking.then(() => this.runTick());
    this.ticking = this.tick()
      .catch(() => false)
      .finally(() => {
        this.ticking = null;
        this.scheduleNext();
      });
    return this.ticking;
  }

  private scheduleNext() {
    if (!this.running) return;
    if (!this.online) {
      this.schedule(
        backoffDelay(this.offlineAttempts++, {
          baseDelayMs: this.intervals.minMs,
          maxDelayMs: this.intervals.offlineMaxMs,
        }),
      );
      return;
    }
    const busy =
      this.options.store.transcriptions.processingIds().length > 0 ||
      this.options.store.analyses.inProgress().length > 0;
    if (busy) this.schedule(this.interval);
    else {
      this.fullRequested = true;
      this.schedule(Math.max(0, this.lastFullAt + this.intervals.idleMs - Date.now()));
    }
  }

  /** One poll. Returns true when something changed. */
  private async tick(): Promise<boolean> {
    const { store, client, transcripts } = this.options;
    const changedIds = new Set<string>();
    const full = this.fullRequested || Date.now() - this.lastFullAt >= this.intervals.idleMs;
    try {
      const snapshotAt = new Date().toISOString();
      let changes: TranscriptionChange[];
      if (full) {
        const all = await client.listAllTranscriptions();
        this.fullRequested = false;
        this.lastFullAt = Date.now();
        changes = store.transcriptions.upsertManyFromApi(all);
        const seen = new Set(all.map((t) => t.transcription_id));
        for (const id of store.transcriptions.allIds()) {
          // Records written after the list was read (an upload just accepted) are not deletions.
          const cached = store.transcriptions.get(id);
          if (!seen.has(id) && cached && cached.syncedAt < snapshotAt) {
            await transcripts.forget(id);
            changedIds.add(id);
          }
        }
      } else {
        const page = await client.listTranscriptions(1);
        changes = store.transcriptions.upsertManyFromApi(page);
        const seen = new Set(page.map((t) => t.transcription_id));
        for (const id of store.transcriptions.processingIds()) {
          if (seen.has(id)) continue;
          try {
            changes.push(store.transcriptions.upsertFromApi(await client.getTranscription(id)));
          } catch (error) {
            if (!(error instanceof ApiError && error.error.code === 'not-found')) throw error;
            await transcripts.forget(id);
            changedIds.add(id);
          }
        }
      }
      for (const change of changes) if (change.changed) changedIds.add(change.id);
      this.notifyEnded(changes);

      for (const change of changes.filter((c) => c.status === 'COMPLETED' && c.previousStatus !== 'COMPLETED')) {
        await transcripts.ensureDocument(change.id).catch((error: unknown) => this.rethrowIfOffline(error));
      }
      for (const analysis of store.analyses.inProgress()) {
        await this.options.analyses.refresh(analysis).catch((error: unknown) => this.rethrowIfOffline(error));
      }
      for (const id of store.transcriptions.completedWithoutDocument(
        (this.options.backfillPerPoll ?? 5) + this.backfillFailures.size,
      )) {
        if (this.backfillFailures.has(id)) continue;
        await transcripts.ensureDocument(id).catch((error: unknown) => {
          this.rethrowIfOffline(error);
          this.backfillFailures.add(id);
        });
      }
    } finally {
      if (changedIds.size > 0) this.options.emit('transcripts:changed', { ids: [...changedIds] });
      this.interval = changedIds.size > 0 ? this.intervals.minMs : Math.min(this.interval * 2, this.intervals.maxMs);
      this.publishStatus();
    }
    return changedIds.size > 0;
  }

  private rethrowIfOffline(error: unknown) {
    if (error instanceof ApiError && (error.error.code === 'offline' || error.error.code === 'unauthorized'))
      throw error;
  }

  private notifyEnded(changes: TranscriptionChange[]) {
    for (const change of changes) {
      if (!change.previousStatus || FINAL_TRANSCRIPTION_STATUSES.includes(change.previousStatus)) continue;
      if (change.status !== 'COMPLETED' && change.status !== 'FAILED') continue;
      this.options.notify({
        kind: change.status === 'COMPLETED' ? 'transcription-finished' : 'transcription-failed',
        name: this.options.store.transcriptions.get(change.id)?.name ?? null,
        transcriptionId: change.id,
      });
    }
  }

  private publishStatus() {
    const status = this.status();
    const key = JSON.stringify(status);
    if (key === this.lastStatus) return;
    this.lastStatus = key;
    this.options.emit('connection:changed', status);
  }
}
