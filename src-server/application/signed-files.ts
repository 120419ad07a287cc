// The signed file URLs (/files/*, decision 0043): no API key, the URL's signature is the credential. Reading a
// transcription's stored audio (or where the store serves it, in S3 mode) and its transcript, and storing the
// audio a PUT streams to its upload URL. The routes parse the URL and headers, and write the bytes out.
import type { Readable } from 'node:stream';
import type { AppContext } from '../app-context.js';
import type { TranscriptionRecord } from '../domain/records.js';
import { audioContentType, audioResponseHeaders } from '../domain/served-audio.js';
import {
  CONTENT_TYPES,
  renderTranscript,
  type DownloadOptions,
  type TranscriptFormat,
} from '../domain/transcript-formats.js';
import type { SignedPurpose } from '../signing/url-signer.js';
import { ObjectTooLargeError } from '../storage/storage.js';
import { audioDownloadRedirect } from './direct-uploads.js';
import { errors } from './errors.js';
import {
  diskFullWhileStoring,
  isDiskFull,
  quotaExceededBy,
  uploadAllowance,
  type UploadAllowance,
} from './storage-guards.js';

/** What a signed URL carries: the transcription it names, and its expiry and signature as sent. */
export interface SignedUrl {
  id: string;
  expires: string | undefined;
  signature: string | undefined;
}

/** Checks the URL's signature and expiry, then loads the transcription it names (404 if gone). */
export async function signedTranscription(
  ctx: AppContext,
  purpose: SignedPurpose,
  url: SignedUrl,
): Promise<TranscriptionRecord> {
  const verdict = ctx.signer.verify(purpose, url.id, url.expires, url.signature);
  if (verdict === 'invalid') throw errors.invalidSignature();
  if (verdict === 'expired') throw errors.expiredSignature();
  const record = await ctx.transcriptions.getById(url.id);
  if (!record) throw errors.transcriptionNotFound(url.id);
  return record;
}

/** Where a transcription's audio is: at the store (S3 mode: a presigned GET), or here, `size` bytes long. */
export type AudioDownload =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'stored';
      size: number;
      contentType: string;
      contentDisposition: string;
      /** The bytes, or the inclusive range start..end of them. */
      read(range?: { start: number; end: number }): Promise<Readable>;
    };

export async function downloadAudio(ctx: AppContext, url: SignedUrl): Promise<AudioDownload> {
  const record = await signedTranscription(ctx, 'audio', url);
  const key = record.audioKey;
  // S3 mode: the store serves the bytes (and the Range) itself; this node only signs the way there.
  const redirect = key ? await audioDownloadRedirect(ctx, { ...record, audioKey: key }) : null;
  if (redirect) return { kind: 'redirect', url: redirect };
  const stat = key ? await ctx.storage.stat(key) : null;
  if (!key || !stat) throw errors.transcriptionNotFound(record.transcriptionId);
  return {
    kind: 'stored',
    size: stat.size,
    ...audioResponseHeaders(record),
    read: (range) => ctx.storage.read(key, range),
  };
}

/**
 * The transcript's latest revision in `format` (decision 0052), rendered with the options asked for
 * (decision 0067), with that revision's number for the ETag. An option the format has no use for is refused,
 * so a typo'd format does not silently drop what was asked.
 */
export async function downloadTranscript(
  ctx: AppContext,
  url: SignedUrl,
  format: TranscriptFormat,
  options: DownloadOptions = {},
): Promise<{ contentType: string; body: string; revision: number | undefined }> {
  const subtitles = format === 'srt' || format === 'vtt';
  const misplaced =
    (!subtitles && options.subtitles && Object.values(options.subtitles).some((v) => v !== undefined)
      ? 'subtitles'
      : null) ??
    (format !== 'txt' && options.timestamps !== undefined ? 'timestamps' : null) ??
    (format === 'json' && options.speakers !== undefined ? 'speakers' : null);
  if (misplaced) throw errors.validation(misplacedOption(misplaced, format), misplacedField(misplaced, options));
  const record = await signedTranscription(ctx, 'transcript', url);
  if (!record.transcriptKey) throw errors.resultNotReady(record.transcriptionId);
  const document = await ctx.service.readDocument(record);
  return {
    contentType: CONTENT_TYPES[format],
    body: renderTranscript(document, format, options),
    revision: document.revision,
  };
}

const FORMATS_OF = { subtitles: 'srt or vtt', timestamps: 'txt', speakers: 'srt, vtt or txt' } as const;

function misplacedOption(option: keyof typeof FORMATS_OF, format: TranscriptFormat): string {
  return `That option applies only to format=${FORMATS_OF[option]}, not ${format}. Drop it, or ask for a format it applies to.`;
}

/** The query parameter to name in the error body. */
function misplacedField(option: keyof typeof FORMATS_OF, options: DownloadOptions): string {
  if (option !== 'subtitles') return option;
  const given = Object.entries(options.subtitles ?? {}).find(([, v]) => v !== undefined)?.[0] ?? 'maxCharsPerLine';
  return given.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The body of a PUT to a signed upload URL, as the route read its headers. */
export interface AudioUpload {
  body: Readable;
  /** Content-Length; null when not sent (chunked). */
  declaredBytes: number | null;
  /** The Content-Type sent: a claim, kept only when it names audio and the file name does not. */
  contentType: string | undefined;
  /** The SHA-256 the client named (hex), checked once the body has arrived. */
  expectedSha256: string | undefined;
}

export interface StoredAudio {
  transcriptionId: string;
  size: number;
  sha256: string;
}

/**
 * Stores the ticket's audio once, within the team's quota and the disk's reserve. The route refuses a
 * Content-Length over the upload limit itself, before the body is read (decision 0048).
 */
export async function storeUploadedAudio(
  ctx: AppContext,
  record: TranscriptionRecord,
  upload: AudioUpload,
): Promise<StoredAudio> {
  if (upload.declaredBytes === 0)
    throw errors.validation('The uploaded file is empty. PUT the audio file as the request body.');
  const limit = ctx.config.uploads.maxBytes;
  // Quota and disk are checked only for a PUT that may store something (a used or closed URL answers 409).
  let allowance: UploadAllowance | null = null;
  if (record.uploadStatus !== 'COMPLETED' && record.status === 'IN_PROGRESS') {
    allowance = await uploadAllowance(ctx, record, upload.declaredBytes);
  }
  try {
    const outcome = await ctx.service.receiveUpload(
      record,
      upload.body,
      audioContentType(record.name, upload.contentType),
      allowance?.maxBytes ?? limit,
      upload.expectedSha256,
    );
    if (outcome.kind === 'reused') throw errors.uploadAlreadyCompleted();
    if (outcome.kind === 'closed') throw errors.uploadClosed(outcome.status);
    if (outcome.kind === 'checksum-mismatch') throw errors.checksumMismatch();
    return { transcriptionId: record.transcriptionId, size: outcome.size, sha256: outcome.sha256 };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) {
      if (allowance?.quotaBound)
        throw quotaExceededBy(allowance.quotaBytes!, await ctx.storageUsage.audioBytes(record.teamId), null);
      throw errors.payloadTooLarge(limit);
    }
    if (isDiskFull(error)) throw diskFullWhileStoring();
    throw error;
  }
}
