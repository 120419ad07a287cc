// Resumable uploads (tus 1.0) on the ticket's signed audio_upload_url, with @tus/server and its file store
// (decision 0032). Fastify checks the signed URL and the limits first and renders every refusal in the spec's
// error body; @tus/server then speaks the protocol. When the last byte arrives the upload commits exactly as a
// PUT does (TranscriptionService.receiveUpload: single-use winner, SHA-256, optional checksum), and the partial
// file is dropped. Partial uploads of tickets that can no longer take audio go with the expiry sweep.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { tusAppend, tusCreate, tusOffset, tusOptions, tusTerminate } from '../../../../src-shared/api/files.js';
import type { AppContext } from '../../../app-context.js';
import type { TranscriptionRepository } from '../../../db/transcription-repository.js';
import type { TranscriptionRecord } from '../../../domain/records.js';
import { ObjectTooLargeError } from '../../../storage/storage.js';
import type { RouteModule } from '../../api-app.js';
import { expectedSha256 } from '../../content-digest.js';
import { AppError, errors } from '../../errors.js';
import { isDiskFull, uploadAllowance } from '../../storage-guards.js';
import { verifiedTranscription } from './signed-request.js';
import { audioContentType } from './upload-audio.js';

/** Where partial tus uploads live: `<transcription id>_<random>` plus @tus/file-store's `.json` beside it. */
export const tusDirectory = (dataDir: string) => path.join(dataDir, 'tus-uploads');

const UPLOAD_PATH = /^\/files\/upload\/([^/?]+)(?:\/tus\/([^/?]+))?/;
/** Upload ids carry their transcription's id, so a signed URL reaches only its own uploads. */
const uploadIdPattern = /^(.+)_[0-9a-f]{32}$/;

function pathOf(url: string): { transcriptionId: string; uploadId: string | undefined } | null {
  const match = UPLOAD_PATH.exec(new URL(url, 'http://x').pathname);
  if (!match) return null;
  return { transcriptionId: decodeURIComponent(match[1]!), uploadId: match[2] === undefined ? undefined : decodeURIComponent(match[2]) };
}

/** What a refusal inside @tus/server's hooks was, so the route renders it as itself. */
const hookErrors = new WeakMap<Request, AppError>();

/** A refusal in @tus/server's terms (it answers `status_code` and `body`); the route renders the AppError. */
class TusRefusal extends Error {
  readonly status_code: number;
  readonly body: string;
  constructor(error: AppError) {
    super(error.message);
    this.status_code = error.statusCode;
    this.body = error.message;
  }
}

function refuse(request: Request, error: AppError): never {
  hookErrors.set(request, error);
  throw new TusRefusal(error);
}

/** @tus/server's own refusals, in the closed set of error codes (a tus client keys on the status). */
function tusError(status: number, body: string): AppError {
  const detail = body.trim().replace(/\s+/g, ' ').slice(0, 200);
  if (status === 404 || status === 410) return errors.tusUploadNotFound();
  if (status === 409) return errors.uploadOffsetMismatch();
  if (status === 412) return errors.tusVersionUnsupported();
  if (status === 413) {
    return new AppError(413, 'PAYLOAD_TOO_LARGE', `The upload sent more bytes than its Upload-Length (${detail}). Create a new upload with the file's real size.`);
  }
  if (status >= 500 && status !== 501) return new AppError(500, 'INTERNAL_ERROR', "The upload could not be stored. Try again; if it keeps failing, tell the server's administrator.");
  return errors.tusRequestInvalid(detail);
}

class TusUploads {
  readonly server: TusServer;
  private readonly directory: string;

  constructor(private readonly ctx: AppContext) {
    this.directory = tusDirectory(ctx.config.dataDir);
    fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    this.server = new TusServer({
      path: '/files/upload',
      datastore: new FileStore({ directory: this.directory }),
      maxSize: ctx.config.uploads.maxBytes,
      // Creation and deferred lengths are refused before @tus/server sees them (the route checks Upload-Length).
      namingFunction: (request) => `${pathOf(request.url)!.transcriptionId}_${randomBytes(16).toString('hex')}`,
      // The upload's URL is the ticket's, signature and expiry included: the same signed credential, never a new one.
      generateUrl: (request, { id }) => {
        const url = new URL(request.url);
        return `/files/upload/${encodeURIComponent(pathOf(request.url)!.transcriptionId)}/tus/${encodeURIComponent(id)}${url.search}`;
      },
      getFileIdFromRequest: (request) => pathOf(request.url)?.uploadId,
      onUploadFinish: async (request, upload) => this.commit(request, upload),
    });
  }

  /** The last byte arrived: store it as a PUT would, then drop the partial file either way. */
  private async commit(request: Request, upload: Upload) {
    const transcriptionId = pathOf(request.url)!.transcriptionId;
    try {
      const record = await this.ctx.transcriptions.getById(transcriptionId);
      if (!record) refuse(request, errors.transcriptionNotFound(transcriptionId));
      const file = path.join(this.directory, upload.id);
      const contentType = audioContentType(record.name, upload.metadata?.filetype ?? undefined);
      const expected = upload.metadata?.sha256 ?? undefined;
      let outcome;
      try {
        outcome = await this.ctx.service.receiveUpload(record, fs.createReadStream(file), contentType, this.ctx.config.uploads.maxBytes, expected);
      } catch (error) {
        if (error instanceof ObjectTooLargeError) refuse(request, errors.payloadTooLarge(this.ctx.config.uploads.maxBytes));
        if (isDiskFull(error)) {
          refuse(request, errors.insufficientStorage("The server ran out of disk space while storing this file. Try again later, or ask the server's administrator to free some space."));
        }
        throw error;
      }
      if (outcome.kind === 'reused') refuse(request, errors.uploadAlreadyCompleted());
      if (outcome.kind === 'closed') refuse(request, errors.uploadClosed(outcome.status));
      if (outcome.kind === 'checksum-mismatch') refuse(request, errors.checksumMismatch());
      return {};
    } catch (error) {
      if (!hookErrors.has(request)) this.ctx.logger.error({ err: error, transcriptionId }, 'a finished tus upload could not be stored');
      throw error;
    } finally {
      await this.server.datastore.remove(upload.id).catch(() => undefined);
    }
  }

  /**
   * Hands the request to @tus/server and relays its answer. Its refusals become the spec's error body
   * (thrown, so the error handler renders and logs them like any other).
   */
  async relay(request: FastifyRequest, reply: FastifyReply) {
    const raw = request.raw;
    const hasBody = request.method === 'PATCH' || request.method === 'POST';
    // A dropped client ends its PATCH body early instead of failing it: tus stores every byte that arrived
    // (a short PATCH is legal), so the next HEAD offers all of them, not just what had left the buffers.
    let body: PassThrough | null = null;
    if (hasBody) {
      const passThrough = new PassThrough();
      body = passThrough;
      raw.pipe(passThrough);
      const endEarly = () => {
        if (!raw.complete) passThrough.end();
      };
      raw.once('close', endEarly);
      raw.once('error', endEarly);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const webRequest = new Request(`http://${request.host}${raw.url ?? '/'}`, {
      method: request.method,
      headers,
      body: body ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : null,
      duplex: 'half',
    } as RequestInit);
    const response = await this.server.handleWeb(webRequest);
    const refused = hookErrors.get(webRequest);
    if (refused) throw refused;
    if (response.status >= 400) throw tusError(response.status, await response.text());
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') void reply.header(name, value);
    });
    return reply.send(response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : undefined);
  }

  /** Partial uploads whose ticket can no longer take audio (expired, used, deleted) are removed. */
  static async sweep(dataDir: string, transcriptions: TranscriptionRepository): Promise<number> {
    const directory = tusDirectory(dataDir);
    let names: string[];
    try {
      names = await fsp.readdir(directory);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -5) : name;
      const transcriptionId = uploadIdPattern.exec(id)?.[1];
      if (!transcriptionId) continue;
      const record = await transcriptions.getById(transcriptionId);
      if (record && acceptsAudio(record)) continue;
      await fsp.rm(path.join(directory, name), { force: true });
      if (!name.endsWith('.json')) removed += 1;
    }
    return removed;
  }
}

const acceptsAudio = (record: TranscriptionRecord) => record.uploadStatus === 'PENDING' && record.status === 'IN_PROGRESS';

export const sweepTusUploads = TusUploads.sweep.bind(TusUploads);

/** Before a tus request reaches @tus/server: the signed URL, single use, and that the upload is its own. */
async function checkedRecord(ctx: AppContext, request: FastifyRequest) {
  const record = await verifiedTranscription(ctx, request, 'upload');
  if (record.uploadStatus === 'COMPLETED') throw errors.uploadAlreadyCompleted();
  if (record.status !== 'IN_PROGRESS') throw errors.uploadClosed(record.status);
  const { uploadId } = request.params as { uploadId?: string };
  if (uploadId !== undefined && uploadIdPattern.exec(uploadId)?.[1] !== record.transcriptionId) throw errors.tusUploadNotFound();
  return record;
}

/** The five tus operations on one @tus/server, created with the app. */
export const tusUploadRoutes: RouteModule = (app, ctx) => {
  const tus = new TusUploads(ctx);
  const limit = ctx.config.uploads.maxBytes;

  app.options(tusOptions.path, { schema: tusOptions.schema }, (request, reply) => tus.relay(request, reply));

  app.post(tusCreate.path, { schema: tusCreate.schema }, async (request, reply) => {
    const record = await checkedRecord(ctx, request);
    if (request.headers['tus-resumable'] === undefined) throw errors.tusVersionUnsupported();
    if (request.headers['upload-concat'] !== undefined) throw errors.tusRequestInvalid('Upload-Concat: parallel uploads are not supported');
    const length = request.headers['upload-length'];
    if (typeof length !== 'string' || !/^\d{1,16}$/.test(length)) {
      throw errors.tusRequestInvalid('Upload-Length is required: the file size in bytes, known before the upload starts');
    }
    const size = Number(length);
    if (size === 0) throw errors.validation('The uploaded file is empty. Upload the audio file.');
    if (size > limit) throw errors.payloadTooLarge(limit);
    await uploadAllowance(ctx, record.teamId, size);
    // A whole-file checksum sent at creation is checked when the last byte arrives.
    const sha256 = expectedSha256(request.headers);
    if (sha256 !== undefined) request.raw.headers['upload-metadata'] = withMetadata(String(request.headers['upload-metadata'] ?? ''), 'sha256', sha256);
    return tus.relay(request, reply);
  });

  app.route({
    method: 'HEAD',
    url: tusOffset.path,
    schema: tusOffset.schema,
    handler: async (request, reply) => {
      await checkedRecord(ctx, request);
      return tus.relay(request, reply);
    },
  });

  app.patch(tusAppend.path, { schema: tusAppend.schema }, async (request, reply) => {
    const record = await checkedRecord(ctx, request);
    const declared = Number(request.headers['content-length'] ?? NaN);
    try {
      await uploadAllowance(ctx, record.teamId, Number.isFinite(declared) ? declared : null);
    } catch (error) {
      reply.header('connection', 'close');
      throw error;
    }
    return tus.relay(request, reply);
  });

  app.delete(tusTerminate.path, { schema: tusTerminate.schema }, async (request, reply) => {
    await checkedRecord(ctx, request);
    return tus.relay(request, reply);
  });
};

/** Upload-Metadata (comma-separated `key base64value`) with `key` set to `value`. */
function withMetadata(header: string, key: string, value: string): string {
  const pairs = header
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && pair.split(' ')[0] !== key);
  pairs.push(`${key} ${Buffer.from(value).toString('base64')}`);
  return pairs.join(',');
}
