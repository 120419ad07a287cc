// Resumable uploads (tus 1.0) on the ticket's signed audio_upload_url, with @tus/server and its file store
// (decision 0032). The use cases (application/resumable-uploads.ts) check the signed URL, the ticket, the upload's
// ownership and the limits first, and every refusal is rendered in the spec's error body; @tus/server then speaks
// the protocol. It is handed a request built from a fixed origin and the verified ids, and its hooks take the
// ticket and the upload id from what was verified, never from the client's URL or Host (decision 0043). When the
// last byte arrives the upload is committed by the use case, exactly as a PUT is, and the partial file is dropped.
import fs from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { tusAppend, tusCreate, tusOffset, tusOptions, tusTerminate } from '../../../../src-shared/api/files.js';
import type { AppContext } from '../../../app-context.js';
import { AppError, errors } from '../../../application/errors.js';
import {
  createResumableUpload,
  finishResumableUpload,
  releaseResumableUpload,
  releaseUnlessCreated,
  resumableAppend,
  resumableOffset,
  resumableTicket,
  resumableUpload,
  tusDirectory,
  type ResumableUpload,
} from '../../../application/resumable-uploads.js';
import type { RouteModule } from '../../api-app.js';
import { expectedSha256 } from '../../content-digest.js';
import { signedUrlOf } from './signed-request.js';

/**
 * The origin of every request handed to @tus/server. The client's Host and X-Forwarded-Host never reach it: they
 * once chose which upload a signed URL wrote to.
 */
const TUS_ORIGIN = 'http://kikitori.invalid';

/**
 * What was verified before a request reached @tus/server: the ticket, and the upload id (its own): the one the
 * URL names (HEAD, PATCH, DELETE), or the one a POST creates.
 */
interface VerifiedUpload extends ResumableUpload {
  /** The ticket URL's signed query, carried into the upload's URL. */
  search: string;
}

/** The verified ticket of each request handed to @tus/server, for its hooks. */
const verifiedUploads = new WeakMap<Request, VerifiedUpload>();

function verified(request: Request): VerifiedUpload {
  const upload = verifiedUploads.get(request);
  // Only the routes below hand requests to @tus/server, each after its checks.
  if (!upload) throw new Error('a tus request reached @tus/server without a verified ticket');
  return upload;
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
    return new AppError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The upload sent more bytes than its Upload-Length (${detail}). Create a new upload with the file's real size.`,
    );
  }
  if (status >= 500 && status !== 501)
    return new AppError(
      500,
      'INTERNAL_ERROR',
      "The upload could not be stored. Try again; if it keeps failing, tell the server's administrator.",
    );
  return errors.tusRequestInvalid(detail);
}

class TusUploads {
  readonly server: TusServer;
  private readonly directory: string;

  constructor(private readonly ctx: AppContext) {
    this.directory = tusDirectory(ctx.config.dataDir);
    fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    // Behind a proxy the upload's URL is absolute at the public URL (which may have a path); otherwise relative
    // to the URL the client used, whatever Host it sent.
    const base = ctx.config.server.publicUrl?.replace(/\/+$/, '') ?? '';
    this.server = new TusServer({
      path: '/files/upload',
      datastore: new FileStore({ directory: this.directory }),
      maxSize: ctx.config.uploads.maxBytes,
      // Creation and deferred lengths are refused before @tus/server sees them (the route checks Upload-Length).
      namingFunction: (request) => verified(request).uploadId,
      // The upload's URL is the ticket's, signature and expiry included: the same signed credential, never a new one.
      generateUrl: (request, { id }) => {
        const { record, search } = verified(request);
        return `${base}/files/upload/${encodeURIComponent(record.transcriptionId)}/tus/${encodeURIComponent(id)}${search}`;
      },
      getFileIdFromRequest: (request) => verified(request).uploadId,
      onUploadFinish: async (request, upload) => this.commit(request, upload),
    });
  }

  /** The last byte arrived: store it as a PUT would, then drop the partial file and its hold on the quota either way. */
  private async commit(request: Request, upload: Upload) {
    const transcriptionId = verified(request).record.transcriptionId;
    try {
      await finishResumableUpload(this.ctx, transcriptionId, {
        uploadId: upload.id,
        size: upload.offset,
        filetype: upload.metadata?.filetype,
        sha256: upload.metadata?.sha256,
      });
      return {};
    } catch (error) {
      if (error instanceof AppError) refuse(request, error);
      this.ctx.logger.error({ err: error, transcriptionId }, 'a finished tus upload could not be stored');
      throw error;
    } finally {
      await this.server.datastore.remove(upload.id).catch(() => undefined);
      await releaseResumableUpload(this.ctx, upload.id);
    }
  }

  /**
   * Hands the request to @tus/server and relays its answer. Its refusals become the spec's error body
   * (thrown, so the error handler renders and logs them like any other). `done` runs when @tus/server has
   * succeeded, before the client hears so.
   */
  async relay(request: FastifyRequest, reply: FastifyReply, upload: VerifiedUpload | null, done?: () => Promise<void>) {
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
      if (value === undefined || FORWARDING_HEADERS.has(name)) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // Only verified ids in the path; @tus/server's hooks read them from `verifiedUploads`, not from here.
    const { id } = request.params as { id: string };
    const url = upload
      ? `${TUS_ORIGIN}/files/upload/${encodeURIComponent(upload.record.transcriptionId)}/tus/${encodeURIComponent(upload.uploadId)}`
      : `${TUS_ORIGIN}/files/upload/${encodeURIComponent(id)}`;
    const webRequest = new Request(url, {
      method: request.method,
      headers,
      body: body ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : null,
      duplex: 'half',
    } as RequestInit);
    if (upload) verifiedUploads.set(webRequest, upload);
    const response = await this.server.handleWeb(webRequest);
    const refused = hookErrors.get(webRequest);
    if (refused) throw refused;
    if (response.status >= 400) throw tusError(response.status, await response.text());
    await done?.();
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') void reply.header(name, value);
    });
    return reply.send(response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : undefined);
  }
}

/** What a client may send to say where it thinks it is; none of it is handed to @tus/server. */
const FORWARDING_HEADERS = new Set([
  'host',
  'forwarded',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-for',
  'x-forwarded-port',
]);

/** The signed query of the ticket's URL (verified with it), for the upload's own URL. */
function signedSearch(request: FastifyRequest): string {
  const { expires, signature } = request.query as { expires?: string; signature?: string };
  return `?${new URLSearchParams({ expires: expires ?? '', signature: signature ?? '' }).toString()}`;
}

/** The five tus operations on one @tus/server, created with the app. */
export const tusUploadRoutes: RouteModule = (app, ctx) => {
  const tus = new TusUploads(ctx);

  app.options(tusOptions.path, { schema: tusOptions.schema }, (request, reply) => tus.relay(request, reply, null));

  app.post(tusCreate.path, { schema: tusCreate.schema }, async (request, reply) => {
    const record = await resumableTicket(ctx, signedUrlOf(request));
    if (request.headers['tus-resumable'] === undefined) throw errors.tusVersionUnsupported();
    if (request.headers['upload-concat'] !== undefined)
      throw errors.tusRequestInvalid('Upload-Concat: parallel uploads are not supported');
    const length = request.headers['upload-length'];
    if (typeof length !== 'string' || !/^\d{1,16}$/.test(length)) {
      throw errors.tusRequestInvalid(
        'Upload-Length is required: the file size in bytes, known before the upload starts',
      );
    }
    const upload = await createResumableUpload(ctx, record, Number(length));
    // A whole-file checksum sent at creation is checked when the last byte arrives.
    const sha256 = expectedSha256(request.headers);
    if (sha256 !== undefined)
      request.raw.headers['upload-metadata'] = withMetadata(
        String(request.headers['upload-metadata'] ?? ''),
        'sha256',
        sha256,
      );
    try {
      return await tus.relay(request, reply, { ...upload, search: signedSearch(request) });
    } catch (error) {
      await releaseUnlessCreated(ctx, upload.uploadId);
      throw error;
    }
  });

  app.route({
    method: 'HEAD',
    url: tusOffset.path,
    schema: tusOffset.schema,
    handler: async (request, reply) => {
      const upload = await resumableOffset(ctx, signedUrlOf(request), uploadIdOf(request));
      return tus.relay(request, reply, { ...upload, search: signedSearch(request) });
    },
  });

  app.patch(tusAppend.path, { schema: tusAppend.schema }, async (request, reply) => {
    const declared = Number(request.headers['content-length'] ?? NaN);
    // A refusal comes before the body is read: the error handler discards what is still coming (decision 0048).
    const upload = await resumableAppend(
      ctx,
      signedUrlOf(request),
      uploadIdOf(request),
      Number.isFinite(declared) ? declared : null,
    );
    return tus.relay(request, reply, { ...upload, search: signedSearch(request) });
  });

  app.delete(tusTerminate.path, { schema: tusTerminate.schema }, async (request, reply) => {
    const upload = await resumableUpload(ctx, signedUrlOf(request), uploadIdOf(request));
    // Released before the 204 is sent, so a client that next opens another upload finds the place free.
    return tus.relay(request, reply, { ...upload, search: signedSearch(request) }, () =>
      releaseResumableUpload(ctx, upload.uploadId),
    );
  });
};

const uploadIdOf = (request: FastifyRequest) => (request.params as { uploadId: string }).uploadId;

/** Upload-Metadata (comma-separated `key base64value`) with `key` set to `value`. */
function withMetadata(header: string, key: string, value: string): string {
  const pairs = header
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && pair.split(' ')[0] !== key);
  pairs.push(`${key} ${Buffer.from(value).toString('base64')}`);
  return pairs.join(',');
}
