// The upload queue: many files, a few at a time. Each job gets a ticket (POST /upload), streams its
// file from disk to the ticket's signed URL, then starts the transcription (POST /transcribe). The queue
// is persisted in the cache, so work resumes after a restart with the same ticket unless it has expired.
// Where the upload URL is a tus endpoint (kikitori-server), the transfer resumes from the server's offset
// after a dropped connection or a restart (resumable-upload.ts); elsewhere it is a plain PUT from byte 0.
import { sniffMedia } from './media-sniff.js';
import { speaksTus, uploadResumable } from './resumable-upload.js';
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { ApiTranscription, ApiUploadRequest } from '../../src-shared/api-types.js';
import type { FolderImport, IpcError, UploadJob, UploadOptions } from '../../src-shared/ipc-contract.js';
import { scanFolder } from './folder-scan.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import { backoffDelay } from '../../src-shared/backoff.js';
import { uploadJobOf, type UploadRecord, type UploadRepository } from '../cache/upload-repository.js';
import { AppFailure, appError } from '../app-failure.js';
import { LIMITS } from '../../src-shared/limits.js';

export interface UploadManagerOptions {
  uploads: UploadRepository;
  client: ApiClient;
  /** Uploads running at once. */
  concurrency?: number;
  /** Least time between two progress events of one job. */
  progressIntervalMs?: number;
  /** Told about every change of a job (state, progress). */
  onChange: (job: UploadJob) => void;
  /** Told once the server accepted the transcription, with its record. */
  onStarted?: (transcription: ApiTranscription, job: UploadJob) => void | Promise<void>;
  /** Keeps a copy of the uploaded file (offline playback); failures are ignored. */
  keepAudio?: (transcriptionId: string, filePath: string) => Promise<void>;
  /**
   * Told once a re-run's new transcription has started (after onStarted, and after keepAudio kept its
   * audio): `replaced` is the transcription it replaces. Failures are the callee's to handle.
   */
  onReplacing?: (replaced: string, transcription: ApiTranscription) => Promise<void>;
  /** Waits before retrying after the server could not be reached: attempt -> ms. */
  retryDelayMs?: (attempt: number) => number;
  chunkBytes?: number;
  /** Use tus where the server offers it (default); false always PUTs. */
  resumable?: boolean;
  now?: () => number;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  /** Why it was aborted: the user cancelled, or the manager is stopping (the job stays queued). */
  reason: 'cancel' | 'stop' | null;
}

/** A ticket this close to expiry is not worth starting a long upload with. */
const TICKET_MARGIN_MS = 5_000;
const FINISHED_KEPT_MS = 7 * 24 * 3600_000;

/** The name the server is told, within its LIMITS.filename characters: a longer one keeps its start and its extension. */
export function uploadFileName(fileName: string): string {
  const chars = [...fileName];
  if (chars.length <= LIMITS.filename) return fileName;
  const extension = [...path.extname(fileName)];
  const keep = extension.length < 16 ? extension : [];
  return [...chars.slice(0, LIMITS.filename - keep.length), ...keep].join('');
}

export function uploadRequestOf(fileName: string, options: UploadOptions): ApiUploadRequest {
  // With multichannel the channels are the speakers: counts would be refused (decision 0061), so they are not sent.
  const counts = !options.multichannel;
  return {
    filename: uploadFileName(fileName),
    ...(options.language ? { language: options.language } : {}),
    transcription_model: options.model,
    ...(counts && options.numSpeakers !== null ? { num_speakers: options.numSpeakers } : {}),
    ...(counts && options.minSpeakers !== null ? { min_speakers: options.minSpeakers } : {}),
    ...(counts && options.maxSpeakers !== null ? { max_speakers: options.maxSpeakers } : {}),
    ...(options.multichannel ? { multichannel: true } : {}),
    ...(options.dictionaryId ? { dictionary_id: options.dictionaryId } : {}),
    ...(options.words.length > 0
      ? { words: options.words.map((w) => (w.reading ? { word: w.word, reading: w.reading } : { word: w.word })) }
      : {}),
  };
}

export class UploadManager {
  private readonly running = new Map<string, Running>();
  private readonly retryAt = new Map<string, number>();
  private readonly attempts = new Map<string, number>();
  private readonly lastProgress = new Map<string, number>();
  private retryTimer: NodeJS.Timeout | null = null;
  private started = false;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(private readonly options: UploadManagerOptions) {
    this.concurrency = options.concurrency ?? 2;
    this.now = options.now ?? Date.now;
  }

  /** Resumes persisted work: an interrupted tus upload continues from the server's offset, a PUT from byte 0. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { uploads } = this.options;
    for (const job of uploads.list()) {
      if (job.state === 'uploading') this.change(uploads.update(job.id, { state: 'queued', sentBytes: 0 })!);
      else if (
        ['done', 'failed', 'cancelled'].includes(job.state) &&
        this.now() - Date.parse(job.createdAt) > FINISHED_KEPT_MS
      )
        uploads.delete(job.id);
    }
    this.pump();
  }

  /** Aborts running transfers without cancelling them: they stay queued for the next start. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const running = [...this.running.values()];
    for (const r of running) {
      r.reason = 'stop';
      r.controller.abort();
    }
    await Promise.all(running.map((r) => r.done));
  }

  /** Try waiting jobs now (e.g. the server is reachable again). */
  kick(): void {
    this.retryAt.clear();
    this.attempts.clear();
    this.pump();
  }

  list(): UploadJob[] {
    return this.options.uploads.list().map(uploadJobOf);
  }

  /** Queues files. Every path is checked first; one unreadable file refuses the whole request. */
  async add(paths: string[], options: UploadOptions): Promise<UploadJob[]> {
    const files: Array<{ filePath: string; size: number }> = [];
    for (const given of paths) files.push(await checkedFile(given));
    const createdAt = new Date(this.now()).toISOString();
    const jobs = files.map((f) =>
      this.options.uploads.insert({
        id: randomUUID(),
        filePath: f.filePath,
        fileName: path.basename(f.filePath),
        size: f.size,
        options,
        createdAt,
      }),
    );
    for (const job of jobs) this.change(job);
    this.pump();
    return jobs.map(uploadJobOf);
  }

  /**
   * Queues the audio and video files of a folder and its subfolders (folder-scan.ts), oldest first in
   * the order a file manager lists them, and counts what it left out and why. A folder with none is not
   * an error: the answer says so.
   */
  async addFolder(given: string, options: UploadOptions): Promise<FolderImport> {
    const root = path.resolve(given);
    const folder = path.basename(root) || root;
    try {
      if (!(await fsp.stat(root)).isDirectory()) throw new Error('not a folder');
      await fsp.access(root, fsp.constants.R_OK);
    } catch {
      throw new AppFailure({
        code: 'validation',
        field: 'folder',
        reason: 'folder-unreadable',
        params: { folder },
      });
    }
    const scan = await scanFolder(root);
    const createdAt = this.now();
    // One millisecond apart, so the queue keeps the folder's order (jobs are ordered by creation time).
    const jobs = scan.files.map((file, index) =>
      this.options.uploads.insert({
        id: randomUUID(),
        filePath: file.filePath,
        fileName: path.basename(file.filePath),
        size: file.size,
        options,
        createdAt: new Date(createdAt + index).toISOString(),
      }),
    );
    for (const job of jobs) this.change(job);
    this.pump();
    return {
      folder,
      jobs: jobs.map(uploadJobOf),
      skipped: scan.skipped,
      notMedia: scan.notMedia,
      foldersTooDeep: scan.tooDeep,
    };
  }

  /**
   * Queues one file to transcribe a transcription again (a re-run, decision 0020), under that
   * transcription's name. With `replaces`, that transcription is handed to `onReplacing` once the new
   * one has started and its audio has been kept, never before.
   */
  async addRerun(file: string, fileName: string, options: UploadOptions, replaces: string | null): Promise<UploadJob> {
    const { filePath, size } = await checkedFile(file, fileName);
    const job = this.options.uploads.insert({
      id: randomUUID(),
      filePath,
      fileName,
      size,
      options,
      createdAt: new Date(this.now()).toISOString(),
      replaces,
    });
    this.change(job);
    this.pump();
    return uploadJobOf(job);
  }

  /**
   * Tries a job again now: a failed or cancelled one is queued again (its file is checked once more),
   * a waiting one (the server could not be reached) stops waiting. A done or running job is answered as is.
   */
  async retry(id: string): Promise<UploadJob> {
    const { uploads } = this.options;
    const job = uploads.get(id);
    if (!job) throw new AppFailure({ code: 'not-found', reason: 'upload-not-listed' });
    if (job.state === 'failed' || job.state === 'cancelled') {
      await checkedFile(job.filePath, job.fileName);
      this.change(uploads.update(id, { state: 'queued', sentBytes: 0, error: null })!);
    }
    this.retryAt.delete(id);
    this.attempts.delete(id);
    this.pump();
    return uploadJobOf(uploads.get(id)!);
  }

  /** Removes done and cancelled jobs from the list (their transcriptions stay in the library). */
  clearFinished(): number {
    return this.options.uploads.deleteFinished();
  }

  /** Cancels a waiting or running job; its ticket on the server is deleted when possible. */
  async cancel(id: string): Promise<void> {
    const { uploads } = this.options;
    const job = uploads.get(id);
    if (!job) throw new AppFailure({ code: 'not-found', reason: 'upload-not-listed' });
    if (!['queued', 'uploading', 'starting'].includes(job.state)) return;
    // Recorded first, so nothing picks the job up again while the transfer winds down.
    uploads.update(id, { state: 'cancelled', error: null });
    this.retryAt.delete(id);
    const running = this.running.get(id);
    if (running) {
      running.reason = 'cancel';
      running.controller.abort();
      await running.done;
    }
    const after = uploads.get(id)!;
    if (after.state === 'done') return; // it finished before the abort landed
    this.change(uploads.update(id, { state: 'cancelled', uploadUrl: null, resumeUrl: null })!);
    if (after.transcriptionId) this.abandonTicket(after.transcriptionId);
  }

  private pump(): void {
    if (!this.started) return;
    const now = this.now();
    for (const job of this.options.uploads.unfinished()) {
      if (this.running.size >= this.concurrency) break;
      if (this.running.has(job.id)) continue;
      if ((this.retryAt.get(job.id) ?? 0) > now) continue;
      this.launch(job);
    }
    this.scheduleRetry();
  }

  private scheduleRetry() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const next = Math.min(...this.retryAt.values());
    if (!Number.isFinite(next) || !this.started) return;
    this.retryTimer = setTimeout(() => this.pump(), Math.max(0, next - this.now()));
    this.retryTimer.unref?.();
  }

  private launch(job: UploadRecord) {
    const entry: Running = { controller: new AbortController(), done: Promise.resolve(), reason: null };
    this.running.set(job.id, entry);
    entry.done = this.run(job, entry).finally(() => {
      this.running.delete(job.id);
      this.lastProgress.delete(job.id);
      this.pump();
    });
  }

  private async run(job: UploadRecord, entry: Running): Promise<void> {
    const { uploads } = this.options;
    const signal = entry.controller.signal;
    try {
      let record = job;
      // A restart can land between a finished upload and /transcribe: then only /transcribe is left.
      for (let round = 0; round < 2; round++) {
        if (record.state !== 'starting') record = await this.upload(record, signal);
        const outcome = await this.startTranscription(record, signal);
        if (outcome === 'done') return;
        record = uploads.update(record.id, {
          state: 'queued',
          sentBytes: 0,
          resumeUrl: null,
          ...(outcome === 'new-ticket' ? { uploadUrl: null } : {}),
        })!;
      }
      throw new ApiError({ code: 'conflict', reason: 'upload-refused' }, null);
    } catch (error) {
      if (entry.reason === 'cancel') return; // cancel() records the state
      if (entry.reason === 'stop') {
        const current = uploads.get(job.id);
        if (current?.state === 'uploading') uploads.update(job.id, { state: 'queued', sentBytes: 0 });
        return;
      }
      this.fail(job.id, error);
    }
  }

  /** Gets a ticket if needed and streams the file. Returns the job in state 'starting'. */
  private async upload(job: UploadRecord, signal: AbortSignal): Promise<UploadRecord> {
    const { uploads, client } = this.options;
    let record = job;
    for (let ticketRound = 0; ; ticketRound++) {
      if (!record.uploadUrl || !record.transcriptionId || this.expired(record)) {
        if (record.transcriptionId && record.uploadUrl) this.abandonTicket(record.transcriptionId);
        const ticket = await client.requestUpload(uploadRequestOf(record.fileName, record.options), { signal });
        record = uploads.update(record.id, {
          transcriptionId: ticket.transcription_id,
          uploadUrl: ticket.audio_upload_url,
          uploadExpiresAt: ticket.audio_upload_expires_at ?? null,
          resumeUrl: null,
        })!;
      }
      record = uploads.update(record.id, { state: 'uploading', sentBytes: 0, error: null })!;
      this.change(record);
      try {
        await this.transfer(record, signal);
      } catch (error) {
        if (error instanceof ApiError && ticketRound === 0 && this.ticketGone(error)) {
          // The server says the ticket expired or was closed: a new one, once.
          record = uploads.update(record.id, { uploadUrl: null, resumeUrl: null })!;
          continue;
        }
        if (!(error instanceof ApiError && error.errorCode === ErrorCode.UPLOAD_ALREADY_COMPLETED)) throw error;
        // Uploaded before an interruption that kept us from recording it: nothing to send again.
      }
      record = uploads.update(record.id, {
        state: 'starting',
        sentBytes: record.size,
        uploadUrl: null,
        resumeUrl: null,
      })!;
      this.change(record);
      if (this.options.keepAudio)
        await this.options.keepAudio(record.transcriptionId!, record.filePath).catch(() => {});
      return record;
    }
  }

  /** Sends the file: with tus where the upload URL speaks it, resuming the job's upload; else a plain PUT. */
  private async transfer(record: UploadRecord, signal: AbortSignal): Promise<void> {
    const { uploads, client } = this.options;
    const contentType = mime.lookup(record.fileName) || 'application/octet-stream';
    const onProgress = (sent: number) => {
      if (!signal.aborted) this.progress(record.id, sent, record.size);
    };
    if (
      this.options.resumable !== false &&
      (record.resumeUrl !== null || (await speaksTus(record.uploadUrl!, signal)))
    ) {
      const outcome = await uploadResumable({
        endpoint: record.uploadUrl!,
        filePath: record.filePath,
        fileName: uploadFileName(record.fileName),
        contentType,
        resumeUrl: record.resumeUrl,
        signal,
        onProgress,
        onResumeUrl: (url) => void uploads.update(record.id, { resumeUrl: url }),
      });
      if (outcome === 'uploaded') return;
    }
    await client.uploadFile(record.uploadUrl!, record.filePath, {
      signal,
      contentType,
      chunkBytes: this.options.chunkBytes,
      onProgress,
    });
  }

  /** 'done', or what has to happen before trying again. */
  private async startTranscription(
    job: UploadRecord,
    signal: AbortSignal,
  ): Promise<'done' | 'upload-again' | 'new-ticket'> {
    const { uploads, client } = this.options;
    let transcription: ApiTranscription;
    try {
      transcription = await client.transcribe(job.transcriptionId!, { signal });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.errorCode === ErrorCode.UPLOAD_NOT_COMPLETE) return 'upload-again';
      if (error.errorCode !== ErrorCode.TRANSCRIPTION_ALREADY_ENDED) throw error;
      // Started before a restart and already over; unless the server gave up on the ticket.
      transcription = await client.getTranscription(job.transcriptionId!, { signal });
      if (transcription.status === 'CANCELLED') return 'new-ticket';
    }
    const done = uploads.update(job.id, { state: 'done', error: null, startedAt: transcription.updated_at })!;
    this.attempts.delete(job.id);
    this.change(done);
    await this.options.onStarted?.(transcription, uploadJobOf(done));
    if (done.replaces) await this.options.onReplacing?.(done.replaces, transcription).catch(() => {});
    return 'done';
  }

  private fail(id: string, error: unknown) {
    const ipcError = toIpcError(error);
    if (ipcError.code === 'offline' || ipcError.code === 'server') {
      // The network or the server: wait, then try again (kick() tries at once when back online).
      const attempt = this.attempts.get(id) ?? 0;
      this.attempts.set(id, attempt + 1);
      // Never sooner than the server asked (Retry-After on a 429 or 503).
      const backoff =
        this.options.retryDelayMs?.(attempt) ?? backoffDelay(attempt, { baseDelayMs: 2_000, maxDelayMs: 60_000 });
      const delay = Math.max(backoff, error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0);
      this.retryAt.set(id, this.now() + delay);
      const starting = this.options.uploads.get(id)?.state === 'starting';
      this.change(
        this.options.uploads.update(
          id,
          starting ? { error: ipcError } : { state: 'queued', sentBytes: 0, error: ipcError },
        )!,
      );
      return;
    }
    this.change(this.options.uploads.update(id, { state: 'failed', error: ipcError })!);
  }

  private expired(job: UploadRecord): boolean {
    return job.uploadExpiresAt !== null && Date.parse(job.uploadExpiresAt) - TICKET_MARGIN_MS < this.now();
  }

  private ticketGone(error: ApiError): boolean {
    return (
      error.errorCode === ErrorCode.EXPIRED_SIGNATURE ||
      error.errorCode === ErrorCode.UPLOAD_CLOSED ||
      error.errorCode === ErrorCode.TRANSCRIPTION_NOT_FOUND
    );
  }

  /** Best effort: a ticket never used is CANCELLED by the server on its own when it expires. */
  private abandonTicket(transcriptionId: string) {
    this.options.client.deleteTranscription(transcriptionId).catch(() => {});
  }

  private progress(id: string, sent: number, size: number) {
    const now = this.now();
    const last = this.lastProgress.get(id);
    if (last !== undefined && now - last < (this.options.progressIntervalMs ?? 250) && sent < size) return;
    this.lastProgress.set(id, now);
    const updated = this.options.uploads.update(id, { sentBytes: sent });
    if (updated) this.change(updated);
  }

  private change(job: UploadRecord) {
    this.options.onChange(uploadJobOf(job));
  }
}

/** A readable, non-empty audio or video file, or a failure in the user's terms. `shownName` names it in messages. */
async function checkedFile(given: string, shownName?: string): Promise<{ filePath: string; size: number }> {
  const filePath = path.resolve(given);
  const name = shownName ?? path.basename(filePath);
  let size: number;
  try {
    const stat = await fsp.stat(filePath);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new AppFailure({
      code: 'validation',
      field: 'files',
      reason: 'file-unreadable',
      params: { name },
    });
  }
  if (size === 0) throw new AppFailure({ code: 'validation', field: 'files', reason: 'file-empty', params: { name } });
  const sniff = await sniffMedia(filePath);
  if (!sniff.media) {
    throw new AppFailure({
      code: 'validation',
      field: 'files',
      reason: sniff.detected === 'text' ? 'not-media-text' : 'not-media',
      params: { name, kind: sniff.detected.toUpperCase() },
    });
  }
  return { filePath, size };
}

function toIpcError(error: unknown): IpcError {
  if (error instanceof AppFailure) return error.error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
    return appError({ code: 'not-found', field: 'files', reason: 'file-gone' });
  }
  return appError({
    code: 'internal',
    reason: 'upload-unexpected',
    detail: error instanceof Error ? error.message : String(error),
  });
}
