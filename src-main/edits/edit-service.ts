// Transcript corrections. Online, an edit goes to the server at once as revision operations on the
// revision shown, and the server's new latest revision is what is shown and cached (decision 0052).
// Offline, or when the server refuses, the edit is queued in the outbox as operations on the revision
// they were made on and sent in order when the server answers again; the server rebases them over a
// teammate's changes of other segments, and a change of the same segments is a conflict settled segment by
// segment (decision 0054). Servers without revisions get the whole review text, checked against the one
// they had (docs/decisions/0007-offline-edits.md). Undo and redo are kept in the cache across restarts.
import type {
  IpcError,
  IpcErrorCode,
  SegmentConflict,
  TranscriptDetail,
  TranscriptRevisions,
} from '../../src-shared/ipc-contract.js';
import { assertNever } from '../../src-shared/assert-never.js';
import { REVISION_LIMITS } from '../../src-shared/api/revisions.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { OutboxEntry } from '../cache/outbox-repository.js';
import type { NotificationEvent } from '../notifications.js';
import { AppFailure, appError } from '../app-failure.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import {
  applyOperations,
  emptyHistory,
  encodeReview,
  recordEdit,
  redoEdit,
  sameSegments,
  sameSpeakerNames,
  speakerLabelsOf,
  speakerNameOf,
  undoEdit,
  type EditHistory,
  type EditOperation,
  type SpeakerNameOperation,
} from '../../src-shared/transcript-editing.js';
import { shownDocument } from './shown-document.js';
import {
  conflictOver,
  operationsApart,
  sideOf,
  withOperations,
  type EditConflict,
  type QueuedBase,
  type QueuedOperations,
} from './queued-edits.js';

/**
 * A state undo and redo lead to: a revision on the server, operations queued on one, or (a server without
 * revisions, or a review text queued before operations) the segments themselves, kept for this run only.
 */
type EditState =
  { revision: number } | { base: number; operations: EditOperation[] } | { segments: TranscriptSegment[] };

interface KeptHistory extends EditHistory<EditState> {
  /** The state the history leads to: it applies only while that is what is shown. */
  last: EditState;
}

/** What the change was made against: the server's corrected text at the time, when it was known. */
export interface ReviewBase {
  known: boolean;
  text: string | null;
}

export interface ReviewPayload {
  reviewedText: string;
}

export interface FlushResult {
  sent: number;
  conflicts: number;
  /** Stopped because the server could not be reached (or refused the key); the rest waits. */
  interrupted: boolean;
}

export interface EditServiceOptions {
  store: CacheStore;
  client: ApiClient;
  transcripts: TranscriptService;
  notify: (event: NotificationEvent) => void;
  onChanged: (ids: string[]) => void;
  /** False when the server is known to be unreachable: saving then skips the attempt to send. */
  isOnline?: () => boolean;
}

/** Revisions read one by one to name who changed each conflicting segment; past this, all their authors are named. */
const AUTHOR_READS = 20;

const OPERATIONS_KIND = 'revision-operations';

const sameState = (a: EditState, b: EditState) => JSON.stringify(a) === JSON.stringify(b);

export class EditService {
  private flushing: Promise<FlushResult> | null = null;
  private again = false;
  /** Histories holding segments (servers without revisions): for this run of the app only. */
  private readonly memoryHistories = new Map<string, KeptHistory>();

  constructor(private readonly options: EditServiceOptions) {}

  /** Saves corrected segment texts; word timing is kept where the words still match. */
  edit(id: string, changes: Array<{ id: number; text: string }>): Promise<TranscriptDetail> {
    return this.apply(
      id,
      changes.map((c) => ({ kind: 'text', segmentId: c.id, text: c.text })),
    );
  }

  /**
   * Applies edits to the transcript as shown: checked here, sent as operations made on the revision
   * shown, undoable. Without the server, queued as operations on that revision (decision 0054).
   */
  async apply(id: string, operations: EditOperation[]): Promise<TranscriptDetail> {
    const { store, client } = this.options;
    // A send under way changes what is queued: edits are made on what it leaves.
    await this.flushing;
    const server = await this.serverDocument(id);
    const shown = shownDocument(server, store, id);
    const outcome = applyOperations(shown, operations, speakerLabelsOf(server));
    if (!outcome.ok)
      throw new AppFailure({
        code: 'validation',
        field: outcome.field === 'segmentId' ? 'segments' : outcome.field,
        reason: 'edit-refused',
        detail: outcome.message,
      });
    const segments = outcome.document.segments;
    const names = operations.filter((o): o is SpeakerNameOperation => o.kind === 'speaker-name');
    if (
      sameSegments(segments, shown.segments) &&
      sameSpeakerNames(outcome.document, shown) &&
      !this.namesKeptHere(id, names)
    )
      return this.detail(id);
    const current = this.currentState(id, server, shown);
    const history = recordEdit(this.historyOf(id, current), current);

    if ('segments' in current) {
      // A server without revisions (or a review text queued before operations): names stay here (decision 0055).
      for (const o of names) store.edits.setSpeakerName(id, o.speaker, speakerNameOf(o));
      if (sameSegments(segments, shown.segments)) {
        this.options.onChanged([id]);
        return this.detail(id);
      }
      this.keepHistory(id, { ...history, last: { segments } });
      return this.saveReview(id, server, segments);
    }
    // The names travel as operations from here on (sent now, or queued): none is kept here any more.
    for (const o of names) store.edits.setSpeakerName(id, o.speaker, '');
    if ('revision' in current && this.options.isOnline?.() !== false) {
      const latest = await this.onServer(id, () => client.createRevision(id, current.revision, operations));
      if (latest?.revision !== undefined) {
        this.keepHistory(id, { ...history, last: { revision: latest.revision } });
        return this.detail(id);
      }
    }
    const queued = 'base' in current ? current : { base: current.revision, operations: [] };
    const next = { base: queued.base, operations: [...queued.operations, ...operations] };
    if (next.operations.length > REVISION_LIMITS.operations)
      throw new AppFailure({
        code: 'too-large',
        reason: 'edits-queue-full',
        params: { max: REVISION_LIMITS.operations },
      });
    this.queue(id, next);
    this.keepHistory(id, { ...history, last: next });
    // Offline, the poller flushes when the server answers again; no need to wait for retries here.
    if (this.options.isOnline?.() !== false) await this.flush();
    return this.detail(id);
  }

  /**
   * Applies a dictionary's forced replacements on the server (TranscriptService.applyDictionary) as one
   * undoable edit: the revision it makes joins the history as any edit's does, so Undo restores the
   * revision before it (a new revision, as every undo on the server makes). With edits waiting to be sent,
   * the rewrite shows only once they are, and is not undoable here.
   */
  async applyDictionary(id: string, dictionaryId: string | null): Promise<TranscriptDetail> {
    const { store, transcripts } = this.options;
    await this.flushing;
    const server = await this.serverDocument(id);
    const current = this.currentState(id, server, shownDocument(server, store, id));
    const history = this.historyOf(id, current);
    const detail = await transcripts.applyDictionary(id, dictionaryId);
    const after = store.documents.get(id)?.revision;
    if ('revision' in current && after !== undefined && after !== current.revision) {
      this.keepHistory(id, { ...recordEdit(history, current), last: { revision: after } });
      return this.detail(id);
    }
    return detail;
  }

  /** Whether one of these names is kept on this computer (so naming it again still changes something). */
  private namesKeptHere(id: string, names: SpeakerNameOperation[]): boolean {
    const kept = this.options.store.edits.speakerNames(id);
    return names.some((o) => o.speaker in kept);
  }

  /** Takes back the last edit of the transcript (kept across restarts of the app). */
  undo(id: string): Promise<TranscriptDetail> {
    return this.step(id, undoEdit);
  }

  redo(id: string): Promise<TranscriptDetail> {
    return this.step(id, redoEdit);
  }

  /** The transcript as shown, with how many edits can be undone and redone, and a conflict over segments. */
  detail(id: string): TranscriptDetail {
    const { store, transcripts } = this.options;
    // One read of the document: a 3-hour transcript takes tens of milliseconds to parse (decision 0079).
    const server = store.documents.get(id);
    const detail = transcripts.detailFromCache(id, server);
    const history =
      server && detail.document ? this.historyOf(id, this.currentState(id, server, detail.document)) : emptyHistory();
    const conflictSegments = detail.document ? this.conflictSegments(id, detail.document) : [];
    return {
      ...detail,
      ...(conflictSegments.length > 0 ? { conflictSegments } : {}),
      history: { undo: history.past.length, redo: history.future.length },
    };
  }

  /** The segments of a conflict over segments, mine as shown here. */
  private conflictSegments(id: string, shown: TranscriptDocument): SegmentConflict[] {
    const entry = this.options.store.outbox.forTarget(OPERATIONS_KIND, id);
    const conflict = entry?.state === 'conflict' ? (entry.conflict as EditConflict | null) : null;
    if (!conflict) return [];
    const mine = new Map(shown.segments.map((s) => [s.id, s]));
    return conflict.segments.map((c) => ({ ...c, mine: sideOf(mine.get(c.segmentId)) }));
  }

  /** What is shown, as a state of the history. */
  private currentState(id: string, server: TranscriptDocument, shown: TranscriptDocument): EditState {
    const { outbox } = this.options.store;
    const queued = outbox.forTarget(OPERATIONS_KIND, id);
    if (queued)
      return {
        base: (queued.base as QueuedBase).revision,
        operations: (queued.payload as QueuedOperations).operations,
      };
    if (server.revision === undefined || outbox.forTarget('review', id)) return { segments: shown.segments };
    return { revision: server.revision };
  }

  /** The history as kept, whatever it leads to. */
  private keptHistory(id: string): KeptHistory | null {
    const stored = this.options.store.edits.history(id) as StoredHistory | null;
    return this.memoryHistories.get(id) ?? (stored ? unpackHistory(stored) : null);
  }

  /** The history, if it still leads to what is shown (a correction from elsewhere starts a new one). */
  private historyOf(id: string, current: EditState): KeptHistory {
    const kept = this.keptHistory(id);
    return kept && sameState(kept.last, current) ? kept : { ...emptyHistory<EditState>(), last: current };
  }

  /** Revisions and queued operations are kept in the cache; a history holding segments only in memory. */
  private keepHistory(id: string, history: KeptHistory | null): void {
    const inMemory =
      history !== null && [history.last, ...history.past, ...history.future].some((s) => 'segments' in s);
    if (inMemory) this.memoryHistories.set(id, history);
    else this.memoryHistories.delete(id);
    this.options.store.edits.setHistory(id, inMemory || history === null ? null : packHistory(history));
  }

  /**
   * Undo and redo reach the state the history leads to: on the server, by restoring the revision that had
   * it (a new revision, so the server's history loses nothing); while edits are queued, by taking queued
   * operations back or putting them back. A state that needs the server while it cannot be reached is
   * refused, and nothing moves.
   */
  private async step(
    id: string,
    move: (
      history: EditHistory<EditState>,
      current: EditState,
    ) => { state: EditState; history: EditHistory<EditState> } | null,
  ): Promise<TranscriptDetail> {
    await this.flushing;
    const server = await this.serverDocument(id);
    const current = this.currentState(id, server, shownDocument(server, this.options.store, id));
    const moved = move(this.historyOf(id, current), current);
    if (!moved) return this.detail(id);
    const last = await this.reach(id, server, current, moved.state);
    this.keepHistory(id, { past: moved.history.past, future: moved.history.future, last });
    if (this.options.isOnline?.() !== false) await this.flush();
    return this.detail(id);
  }

  /** Makes `target` what is shown; answers the state that is then shown. */
  private async reach(
    id: string,
    server: TranscriptDocument,
    current: EditState,
    target: EditState,
  ): Promise<EditState> {
    const { store, client } = this.options;
    if ('segments' in target) {
      await this.saveReview(id, server, target.segments, false);
      return target;
    }
    const queued = store.outbox.forTarget(OPERATIONS_KIND, id);
    if (queued?.state === 'conflict')
      throw new AppFailure({
        code: 'conflict',
        reason: 'undo-conflict',
      });
    const shown = 'base' in current ? current.base : 'revision' in current ? current.revision : null;
    const targetRevision = 'base' in target ? target.base : target.revision;
    const operations = 'base' in target ? target.operations : [];
    if (shown === targetRevision) {
      // The revision the queued edits sit on: only what is queued moves.
      this.queue(id, operations.length > 0 ? { base: shown, operations } : null);
      return target;
    }
    if (queued || shown === null || this.options.isOnline?.() === false)
      throw new AppFailure({
        code: 'offline',
        reason: queued ? 'undo-waits-for-sending' : 'undo-offline',
      });
    let restored: TranscriptDocument;
    try {
      const created = await client.restoreRevision(id, targetRevision, shown);
      restored = (await client.getRevision(id, created.revision)).document;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412)
        throw new AppFailure({
          code: 'conflict',
          reason: 'undo-changed',
        });
      throw error;
    }
    this.cacheRevision(id, restored);
    if (operations.length === 0) return { revision: restored.revision! };
    const next = { base: restored.revision!, operations };
    this.queue(id, next);
    return next;
  }

  /** Queues operations on a revision (null: nothing queued any more), and shows them. */
  private queue(id: string, queued: { base: number; operations: EditOperation[] } | null): void {
    const { store, transcripts } = this.options;
    const entry = store.outbox.forTarget(OPERATIONS_KIND, id);
    store.db.transaction(() => {
      if (queued)
        store.outbox.put(
          OPERATIONS_KIND,
          id,
          { operations: queued.operations } satisfies QueuedOperations,
          { revision: queued.base } satisfies QueuedBase,
        );
      else if (entry) store.outbox.remove(entry.seq);
      transcripts.reindexTranscript(id);
    })();
    this.options.onChanged([id]);
  }

  /** Caches a revision as the document shown, and indexes it. */
  private cacheRevision(id: string, document: TranscriptDocument): void {
    const { store, transcripts } = this.options;
    store.db.transaction(() => {
      store.documents.put(id, document);
      transcripts.reindexTranscript(id);
    })();
    this.options.onChanged([id]);
  }

  /**
   * The server revision shown here, when what is shown is exactly that revision: nothing edited here
   * waits to be sent, and the server is thought reachable. Null otherwise.
   */
  private revisionShown(id: string, server: TranscriptDocument): number | null {
    if (server.revision === undefined || this.options.isOnline?.() === false) return null;
    return this.options.store.outbox.hasEntriesFor(id) ? null : server.revision;
  }

  /**
   * Makes a revision on the server and caches it as the document shown (decision 0052). Null when the
   * server could not take it (offline, a teammate's conflicting edit, a refusal): the caller then queues
   * the change, where conflicts are shown and settled.
   */
  private async onServer(
    id: string,
    write: () => Promise<{ revision: number; changed: boolean }>,
  ): Promise<TranscriptDocument | null> {
    const { store, client } = this.options;
    let document: TranscriptDocument;
    let review: string | null;
    try {
      const created = await write();
      document = (await client.getRevision(id, created.revision)).document;
      review = (await client.getReview(id))?.reviewed_text ?? null;
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
    store.edits.setServerReview(id, review);
    this.cacheRevision(id, document);
    return document;
  }

  private async serverDocument(id: string): Promise<TranscriptDocument> {
    const { store, transcripts } = this.options;
    let server = store.documents.get(id);
    if (!server) {
      try {
        server = await transcripts.ensureDocument(id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
    if (!server)
      throw new AppFailure({
        code: 'conflict',
        reason: 'not-editable',
      });
    return server;
  }

  /**
   * A server without revisions (or a review text queued before operations): queues the edited segments as
   * the review text and sends it when online (decision 0007).
   */
  private async saveReview(
    id: string,
    server: TranscriptDocument,
    segments: TranscriptSegment[],
    send = true,
  ): Promise<TranscriptDetail> {
    const { store, transcripts } = this.options;
    const serverReview = store.edits.serverReview(id);
    const base: ReviewBase = { known: serverReview !== undefined, text: serverReview ?? null };
    const reviewedText = encodeReview(server, segments);
    store.db.transaction(() => {
      store.outbox.enqueue('review', id, { reviewedText } satisfies ReviewPayload, base);
      transcripts.reindexTranscript(id);
    })();
    this.options.onChanged([id]);
    // Offline, the poller flushes when the server answers again; no need to wait for retries here.
    if (send && this.options.isOnline?.() !== false) await this.flush();
    return this.detail(id);
  }

  /** The transcript's revisions on the server, oldest first (History). */
  async revisions(id: string): Promise<TranscriptRevisions> {
    const list = await this.options.client.listRevisions(id);
    return {
      latest: list.latest_revision,
      revisions: list.revisions.map((r) => ({
        revision: r.revision,
        createdAt: r.created_at,
        author: r.author.name,
        source: r.source,
        summary: r.summary,
      })),
    };
  }

  /**
   * Brings back an older revision as a new one, made on the revision shown here: refused while edits
   * made here wait to be sent, and when the transcript changed on the server since it was read.
   */
  async restore(id: string, revision: number): Promise<TranscriptDetail> {
    const { client, transcripts } = this.options;
    const server = await this.serverDocument(id);
    const shown = this.revisionShown(id, server);
    if (shown === null)
      throw new AppFailure({
        code: 'conflict',
        reason: 'restore-unsent',
      });
    try {
      await client.restoreRevision(id, revision, shown);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412)
        throw new AppFailure({
          code: 'conflict',
          reason: 'restore-changed',
        });
      throw error;
    }
    this.keepHistory(id, null);
    await transcripts.adoptLatestRevision(id);
    this.options.onChanged([id]);
    return this.detail(id);
  }

  /** Sends queued changes in order. Never throws: failures stay on their entries. */
  flush(): Promise<FlushResult> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      let total: FlushResult = { sent: 0, conflicts: 0, interrupted: false };
      do {
        this.again = false;
        const result = await this.flushOnce();
        total = {
          sent: total.sent + result.sent,
          conflicts: total.conflicts + result.conflicts,
          interrupted: result.interrupted,
        };
      } while (this.again && !total.interrupted);
      return total;
    })().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /**
   * Settles a conflict whole: 'server' drops the edits kept here and shows the server's version; 'local'
   * sends them over the server's (a conflict over segments: this computer's version of each segment).
   */
  async resolveConflict(id: string, keep: 'local' | 'server'): Promise<TranscriptDetail> {
    const { store, transcripts, client } = this.options;
    const queued = store.outbox.forTarget(OPERATIONS_KIND, id);
    if (queued?.state === 'conflict') {
      if (keep === 'server') {
        store.outbox.remove(queued.seq);
        this.keepHistory(id, null);
        if (!(await transcripts.adoptLatestRevision(id))) transcripts.reindexTranscript(id);
        this.options.onChanged([id]);
        return this.detail(id);
      }
      const conflicts = this.detail(id).conflictSegments ?? [];
      if (conflicts.length > 0) {
        if (conflicts.some((c) => c.mine === null || c.theirs === null))
          throw new AppFailure({
            code: 'conflict',
            reason: 'segments-merged',
          });
        return this.settleConflict(
          id,
          conflicts.map((c) => ({ segmentId: c.segmentId, text: c.mine!.text, speaker: c.mine!.speaker })),
        );
      }
      // Not about segments: the edits are made again on the server's latest revision, over it.
      const latest = (await client.listRevisions(id)).latest_revision;
      const document = (await client.getRevision(id, latest)).document;
      store.db.transaction(() => {
        store.documents.put(id, document);
        store.outbox.enqueue(OPERATIONS_KIND, id, queued.payload, { revision: latest } satisfies QueuedBase);
        transcripts.reindexTranscript(id);
      })();
      this.keepHistory(id, null);
      this.options.onChanged([id]);
      await this.flush();
      return this.detail(id);
    }
    const entry = store.outbox.forTarget('review', id);
    // Only a conflict is settled here: a correction still waiting to be sent is never dropped by a stale choice.
    if (entry?.state === 'conflict') {
      if (keep === 'local') {
        const current = store.edits.serverReview(id);
        store.outbox.enqueue('review', id, entry.payload, {
          known: current !== undefined,
          text: current ?? null,
        } satisfies ReviewBase);
      } else {
        store.outbox.remove(entry.seq);
        this.keepHistory(id, null);
        // The server's latest revision is shown; a server without revisions shows its review text.
        if (!(await transcripts.adoptLatestRevision(id))) transcripts.reindexTranscript(id);
      }
    }
    this.options.onChanged([id]);
    if (keep === 'local') await this.flush();
    return this.detail(id);
  }

  /**
   * Settles a conflict over segments: the queued edits that met no conflict are sent first (the server
   * rebases them), then each chosen segment gets the text and speaker chosen, made on the server's revision
   * the conflict was shown with (so a teammate's still newer change of it is a new conflict, not
   * overwritten). Conflicting segments not listed keep the server's version.
   */
  async settleConflict(
    id: string,
    segments: Array<{ segmentId: number; text: string; speaker: string | null }>,
  ): Promise<TranscriptDetail> {
    const { store, client, transcripts } = this.options;
    await this.flushing;
    const entry = store.outbox.forTarget(OPERATIONS_KIND, id);
    const conflict = entry?.state === 'conflict' ? (entry.conflict as EditConflict | null) : null;
    const open = new Map((conflict?.segments ?? []).map((c) => [c.segmentId, c]));
    const unknown = segments.findIndex((s) => !open.has(s.segmentId));
    if (!entry || !conflict || unknown >= 0)
      throw new AppFailure({
        code: 'conflict',
        field: unknown >= 0 ? `segments.${unknown}.segmentId` : 'segments',
        reason: 'no-conflict',
      });
    const removed = segments.findIndex((s) => open.get(s.segmentId)!.theirs === null);
    if (removed >= 0)
      throw new AppFailure({
        code: 'validation',
        field: `segments.${removed}`,
        reason: 'segment-merged-away',
        params: { segment: segments[removed]!.segmentId },
      });
    const base = (entry.base as QueuedBase).revision;
    const operations = (entry.payload as QueuedOperations).operations;
    const baseDocument = await this.revisionDocument(id, base);
    const { apart, involved } = operationsApart(baseDocument, operations, new Set(open.keys()));
    try {
      if (apart.length > 0) {
        await client.createRevision(id, base, apart);
        // Sent: only what met the conflict waits now, on the same base.
        store.outbox.put(OPERATIONS_KIND, id, { operations: involved } satisfies QueuedOperations, entry.base);
      }
      const theirs = await this.revisionDocument(id, conflict.latestRevision);
      const byId = new Map(theirs.segments.map((s) => [s.id, s]));
      const choices: EditOperation[] = segments.flatMap((s) => {
        const segment = byId.get(s.segmentId)!;
        const text = s.text.replace(/\s+/g, ' ').trim();
        return [
          ...(text !== segment.text ? [{ kind: 'text' as const, segmentId: s.segmentId, text }] : []),
          ...(s.speaker !== segment.speaker
            ? [{ kind: 'speaker' as const, segmentId: s.segmentId, speaker: s.speaker }]
            : []),
        ];
      });
      for (let i = 0; i < choices.length; i += REVISION_LIMITS.operations)
        await client.createRevision(id, conflict.latestRevision, choices.slice(i, i + REVISION_LIMITS.operations));
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        // Someone changed these segments again meanwhile: the conflict is shown anew, with what they did.
        const still = store.outbox.forTarget(OPERATIONS_KIND, id);
        if (still) await this.segmentConflict(still);
        throw new AppFailure({
          code: 'conflict',
          reason: 'segments-changed-again',
        });
      }
      throw error;
    }
    store.outbox.remove(entry.seq);
    this.keepHistory(id, null);
    await transcripts.adoptLatestRevision(id);
    this.options.onChanged([id]);
    return this.detail(id);
  }

  /** A revision's document: the cached one when it is that revision, else read from the server. */
  private async revisionDocument(id: string, revision: number): Promise<TranscriptDocument> {
    const cached = this.options.store.documents.get(id);
    if (cached?.revision === revision) return cached;
    return (await this.options.client.getRevision(id, revision)).document;
  }

  private async flushOnce(): Promise<FlushResult> {
    const { store, client } = this.options;
    const result: FlushResult = { sent: 0, conflicts: 0, interrupted: false };
    const changed: string[] = [];
    for (const entry of store.outbox.pending()) {
      try {
        if (entry.kind === OPERATIONS_KIND) {
          if (await this.sendOperations(entry as OutboxEntry<QueuedOperations, QueuedBase>)) result.sent++;
          else result.conflicts++;
          changed.push(entry.targetId);
          continue;
        }
        const review = entry as OutboxEntry<ReviewPayload, ReviewBase>;
        const current = (await client.getReview(entry.targetId))?.reviewed_text ?? null;
        store.edits.setServerReview(entry.targetId, current);
        if (review.base?.known && current !== review.base.text && current !== review.payload.reviewedText) {
          this.conflict(entry, appError({ code: 'conflict', reason: 'review-conflict' }));
          result.conflicts++;
          changed.push(entry.targetId);
          continue;
        }
        // The server keeps the review as a revision and answers its text, one line per segment (decision
        // 0052): that is what a later read of the review will be compared with.
        const saved = await client.saveReview(entry.targetId, review.payload.reviewedText);
        store.edits.setServerReview(entry.targetId, saved.reviewed_text);
        if (store.outbox.removeIfUnchanged(entry)) await this.adoptLatest(entry.targetId);
        result.sent++;
        changed.push(entry.targetId);
      } catch (error) {
        const ipcError: IpcError =
          error instanceof AppFailure
            ? error.error
            : appError({
                code: 'internal',
                reason: 'internal',
                detail: error instanceof Error ? error.message : String(error),
              });
        if (keepsWaiting(ipcError.code)) {
          store.outbox.markAttempt(entry.seq, ipcError);
          result.interrupted = true;
          break;
        }
        this.conflict(
          entry,
          ipcError.code === 'not-found'
            ? appError({ code: ipcError.code, reason: 'edits-deleted' })
            : appError({ code: ipcError.code, reason: 'edits-not-sent', cause: ipcError }),
        );
        result.conflicts++;
        changed.push(entry.targetId);
      }
    }
    if (changed.length > 0) this.options.onChanged([...new Set(changed)]);
    return result;
  }

  /**
   * Sends queued operations on their base revision; the server rebases them over changes of other
   * segments. True when they landed (and the latest revision is cached), false on a conflict. Other
   * failures are thrown, for the caller to keep them waiting or mark them.
   */
  private async sendOperations(entry: OutboxEntry<QueuedOperations, QueuedBase>): Promise<boolean> {
    const { store, client } = this.options;
    const id = entry.targetId;
    const sent = entry.payload.operations;
    let document: TranscriptDocument;
    try {
      const created = await client.createRevision(id, entry.base.revision, sent);
      document = (await client.getRevision(id, created.revision)).document;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412)) throw error;
      await this.segmentConflict(entry);
      return false;
    }
    const kept = this.keptHistory(id);
    store.db.transaction(() => {
      if (!store.outbox.removeIfUnchanged(entry)) {
        // Edited again while this was on its way: the later operations wait, on the revision just made.
        const now = store.outbox.forTarget(OPERATIONS_KIND, id);
        const rest = ((now?.payload as QueuedOperations | undefined)?.operations ?? []).slice(sent.length);
        if (now && rest.length > 0)
          store.outbox.put(OPERATIONS_KIND, id, { operations: rest }, {
            revision: document.revision!,
          } satisfies QueuedBase);
        else if (now) store.outbox.remove(now.seq);
      }
    })();
    this.cacheRevision(id, document);
    // Undo still leads back from what is shown now, which is that revision.
    if (
      kept &&
      sameState(kept.last, { base: entry.base.revision, operations: sent }) &&
      !store.outbox.hasEntriesFor(id)
    )
      this.keepHistory(id, { ...kept, last: { revision: document.revision! } });
    return true;
  }

  /**
   * The server refused queued operations (412): reads its latest revision and the revisions since the base,
   * and keeps the conflict per segment (mine: the base with the queued operations; theirs: the latest).
   */
  private async segmentConflict(entry: OutboxEntry): Promise<void> {
    const { client } = this.options;
    const id = entry.targetId;
    const base = (entry.base as QueuedBase).revision;
    const list = await client.listRevisions(id);
    const theirs = (await client.getRevision(id, list.latest_revision)).document;
    const baseDocument = await this.revisionDocument(id, base);
    const mine = withOperations(baseDocument, (entry.payload as QueuedOperations).operations);
    const since = list.revisions.filter((r) => r.revision > base);
    // Past AUTHOR_READS revisions, none is read: every author since the base is named for every segment.
    const readEach = since.length <= AUTHOR_READS;
    const revisions: Array<{ author: string; document: TranscriptDocument | null }> = [];
    for (const r of since)
      revisions.push({
        author: r.author.name,
        document: !readEach
          ? null
          : r.revision === list.latest_revision
            ? theirs
            : (await client.getRevision(id, r.revision)).document,
      });
    const conflict = conflictOver(baseDocument, mine, { ...theirs, revision: list.latest_revision }, revisions);
    this.conflict(
      entry,
      appError({ code: 'conflict', reason: 'edits-conflict' }),
      conflict.segments.length > 0 ? conflict : null,
    );
  }

  /**
   * Once a review text queued here has reached the server and nothing else waits, shows the server's latest
   * revision. A failure to read it leaves the review text shown (it is what was sent).
   */
  private async adoptLatest(id: string): Promise<void> {
    const { store, transcripts } = this.options;
    const server = store.documents.get(id);
    const shown = server ? shownDocument(server, store, id).segments : null;
    const document = await transcripts.adoptLatestRevision(id);
    if (!document || document.revision === undefined) return;
    const kept = this.memoryHistories.get(id);
    if (kept && shown && 'segments' in kept.last && sameSegments(kept.last.segments, shown))
      this.keepHistory(id, { ...kept, last: { revision: document.revision } });
  }

  private conflict(entry: OutboxEntry, error: IpcError, conflict: EditConflict | null = null) {
    this.options.store.outbox.markConflict(entry.seq, error, conflict);
    this.options.notify({
      kind: 'corrections-not-sent',
      name: this.options.store.transcriptions.get(entry.targetId)?.name ?? null,
      transcriptionId: entry.targetId,
    });
  }
}

/** A queued state as kept in the cache: a prefix of one of the history's operation lists. */
type StoredState = { revision: number } | { base: number; list: number; count: number };

interface StoredHistory {
  lists: EditOperation[][];
  past: StoredState[];
  future: StoredState[];
  last: StoredState;
}

const operationKeys = new WeakMap<object, string>();
const keyOf = (operation: EditOperation) => {
  let key = operationKeys.get(operation);
  if (key === undefined) operationKeys.set(operation, (key = JSON.stringify(operation)));
  return key;
};

/**
 * The history as kept in the cache. The queued states on one base are prefixes of one another (an edit
 * appends, undo takes off the end, and a new edit drops what could be redone), so each operation list is
 * kept once and a state is its length: 200 states of up to 500 operations stay one list, not 100,000.
 */
function packHistory(history: KeptHistory): StoredHistory {
  const lists: Array<{ base: number; operations: EditOperation[] }> = [];
  const queued = [history.last, ...history.past, ...history.future].flatMap((s) => ('base' in s ? [s] : []));
  const at = new Map<EditState, number>();
  for (const state of queued.sort((a, b) => b.operations.length - a.operations.length)) {
    let index = lists.findIndex(
      (l) =>
        l.base === state.base &&
        l.operations.length >= state.operations.length &&
        state.operations.every((op, i) => op === l.operations[i] || keyOf(op) === keyOf(l.operations[i]!)),
    );
    if (index < 0) index = lists.push({ base: state.base, operations: state.operations }) - 1;
    at.set(state, index);
  }
  const pack = (s: EditState): StoredState => {
    if ('segments' in s) throw new Error('Segment lists are not kept in the cache');
    return 'base' in s ? { base: s.base, list: at.get(s)!, count: s.operations.length } : s;
  };
  return {
    lists: lists.map((l) => l.operations),
    past: history.past.map(pack),
    future: history.future.map(pack),
    last: pack(history.last),
  };
}

function unpackHistory(stored: StoredHistory): KeptHistory {
  const unpack = (s: StoredState): EditState =>
    'base' in s ? { base: s.base, operations: stored.lists[s.list]!.slice(0, s.count) } : s;
  return { past: stored.past.map(unpack), future: stored.future.map(unpack), last: unpack(stored.last) };
}

/** Transient, or fixable in Settings: the outbox keeps its order and tries again later. The rest is a conflict. */
function keepsWaiting(code: IpcErrorCode): boolean {
  switch (code) {
    case 'offline':
    case 'unauthorized':
    case 'server':
    case 'cancelled':
    case 'internal':
      return true;
    case 'forbidden':
    case 'not-found':
    case 'validation':
    case 'conflict':
    case 'too-large':
    case 'insufficient-storage':
    case 'unsupported':
      return false;
    default:
      return assertNever(code, 'IPC error code');
  }
}
