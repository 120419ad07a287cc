// Transcript corrections. Online, an edit goes to the server at once as revision operations on the
// revision shown, and the server's new latest revision is what is shown and cached (decision 0052).
// Offline, or when the server refuses (a teammate's conflicting edit), the edit is kept here and queued
// in the outbox as the review text, sent in order, refusing to overwrite a correction someone else
// saved meanwhile (docs/decisions/0007-offline-edits.md); once sent, the latest revision is shown again.
import type { IpcError, IpcErrorCode, TranscriptDetail, TranscriptRevisions } from '../../src-shared/ipc-contract.js';
import { assertNever } from '../../src-shared/assert-never.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { OutboxEntry } from '../cache/outbox-repository.js';
import type { UserNotification } from '../host-capabilities.js';
import { AppFailure } from '../app-failure.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import {
  applyOperations,
  decodeReview,
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

/** A state undo and redo lead to, and the server revision that has it (null: none known). */
interface Snapshot {
  segments: TranscriptSegment[];
  revision: number | null;
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
  notify: (notification: UserNotification) => void;
  onChanged: (ids: string[]) => void;
  /** False when the server is known to be unreachable: saving then skips the attempt to send. */
  isOnline?: () => boolean;
}

export class EditService {
  private flushing: Promise<FlushResult> | null = null;
  /** Undo and redo per transcript, for this run of the app; `last` is what the history leads to. */
  private readonly histories = new Map<string, { history: EditHistory<Snapshot>; last: Snapshot }>();
  private again = false;

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
   * shown, undoable. Without the server, kept here and queued (docs/decisions/0025-edited-documents.md).
   */
  async apply(id: string, operations: EditOperation[]): Promise<TranscriptDetail> {
    const server = await this.serverDocument(id);
    const shown = shownDocument(server, this.options.store.edits, id);
    const before = shown.segments;
    const outcome = applyOperations(shown, operations, speakerLabelsOf(server));
    if (!outcome.ok)
      throw new AppFailure({
        code: 'validation',
        field: outcome.field === 'segmentId' ? 'segments' : outcome.field,
        message: outcome.message,
      });
    const segments = outcome.document.segments;
    const names = operations.filter((o): o is SpeakerNameOperation => o.kind === 'speaker-name');
    if (sameSegments(segments, before) && sameSpeakerNames(outcome.document, shown) && !this.namesKeptHere(id, names))
      return this.detail(id);
    const base = this.revisionShown(id, server);
    const history = recordEdit(this.historyOf(id, before), { segments: before, revision: base });
    const latest =
      base === null ? null : await this.onServer(id, () => this.options.client.createRevision(id, base, operations));
    if (latest) {
      // The server holds these names now: none is kept here any more.
      for (const o of names) this.options.store.edits.setSpeakerName(id, o.speaker, '');
      this.histories.set(id, { history, last: { segments: latest.segments, revision: latest.revision ?? null } });
      return this.detail(id);
    }
    // Names the server cannot hold (no revisions, a refusal, offline) are kept here, and sent later (decision 0055).
    for (const o of names) this.options.store.edits.setSpeakerName(id, o.speaker, speakerNameOf(o));
    if (sameSegments(segments, before)) {
      this.options.onChanged([id]);
      return this.detail(id);
    }
    this.histories.set(id, { history, last: { segments, revision: null } });
    return this.save(id, server, segments);
  }

  /** Whether one of these names is kept on this computer (so naming it again still changes something). */
  private namesKeptHere(id: string, names: SpeakerNameOperation[]): boolean {
    const kept = this.options.store.edits.speakerNames(id);
    return names.some((o) => o.speaker in kept);
  }

  /** Takes back the last edit of the transcript (made in this session of the app). */
  undo(id: string): Promise<TranscriptDetail> {
    return this.step(id, undoEdit);
  }

  redo(id: string): Promise<TranscriptDetail> {
    return this.step(id, redoEdit);
  }

  /** The transcript as shown, with how many edits can be undone and redone. */
  detail(id: string): TranscriptDetail {
    const detail = this.options.transcripts.detailFromCache(id);
    const server = this.options.store.documents.get(id);
    const history = server && detail.document ? this.historyOf(id, detail.document.segments) : emptyHistory();
    return { ...detail, history: { undo: history.past.length, redo: history.future.length } };
  }

  /**
   * Undo and redo on the server restore the revision the history leads to, as a new revision (nothing
   * is lost from the server's history); without one (an edit kept here while offline) the state is
   * saved as today, through the review text.
   */
  private async step(
    id: string,
    move: (
      history: EditHistory<Snapshot>,
      current: Snapshot,
    ) => { state: Snapshot; history: EditHistory<Snapshot> } | null,
  ): Promise<TranscriptDetail> {
    const server = await this.serverDocument(id);
    const segments = shownDocument(server, this.options.store.edits, id).segments;
    const history = this.historyOf(id, segments);
    const current = this.histories.get(id)?.last ?? { segments, revision: null };
    const moved = move(history, current);
    if (!moved) return this.detail(id);
    const shown = this.revisionShown(id, server);
    const target = moved.state.revision;
    const latest =
      shown !== null && target !== null && current.revision === shown
        ? await this.onServer(id, () => this.options.client.restoreRevision(id, target, shown))
        : null;
    if (latest) {
      // The restored revision has a new number, with the target's content: redo and undo lead back to it.
      this.histories.set(id, {
        history: moved.history,
        last: { segments: latest.segments, revision: latest.revision ?? null },
      });
      return this.detail(id);
    }
    this.histories.set(id, { history: moved.history, last: { segments: moved.state.segments, revision: null } });
    return this.save(id, server, moved.state.segments);
  }

  /** The history, if it still leads to what is shown (a correction from elsewhere starts a new one). */
  private historyOf(id: string, current: TranscriptSegment[]): EditHistory<Snapshot> {
    const entry = this.histories.get(id);
    if (entry && sameSegments(entry.last.segments, current)) return entry.history;
    this.histories.delete(id);
    return emptyHistory();
  }

  /**
   * The server revision shown here, when what is shown is exactly that revision: nothing edited here
   * waits to be sent, and the server is thought reachable. Null otherwise (the review-text path then).
   */
  private revisionShown(id: string, server: TranscriptDocument): number | null {
    const { store } = this.options;
    if (server.revision === undefined || this.options.isOnline?.() === false) return null;
    if (store.outbox.hasEntriesFor(id) || store.edits.editedSegments(id) || store.edits.segmentEdits(id).size > 0)
      return null;
    return server.revision;
  }

  /**
   * Once a correction kept here has reached the server and nothing else waits, shows the server's latest
   * revision instead of the copy kept here, so later edits go as operations again. A failure to read it
   * leaves the copy shown (it is what was sent).
   */
  private async adoptLatest(id: string): Promise<void> {
    const { store, transcripts } = this.options;
    const server = store.documents.get(id);
    const shown = server ? shownDocument(server, store.edits, id).segments : null;
    const document = await transcripts.adoptLatestRevision(id);
    if (!document) return;
    // Undo still leads back from what is shown now.
    const entry = this.histories.get(id);
    if (entry && shown && sameSegments(entry.last.segments, shown))
      this.histories.set(id, { ...entry, last: { segments: document.segments, revision: document.revision ?? null } });
  }

  /**
   * Makes a revision on the server and caches it as the document shown (decision 0052). Null when the
   * server could not take it (offline, a teammate's conflicting edit, a refusal): the caller then keeps
   * the change here and queues it as today, where conflicts are shown and settled.
   */
  private async onServer(
    id: string,
    write: () => Promise<{ revision: number; changed: boolean }>,
  ): Promise<TranscriptDocument | null> {
    const { store, client, transcripts } = this.options;
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
    store.db.transaction(() => {
      store.documents.put(id, document);
      store.edits.replaceEditedSegments(id, null);
      store.edits.setServerReview(id, review);
    })();
    transcripts.reindexTranscript(id);
    this.options.onChanged([id]);
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
        message: 'This transcript cannot be edited until it is COMPLETED and on this computer.',
      });
    return server;
  }

  /** Keeps the edited segments, queues them as the review text, and sends it when online. */
  private async save(id: string, server: TranscriptDocument, segments: TranscriptSegment[]): Promise<TranscriptDetail> {
    const { store, transcripts } = this.options;
    const serverReview = store.edits.serverReview(id);
    const base: ReviewBase = { known: serverReview !== undefined, text: serverReview ?? null };
    const reviewedText = encodeReview(server, segments);
    store.db.transaction(() => {
      store.edits.replaceEditedSegments(id, sameSegments(segments, server.segments) ? null : segments);
      store.outbox.enqueue('review', id, { reviewedText } satisfies ReviewPayload, base);
    })();
    transcripts.reindexTranscript(id);
    this.options.onChanged([id]);
    // Offline, the poller flushes when the server answers again; no need to wait for retries here.
    if (this.options.isOnline?.() !== false) await this.flush();
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
        message:
          'Your corrections on this computer have not reached the server yet. Restore a version once they are sent (or the conflict is settled).',
      });
    try {
      await client.restoreRevision(id, revision, shown);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412)
        throw new AppFailure({
          code: 'conflict',
          message: 'Someone changed this transcript meanwhile. Look at its history again, then restore.',
        });
      throw error;
    }
    this.histories.delete(id);
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
   * Settles a conflict: 'local' sends this machine's correction over the server's; 'server' drops the
   * local correction and shows the server's.
   */
  async resolveConflict(id: string, keep: 'local' | 'server'): Promise<TranscriptDetail> {
    const { store, transcripts } = this.options;
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
        this.histories.delete(id);
        // The server's latest revision is shown; mapping its review text here is for servers without revisions.
        if (!(await transcripts.adoptLatestRevision(id))) {
          const server = store.documents.get(id);
          const text = store.edits.serverReview(id);
          const segments = server && text ? decodeReview(server, text) : null;
          store.edits.replaceEditedSegments(
            id,
            server && segments && !sameSegments(segments, server.segments) ? segments : null,
          );
          transcripts.reindexTranscript(id);
        }
      }
    }
    this.options.onChanged([id]);
    if (keep === 'local') await this.flush();
    return this.detail(id);
  }

  private async flushOnce(): Promise<FlushResult> {
    const { store, client } = this.options;
    const result: FlushResult = { sent: 0, conflicts: 0, interrupted: false };
    const changed: string[] = [];
    for (const entry of store.outbox.pending() as Array<OutboxEntry<ReviewPayload, ReviewBase>>) {
      try {
        const current = (await client.getReview(entry.targetId))?.reviewed_text ?? null;
        store.edits.setServerReview(entry.targetId, current);
        if (entry.base?.known && current !== entry.base.text && current !== entry.payload.reviewedText) {
          this.conflict(entry, {
            code: 'conflict',
            message:
              'This transcript was corrected on the server by someone else while your changes waited to be sent. Your version is kept on this computer and was not sent; save again to replace the server’s version with yours.',
          });
          result.conflicts++;
          changed.push(entry.targetId);
          continue;
        }
        // The server keeps the review as a revision and answers its text, one line per segment (decision
        // 0052): that is what a later read of the review will be compared with.
        const saved = await client.saveReview(entry.targetId, entry.payload.reviewedText);
        store.edits.setServerReview(entry.targetId, saved.reviewed_text);
        store.outbox.removeIfUnchanged(entry);
        await this.adoptLatest(entry.targetId);
        result.sent++;
        changed.push(entry.targetId);
      } catch (error) {
        const ipcError: IpcError =
          error instanceof AppFailure
            ? error.error
            : { code: 'internal', message: error instanceof Error ? error.message : String(error) };
        if (keepsWaiting(ipcError.code)) {
          store.outbox.markAttempt(entry.seq, ipcError);
          result.interrupted = true;
          break;
        }
        this.conflict(entry, {
          ...ipcError,
          message:
            ipcError.code === 'not-found'
              ? 'This transcript was deleted on the server, so your corrections could not be sent. They remain on this computer.'
              : `Your corrections could not be sent: ${ipcError.message}`,
        });
        result.conflicts++;
        changed.push(entry.targetId);
      }
    }
    if (changed.length > 0) this.options.onChanged([...new Set(changed)]);
    return result;
  }

  private conflict(entry: OutboxEntry, error: IpcError) {
    this.options.store.outbox.markConflict(entry.seq, error);
    const name = this.options.store.transcriptions.get(entry.targetId)?.name ?? 'A transcript';
    this.options.notify({
      title: 'Corrections not sent',
      body: `${name}: ${error.message}`,
      transcriptionId: entry.targetId,
    });
  }
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
