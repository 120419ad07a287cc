// Follows the transcript open in a visible window (decision 0056): a teammate's edit shows within a few
// seconds, without a reload. Every check is one GET /review naming the revision cached here (304 while
// unchanged); checks start every `followMs`, double up to `followMaxMs` while nothing changes, and stop
// while the server is unreachable (the poller's return online resumes them) or the user types in an editor
// (a revision arriving under an open editor would turn a conflict the server detects into an overwrite).
import type { EventSink } from '../event-sink.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';
import type { SyncIntervals } from './sync-engine.js';

export interface FollowTarget {
  id: string;
  /** The user is typing in one of the transcript's editors: check again once done. */
  editing: boolean;
}

export interface OpenTranscriptFollowerOptions {
  transcripts: TranscriptService;
  emit: EventSink;
  /** False while the server is known to be unreachable. */
  isOnline: () => boolean;
  intervals: Pick<SyncIntervals, 'followMs' | 'followMaxMs'>;
}

export class OpenTranscriptFollower {
  private target: FollowTarget | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<boolean> | null = null;
  private interval: number;
  private running = true;

  constructor(private readonly options: OpenTranscriptFollowerOptions) {
    this.interval = options.intervals.followMs;
  }

  /** What the window shows now (null: no transcript, or the window is hidden). */
  follow(target: FollowTarget | null): void {
    const previous = this.target;
    this.target = target;
    if (previous?.id !== target?.id) this.interval = this.options.intervals.followMs;
    if (!target || target.editing) return this.cancel();
    // Done typing: what was held back while the editor was open is looked for at once.
    if (previous?.id === target.id && previous.editing) this.schedule(0);
    // Opening a transcript reads it (transcripts:get): the first check can wait one interval.
    else if (previous?.id !== target.id || (!this.timer && !this.checking)) this.schedule(this.interval);
  }

  /** The server answers again: check at once. */
  kick(): void {
    this.interval = this.options.intervals.followMs;
    if (this.target) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.cancel();
    await this.checking?.catch(() => {});
  }

  /**
   * One check of the followed transcript now; true when a newer revision was shown. Skipped (false) while
   * nothing is followed, the user is editing, or the server is unreachable.
   */
  check(): Promise<boolean> {
    if (this.checking) return this.checking;
    const target = this.target;
    if (!this.running || !target || target.editing || !this.options.isOnline()) return Promise.resolve(false);
    // Still shown, and no editor opened while the request was out.
    const wanted = () => this.running && this.target?.id === target.id && !this.target.editing;
    this.checking = this.options.transcripts
      .followLatest(target.id, wanted)
      .then((changed) => {
        if (changed) this.options.emit('transcripts:changed', { ids: [target.id] });
        return changed;
      })
      .catch(() => false)
      .then((changed) => {
        const { followMs, followMaxMs } = this.options.intervals;
        this.interval = changed ? followMs : Math.min(this.interval * 2, followMaxMs);
        return changed;
      })
      .finally(() => {
        this.checking = null;
        this.scheduleNext();
      });
    return this.checking;
  }

  private scheduleNext() {
    // Offline, kick() resumes; while editing, follow() does once the editor closes.
    if (this.target && !this.target.editing && this.options.isOnline()) this.schedule(this.interval);
  }

  private schedule(delay: number) {
    this.cancel();
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.check();
    }, delay);
    this.timer.unref?.();
  }

  private cancel() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
