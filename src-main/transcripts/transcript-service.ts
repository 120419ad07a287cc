// Transcripts as the app shows them: cached records and documents, with local corrections applied and
// speakers named as the document names them; the server's copies are fetched into the cache when needed.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';
import type { ApiTranscription } from '../../src-shared/api-types.js';
import { isProcessing } from '../../src-shared/api/vocabulary.js';
import type { TranscriptDetail, TranscriptFilter, TranscriptionSummary } from '../../src-shared/ipc-contract.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { CachedTranscription } from '../cache/transcription-repository.js';
import { speakerLabelsOf, type SpeakerNameOperation } from '../../src-shared/transcript-editing.js';
import { shownDocument } from '../edits/shown-document.js';
import { AppFailure, appError } from '../app-failure.js';
import { isInside, pathInside } from '../cache/safe-path.js';
import { mediaUrlOf } from '../media-response.js';
import { recognizedSpeakerNames } from '../../src-shared/speaker-names.js';

export interface TranscriptServiceOptions {
  store: CacheStore;
  client: ApiClient;
  /** Where audio is kept for offline playback (one profile's). */
  audioDir: string;
  /** Told when cached transcriptions changed, so the renderer can refresh them. */
  onChanged: (ids: string[]) => void;
  /** Told when a transcription leaves the cache, to drop derived files (peaks). */
  onForget?: (id: string) => void;
}

const REVIEW_REFRESH_MS = 30_000;

/** The extension of a file name, lower case, when it is a plain one (".wav", ".m4a"); else ".audio". */
const audioExtension = (name: string): string => {
  const extension = path.extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(extension) ? extension : '.audio';
};

/** Whether a signed URL can still be used for a while: its `expires` (unix seconds) is a minute away. */
export function signedUrlUsable(url: string | null, syncedAt: string, now = Date.now()): boolean {
  if (!url) return false;
  let expires: number | null = null;
  try {
    const raw = new URL(url).searchParams.get('expires');
    expires = raw && /^\d+$/.test(raw) ? Number(raw) * 1000 : null;
  } catch {
    return false;
  }
  // Servers that do not say when their URLs expire: trust them for five minutes after reading them.
  return expires !== null ? expires - now > 60_000 : now - Date.parse(syncedAt) < 5 * 60_000;
}

export class TranscriptService {
  private readonly store: CacheStore;
  private readonly client: ApiClient;
  private readonly downloads = new Map<string, Promise<string>>();
  private readonly documentFetches = new Map<string, Promise<TranscriptDocument | null>>();
  private readonly reviewCheckedAt = new Map<string, number>();
  /** Transcripts whose local speaker names the server refused in this run of the app. */
  private readonly namesRefused = new Set<string>();

  constructor(private readonly options: TranscriptServiceOptions) {
    this.store = options.store;
    this.client = options.client;
  }

  summaryOf(t: CachedTranscription, speakers?: number, audioCached?: boolean): TranscriptionSummary {
    const processing = isProcessing(t.status);
    return {
      id: t.id,
      name: t.name,
      status: t.status,
      progress: processing ? t.progress : null,
      processingStartedAt: t.processingStartedAt,
      stage: processing ? t.stage : null,
      duration: t.duration,
      speakingDuration: t.speakingDuration,
      // A document without speaker labels was not separated: fall back to what was asked for.
      speakers: speakers || t.numSpeakers,
      languages: t.languages,
      model: t.model,
      userName: t.userName,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      failureReason: t.failureReason,
      warnings: t.warnings,
      failureCode: t.failureCode,
      audioCached: audioCached ?? this.store.audio.get(t.id) !== null,
      dictionaryId: t.dictionaryId,
    };
  }

  list(request: { filter?: TranscriptFilter; offset?: number; limit?: number }): {
    items: TranscriptionSummary[];
    total: number;
  } {
    const filter = request.filter ?? {};
    const text = filter.text?.trim();
    const { items, total } = this.store.transcriptions.list({
      statuses: filter.status,
      language: filter.language,
      ...(text ? { ids: this.store.search.matchingTranscriptionIds(text), nameContains: text } : {}),
      offset: request.offset,
      limit: request.limit,
    });
    const ids = items.map((t) => t.id);
    const speakers = this.store.documents.speakerCounts(ids);
    const audio = this.store.audio.cachedAmong(ids);
    return { items: items.map((t) => this.summaryOf(t, speakers.get(t.id), audio.has(t.id))), total };
  }

  /** Records a server body in the cache and says so. */
  record(t: ApiTranscription): void {
    const change = this.store.transcriptions.upsertFromApi(t);
    if (change.changed) this.options.onChanged([t.transcription_id]);
  }

  /** The cached record, fetched from the server when it is not cached yet. */
  async ensureRecord(id: string): Promise<CachedTranscription> {
    const cached = this.store.transcriptions.get(id);
    if (cached) return cached;
    try {
      this.record(await this.client.getTranscription(id));
    } catch (error) {
      if (error instanceof ApiError && error.error.code === 'offline') {
        throw new AppFailure({
          code: 'not-found',
          reason: 'transcription-unreachable',
        });
      }
      throw error;
    }
    return this.store.transcriptions.get(id)!;
  }

  /** The record with fresh signed URLs (read again from the server when the cached ones are too old). */
  async freshRecord(id: string): Promise<CachedTranscription> {
    this.record(await this.client.getTranscription(id));
    return this.store.transcriptions.get(id)!;
  }

  async detail(id: string): Promise<TranscriptDetail> {
    const record = await this.ensureRecord(id);
    let server = this.store.documents.get(id);
    if (!server && record.status === 'COMPLETED') {
      try {
        server = await this.ensureDocument(id);
      } catch (error) {
        // Offline or failing: show what is cached, the document appears once it can be fetched.
        if (!(error instanceof ApiError)) throw error;
      }
    } else if (server && !this.store.outbox.hasEntriesFor(id)) {
      this.refreshReviewInBackground(id);
    }
    if (server && (await this.sendLocalSpeakerNames(id))) return this.detailFromCache(id);
    return this.detailFromCache(id, server);
  }

  /**
   * Speaker names kept on this computer (named before names were part of the document, or renamed while
   * the server could not take it) go to the server once, as one revision, and are then forgotten here
   * (decision 0055). Where the server already names a label, its name wins. They stay here when the server
   * has no revisions (another implementation of the API) or refuses the write (this run asks no more), while
   * it is unreachable, and while edits made here wait to be sent. True when what is shown changed.
   */
  private async sendLocalSpeakerNames(id: string): Promise<boolean> {
    const local = this.store.edits.speakerNames(id);
    // Most transcripts have no names kept here: no need to read (and parse) a long document to learn it.
    if (Object.keys(local).length === 0) return false;
    const cached = this.store.documents.get(id);
    if (!cached || this.namesRefused.has(id) || this.store.outbox.hasEntriesFor(id)) return false;
    // Only names of labels the transcript has: a name for any other is of no use to send, and stays.
    const cachedLabels = speakerLabelsOf(cached);
    if (!Object.keys(local).some((label) => cachedLabels.has(label))) return false;
    const refused = (error: unknown) => {
      if (!(error instanceof ApiError)) throw error;
      // No revisions here, a read-only key, a refusal: not asked again in this run. The rest: at the next read.
      if (error.status !== null && error.status < 500 && error.status !== 401 && error.status !== 412)
        this.namesRefused.add(id);
    };
    try {
      // A cache from before revisions has documents without `revision`, whatever the server now has: ask.
      await this.client.listRevisions(id);
    } catch (error) {
      refused(error);
      return false;
    }
    const latest = await this.adoptLatestRevision(id);
    if (latest?.revision === undefined) return latest !== null;
    const labels = speakerLabelsOf(latest);
    const settled = Object.keys(local).filter((label) => labels.has(label));
    const operations: SpeakerNameOperation[] = settled
      .filter((label) => !latest.speaker_names?.[label])
      .map((label) => ({ kind: 'speaker-name', speaker: label, name: local[label]! }));
    let document = latest;
    if (operations.length > 0) {
      try {
        const created = await this.client.createRevision(id, latest.revision, operations);
        document = (await this.client.getRevision(id, created.revision)).document;
      } catch (error) {
        refused(error);
        return true;
      }
    }
    this.store.db.transaction(() => {
      if (document !== latest && !this.store.outbox.hasEntriesFor(id)) this.store.documents.put(id, document);
      for (const label of settled) this.store.edits.setSpeakerName(id, label, '');
    })();
    this.options.onChanged([id]);
    return true;
  }

  /** What is cached, without touching the network. */
  detailFromCache(id: string, server = this.store.documents.get(id)): TranscriptDetail {
    const record = this.store.transcriptions.get(id);
    if (!record) throw new AppFailure({ code: 'not-found', reason: 'transcription-not-cached' });
    const document = server ? shownDocument(server, this.store, id) : null;
    // Voices the server recognized, under the shown document's names (shared by the team, renames waiting
    // to be sent included); names kept here only where the server cannot hold them.
    const speakerNames = {
      ...(document ? recognizedSpeakerNames(document.segments) : {}),
      ...document?.speaker_names,
      ...this.store.edits.speakerNames(id),
    };
    const speakers = server ? new Set(server.segments.map((s) => s.speaker).filter(Boolean)).size : undefined;
    const queued = this.store.outbox.forTarget('revision-operations', id) ?? this.store.outbox.forTarget('review', id);
    return {
      summary: this.summaryOf(record, speakers),
      document,
      speakerNames,
      unsyncedEdits: this.store.outbox.hasEntriesFor(id),
      conflict:
        queued?.state === 'conflict'
          ? (queued.lastError ?? appError({ code: 'conflict', reason: 'edits-conflict' }))
          : null,
    };
  }

  /** The server's document (without local edits), downloaded into the cache if needed. */
  ensureDocument(id: string): Promise<TranscriptDocument | null> {
    const cached = this.store.documents.get(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.documentFetches.get(id);
    if (!pending) {
      pending = this.fetchDocument(id).finally(() => this.documentFetches.delete(id));
      this.documentFetches.set(id, pending);
    }
    return pending;
  }

  private async fetchDocument(id: string): Promise<TranscriptDocument | null> {
    let record = await this.ensureRecord(id);
    if (record.status !== 'COMPLETED') return null;
    if (!signedUrlUsable(record.transcriptionPath, record.syncedAt)) record = await this.freshRecord(id);
    let document: TranscriptDocument;
    try {
      document = await this.client.downloadTranscript(record.transcriptionPath!);
    } catch (error) {
      // A URL that expired or points at an old address (the embedded server restarted): once more, fresh.
      if (!(error instanceof ApiError) || (error.status !== 403 && error.error.code !== 'offline')) throw error;
      record = await this.freshRecord(id);
      if (!record.transcriptionPath) return null;
      document = await this.client.downloadTranscript(record.transcriptionPath);
    }
    // Cached and indexed together, so nothing sees the document before search can find it.
    this.store.db.transaction(() => {
      this.store.documents.put(id, document);
      this.reindexTranscript(id);
    })();
    this.options.onChanged([id]);
    // Corrections saved on the server (from another computer) show once read.
    if (await this.syncReview(id).catch(() => false)) this.options.onChanged([id]);
    return document;
  }

  /**
   * Reads the corrected text saved on the server and, when nothing local is waiting to be sent, shows
   * it: another machine's corrections arrive this way. Returns true when what is shown changed.
   */
  async syncReview(id: string): Promise<boolean> {
    const server = this.store.documents.get(id);
    if (!server) return false;
    this.reviewCheckedAt.set(id, Date.now());
    const review = await this.client.getReview(id);
    const text = review?.reviewed_text ?? null;
    const known = this.store.edits.serverReview(id);
    this.store.edits.setServerReview(id, text);
    if (known === text || this.store.outbox.hasEntriesFor(id)) return false;
    // The cache mirrors the server's latest revision (decision 0052); a server without revisions shows its
    // review text mapped onto the cached document (shown-document.ts), now the one just read.
    if (await this.adoptLatestRevision(id)) return true;
    if (server.revision !== undefined) return false;
    this.reindexTranscript(id);
    return true;
  }

  /**
   * Caches the server's latest revision as the document shown, dropping the copy kept here, when nothing
   * edited here waits to be sent. Null when it was not read (no revisions on that server, offline) or
   * an edit was queued meanwhile.
   */
  async adoptLatestRevision(id: string): Promise<TranscriptDocument | null> {
    if (this.store.outbox.hasEntriesFor(id)) return null;
    let document: TranscriptDocument;
    try {
      const { latest_revision: latest } = await this.client.listRevisions(id);
      document = (await this.client.getRevision(id, latest)).document;
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
    if (this.store.outbox.hasEntriesFor(id)) return null;
    this.store.db.transaction(() => {
      this.store.documents.put(id, document);
      this.reindexTranscript(id);
    })();
    return document;
  }

  /**
   * Shows the server's latest revision when a teammate moved the transcript on, for the transcript open in
   * the window (decision 0056). One GET /review naming the revision cached here: 304 while unchanged; the
   * newer revision's document only when there is one. Nothing is taken while an edit made here waits to be
   * sent (its own path shows the latest once sent), nor over a newer revision cached meanwhile (an edit of
   * this window's answered first), nor once `wanted` says no (the user opened an editor meanwhile). True
   * when what is shown changed.
   */
  async followLatest(id: string, wanted: () => boolean = () => true): Promise<boolean> {
    const cached = this.store.documents.get(id);
    if (!cached || this.hasLocalEdits(id)) return false;
    // A server without revisions: its review text, as often as a read of the transcript looks at it.
    if (cached.revision === undefined) {
      if (Date.now() - (this.reviewCheckedAt.get(id) ?? 0) < REVIEW_REFRESH_MS) return false;
      return this.syncReview(id);
    }
    const held = cached.revision;
    const answer = await this.client.reviewSince(id, held);
    this.reviewCheckedAt.set(id, Date.now());
    if (answer === 'unchanged' || answer.revision === null || answer.revision <= held) return false;
    const { document } = await this.client.getRevision(id, answer.revision);
    if (!wanted() || this.hasLocalEdits(id) || (this.store.documents.get(id)?.revision ?? 0) >= answer.revision)
      return false;
    this.store.db.transaction(() => {
      this.store.documents.put(id, document);
      // The text an edit queued later is checked against (the outbox's base).
      this.store.edits.setServerReview(id, answer.review?.reviewed_text ?? null);
      this.reindexTranscript(id);
    })();
    return true;
  }

  /** Edits made here wait to be sent (queued operations or a review text: both are outbox entries, decision 0054). */
  private hasLocalEdits(id: string): boolean {
    return this.store.outbox.hasEntriesFor(id);
  }

  private refreshReviewInBackground(id: string) {
    if (Date.now() - (this.reviewCheckedAt.get(id) ?? 0) < REVIEW_REFRESH_MS) return;
    this.syncReview(id).then(
      (changed) => changed && this.options.onChanged([id]),
      () => {},
    );
  }

  /** Indexes what the user sees: the corrected text where there is one. */
  reindexTranscript(id: string): void {
    const server = this.store.documents.get(id);
    if (!server) return;
    const shown = shownDocument(server, this.store, id);
    this.store.search.indexTranscript(id, shown.segments);
  }

  /**
   * Applies a dictionary's forced replacements on the server (the transcription's own when
   * `dictionaryId` is null), then caches the rewritten document. While edits made here wait to be sent,
   * the revision they were made on stays cached (they apply to it); the rewrite shows once they are sent.
   */
  async applyDictionary(id: string, dictionaryId: string | null): Promise<TranscriptDetail> {
    await this.client.applyReplacements(id, dictionaryId);
    const record = await this.freshRecord(id);
    if (record.transcriptionPath && !this.store.outbox.hasEntriesFor(id)) {
      const document = await this.client.downloadTranscript(record.transcriptionPath);
      this.store.db.transaction(() => {
        this.store.documents.put(id, document);
        this.reindexTranscript(id);
      })();
    }
    this.options.onChanged([id]);
    return this.detailFromCache(id);
  }

  /** Deletes on the server, then forgets it here. */
  async delete(id: string): Promise<void> {
    try {
      await this.client.deleteTranscription(id);
    } catch (error) {
      if (!(error instanceof ApiError && error.error.code === 'not-found')) throw error;
    }
    await this.forget(id);
  }

  /** Removes a transcription and everything derived from it from this computer. */
  async forget(id: string): Promise<void> {
    const audioFile = this.store.audio.delete(id);
    this.store.db.transaction(() => {
      this.store.search.remove(id);
      this.store.outbox.removeForTarget(id);
      this.store.transcriptions.delete(id);
    })();
    this.store.truncateWal();
    if (audioFile && isInside(this.options.audioDir, audioFile)) await fsp.rm(audioFile, { force: true });
    this.options.onForget?.(id);
    this.options.onChanged([id]);
  }

  /** The cached audio file, if it is still on disk. */
  localAudio(id: string): string | null {
    const audio = this.store.audio.get(id);
    if (!audio) return null;
    // A file recorded outside the audio folder is never served (nor deleted): it is forgotten.
    if (isInside(this.options.audioDir, audio.file) && fs.existsSync(audio.file)) return audio.file;
    this.store.audio.delete(id);
    return null;
  }

  /** The audio on this computer, downloaded from the server first if needed. */
  ensureLocalAudio(id: string, signal?: AbortSignal): Promise<string> {
    const local = this.localAudio(id);
    if (local) return Promise.resolve(local);
    let pending = this.downloads.get(id);
    if (!pending) {
      pending = this.downloadAudio(id, signal).finally(() => this.downloads.delete(id));
      this.downloads.set(id, pending);
    }
    return pending;
  }

  private async downloadAudio(id: string, signal?: AbortSignal): Promise<string> {
    pathInside(this.options.audioDir, id);
    let record = await this.ensureRecord(id);
    if (!signedUrlUsable(record.audioPath, record.syncedAt)) record = await this.freshRecord(id);
    if (!record.audioPath) throw new AppFailure({ code: 'not-found', reason: 'audio-not-uploaded' });
    const file = pathInside(this.options.audioDir, `${id}${audioExtension(record.name)}`);
    let result: { bytes: number; contentType: string | null };
    try {
      result = await this.client.downloadToFile(record.audioPath, file, { signal });
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 403 && error.error.code !== 'offline') || signal?.aborted)
        throw error;
      record = await this.freshRecord(id);
      result = await this.client.downloadToFile(record.audioPath!, file, { signal });
    }
    this.store.audio.put({
      transcriptionId: id,
      file,
      size: result.bytes,
      contentType: result.contentType ?? (mime.lookup(file) || null),
      source: 'download',
    });
    this.options.onChanged([id]);
    return file;
  }

  /**
   * A URL the renderer can play: always the local copy, downloaded first when needed. The waveform needs
   * the whole file anyway, it makes playback work offline, and the window's CSP only allows local media.
   */
  async audioSource(id: string): Promise<{ url: string; local: boolean }> {
    await this.ensureLocalAudio(id);
    return { url: mediaUrlOf(id), local: true };
  }

  /** Copies a file uploaded from this machine into the audio cache. */
  async keepUploadedAudio(id: string, sourceFile: string): Promise<void> {
    const file = pathInside(this.options.audioDir, `${id}${audioExtension(sourceFile)}`);
    await fsp.mkdir(this.options.audioDir, { recursive: true });
    await fsp.copyFile(sourceFile, file);
    const { size } = await fsp.stat(file);
    this.store.audio.put({ transcriptionId: id, file, size, contentType: mime.lookup(file) || null, source: 'upload' });
  }

  /** The document with the user's corrections, and the user's names for its speakers, for export. */
  async shownDocument(
    id: string,
  ): Promise<{ record: CachedTranscription; document: TranscriptDocument; speakerNames: Record<string, string> }> {
    const detail = await this.detail(id);
    if (!detail.document) {
      throw new AppFailure({
        code: detail.summary.status === 'COMPLETED' ? 'offline' : 'conflict',
        reason: detail.summary.status === 'COMPLETED' ? 'transcript-unreachable' : 'transcript-not-ready',
      });
    }
    return { record: this.store.transcriptions.get(id)!, document: detail.document, speakerNames: detail.speakerNames };
  }
}
