// Resumable (tus) uploads to a ticket's signed audio_upload_url (decisions 0032, 0043): which ticket and upload a
// request may reach, the hold each open upload keeps on its team's quota, and the commit when the last byte has
// arrived, exactly as a PUT stores (TranscriptionService.receiveUpload: single-use winner, SHA-256, optional
// checksum). The route speaks the protocol through @tus/server, whose file store keeps each partial upload as
// `<upload id>` (and `<upload id>.json`) under tusDirectory().
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { StorageUsageRepository } from '../db/storage-usage-repository.js';
import type { TranscriptionRecord } from '../domain/records.js';
import { audioContentType } from '../domain/served-audio.js';
import { ObjectTooLargeError } from '../storage/storage.js';
import { errors } from './errors.js';
import { signedTranscription, type SignedUrl } from './signed-files.js';
import {
  checkTusSize,
  diskFullWhileStoring,
  isDiskFull,
  openTusUpload,
  reserveTusUpload,
  tusAppendAllowance,
} from './storage-guards.js';

/** Where partial tus uploads live: `<transcription id>_<random>` plus @tus/file-store's `.json` beside it. */
export const tusDirectory = (dataDir: string) => path.join(dataDir, 'tus-uploads');

/** Upload ids carry their transcription's id, so a signed URL reaches only its own uploads. */
const uploadIdPattern = /^(.+)_[0-9a-f]{32}$/;

/** An upload a request may reach: its ticket (verified), and its id (the ticket's own). */
export interface ResumableUpload {
  record: TranscriptionRecord;
  uploadId: string;
}

/** The ticket a tus request names: the signed URL, single use, still taking audio. */
export async function resumableTicket(ctx: AppContext, url: SignedUrl): Promise<TranscriptionRecord> {
  const record = await signedTranscription(ctx, 'upload', url);
  if (record.uploadStatus === 'COMPLETED') throw errors.uploadAlreadyCompleted();
  if (record.status !== 'IN_PROGRESS') throw errors.uploadClosed(record.status);
  return record;
}

/** The upload a HEAD, PATCH or DELETE names, accepted only when its id begins with the verified ticket's id. */
export async function resumableUpload(ctx: AppContext, url: SignedUrl, uploadId: string): Promise<ResumableUpload> {
  const record = await resumableTicket(ctx, url);
  if (uploadIdPattern.exec(uploadId)?.[1] !== record.transcriptionId) throw errors.tusUploadNotFound();
  return { record, uploadId };
}

/**
 * A new upload of `size` bytes to the ticket: its id is chosen here, so that its size is held against the
 * quota (and under the cap on open uploads) before it exists.
 */
export async function createResumableUpload(
  ctx: AppContext,
  record: TranscriptionRecord,
  size: number,
): Promise<ResumableUpload> {
  if (size === 0) throw errors.validation('The uploaded file is empty. Upload the audio file.');
  const limit = ctx.config.uploads.maxBytes;
  if (size > limit) throw errors.payloadTooLarge(limit);
  const uploadId = `${record.transcriptionId}_${randomBytes(16).toString('hex')}`;
  await reserveTusUpload(ctx, record, uploadId, size);
  return { record, uploadId };
}

/** Before a HEAD: the upload is still open (it holds its reservation), else 404. */
export async function resumableOffset(ctx: AppContext, url: SignedUrl, uploadId: string): Promise<ResumableUpload> {
  const upload = await resumableUpload(ctx, url, uploadId);
  await openTusUpload(ctx, upload.record, upload.uploadId);
  return upload;
}

/** Before a PATCH, refused before its body is read: still open, within the quota, and the disk takes it. */
export async function resumableAppend(
  ctx: AppContext,
  url: SignedUrl,
  uploadId: string,
  declaredBytes: number | null,
): Promise<ResumableUpload> {
  const upload = await resumableUpload(ctx, url, uploadId);
  await tusAppendAllowance(ctx, upload.record, upload.uploadId, declaredBytes);
  return upload;
}

/** The metadata a finished upload was created with. */
export interface FinishedUpload {
  uploadId: string;
  /** Bytes received: the whole file. */
  size: number;
  /** The client's claimed media type (tus `filetype`). */
  filetype: string | null | undefined;
  /** The SHA-256 (hex) the client named at creation. */
  sha256: string | null | undefined;
}

/**
 * The last byte of the ticket's upload arrived: the whole file is checked against the quota (not just the last
 * PATCH) and stored as a PUT would. Throws closed errors for every refusal. The caller drops the partial file
 * and the upload's hold (releaseResumableUpload) either way.
 */
export async function finishResumableUpload(
  ctx: AppContext,
  transcriptionId: string,
  upload: FinishedUpload,
): Promise<void> {
  const record = await ctx.transcriptions.getById(transcriptionId);
  if (!record) throw errors.transcriptionNotFound(transcriptionId);
  await checkTusSize(ctx, record, upload.size);
  const limit = ctx.config.uploads.maxBytes;
  let outcome;
  try {
    outcome = await ctx.service.receiveUpload(
      record,
      fs.createReadStream(path.join(tusDirectory(ctx.config.dataDir), upload.uploadId)),
      audioContentType(record.name, upload.filetype),
      limit,
      upload.sha256 ?? undefined,
    );
  } catch (error) {
    if (error instanceof ObjectTooLargeError) throw errors.payloadTooLarge(limit);
    if (isDiskFull(error)) throw diskFullWhileStoring();
    throw error;
  }
  if (outcome.kind === 'reused') throw errors.uploadAlreadyCompleted();
  if (outcome.kind === 'closed') throw errors.uploadClosed(outcome.status);
  if (outcome.kind === 'checksum-mismatch') throw errors.checksumMismatch();
}

/** The upload no longer holds any of its team's quota, nor a place under the cap on open uploads. */
export async function releaseResumableUpload(ctx: AppContext, uploadId: string): Promise<void> {
  await ctx.storageUsage.releaseUpload(uploadId).catch((error: unknown) => {
    // Left held, it is released by the sweep when its ticket ends.
    ctx.logger.error({ err: error }, 'a resumable upload could not release its quota reservation');
  });
}

/** A creation that failed: its hold is released unless @tus/server got as far as creating the upload. */
export async function releaseUnlessCreated(ctx: AppContext, uploadId: string): Promise<void> {
  const created = await fsp.stat(path.join(tusDirectory(ctx.config.dataDir), uploadId)).then(
    () => true,
    () => false,
  );
  if (!created) await releaseResumableUpload(ctx, uploadId);
}

/**
 * Everything under tus-uploads/ that holds no reservation of a ticket that still takes audio goes: partial
 * uploads of expired, used or deleted tickets, ended uploads, and anything else (a folder, a stray file),
 * whole. Returns how many entries were removed, not counting the uploads' `.json` files.
 */
export async function sweepTusUploads(dataDir: string, usage: StorageUsageRepository): Promise<number> {
  await usage.releaseEnded();
  const directory = tusDirectory(dataDir);
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(directory, { withFileTypes: true });
  } catch {
    return 0;
  }
  const uploadIdOf = (name: string) => (name.endsWith('.json') ? name.slice(0, -5) : name);
  // Listed after the release above, and every reservation is written before its upload's files: a file
  // listed here whose upload is still open is held now.
  const candidates = entries
    .filter((e) => e.isFile() && uploadIdPattern.test(uploadIdOf(e.name)))
    .map((e) => uploadIdOf(e.name));
  const held = await usage.heldUploads([...new Set(candidates)]);
  let removed = 0;
  for (const entry of entries) {
    if (entry.isFile() && held.has(uploadIdOf(entry.name))) continue;
    await fsp.rm(path.join(directory, entry.name), { recursive: true, force: true });
    if (!entry.name.endsWith('.json')) removed += 1;
  }
  return removed;
}
