// A typed client of the Transcription and Dictionary API over fetch. Every operation of the spec,
// the 1.2.0 review operations, and the signed-URL transfers (audio upload, transcript and audio
// downloads). Failures are ApiErrors (AppFailures) carrying an IpcError the user can act on.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  ApiAsyncAck,
  ApiBlacklistWord,
  ApiBlacklistWordCreate,
  ApiDictionary,
  ApiDictionaryCreate,
  ApiDictionaryListItem,
  ApiDictionaryUpdate,
  ApiEmotionResult,
  ApiReview,
  ApiSpeaker,
  ApiSpeakerCreate,
  ApiSpeakerUpdate,
  ApiSummaryResult,
  ApiTranscription,
  ApiTranscribeAgainRequest,
  ApiTranscriptFormat,
  ApiTranslationResult,
  ApiTranslationTargets,
  ApiUploadRequest,
  ApiUploadTicket,
  ApiWord,
  ApiWordCreate,
} from '../../src-shared/api-types.js';
// Methods and paths come from the HTTP contract, as the server's routes do.
import * as analyses from '../../src-shared/api/analyses.js';
import { requestLine } from '../../src-shared/api/common.js';
import * as dictionaries from '../../src-shared/api/dictionaries.js';
import * as models from '../../src-shared/api/models.js';
import * as revisions from '../../src-shared/api/revisions.js';
import * as speakers from '../../src-shared/api/speakers.js';
import * as transcriptions from '../../src-shared/api/transcriptions.js';
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import {
  ApiError,
  cancelledError,
  errorFromResponse,
  isRetryable,
  offlineError,
  unavailableError,
  type ApiResource,
} from './api-errors.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TSchema, Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src-shared/backoff.js';
import type { IpcError } from '../../src-shared/ipc-contract.js';

export interface ApiConnection {
  baseUrl: string;
  apiKey: string;
}

/** Where to send requests, or why there is nowhere to send them (e.g. the embedded server is starting). */
export type ConnectionProvider = () => ApiConnection | { unavailable: IpcError };

/** What the last request said about the server: reachable, refused our key, or unreachable. */
export type Reachability =
  { state: 'online' } | { state: 'unauthorized'; detail: IpcError } | { state: 'offline'; detail: IpcError };

export interface ApiClientOptions {
  connection: ConnectionProvider;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout of API calls (not of file transfers). */
  timeoutMs?: number;
  /** Told after every request that reached a verdict (not after cancellations). */
  onReachability?: (reachability: Reachability) => void;
  random?: () => number;
  /** How the client waits between attempts (tests record the waits instead of taking them). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The longest Retry-After the client waits out on its own, between attempts of one call. A server that
 * asks for more gets the error now, with its message ("try again in a minute").
 */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface TransferOptions extends CallOptions {
  /** Bytes moved so far and the total (null when the server did not say). */
  onProgress?: (bytes: number, total: number | null) => void;
}

interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An API path (`/api/v1/...`), or an absolute signed URL with `signed: true`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Extra request headers (If-Match). */
  headers?: Record<string, string>;
  resource: ApiResource;
  /** Safe to repeat after a failure whose outcome is unknown (5xx, dropped connection). */
  idempotent: boolean;
  /** A signed URL: carries its own credential, so the API key is not sent. */
  signed?: boolean;
  signal?: AbortSignal;
}

export class ApiClient {
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  /** No request leaves before this time: the server's last Retry-After, for every caller at once. */
  private notBefore = 0;

  constructor(private readonly options: ApiClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  // ---------- transcriptions (4.1) ----------

  /** A ticket is cheap and an unused one expires on its own, so a retried request is harmless. */
  requestUpload(body: ApiUploadRequest, o: CallOptions = {}): Promise<ApiUploadTicket> {
    return this.json({
      ...requestLine(transcriptions.uploadTranscription, {}),
      body,
      resource: 'upload',
      idempotent: true,
      ...o,
    });
  }

  /** Idempotent on the server while queued or running (docs/decisions/0001). */
  transcribe(id: string, o: CallOptions = {}): Promise<ApiTranscription> {
    return this.json({
      ...requestLine(transcriptions.transcribeTranscription, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /**
   * Transcribes a finished transcription again in place, from the server's audio (decision 0062). A server
   * without the extension answers 409 TRANSCRIPTION_ALREADY_ENDED. Not retried: a second run is not the same.
   */
  transcribeAgain(id: string, body: ApiTranscribeAgainRequest, o: CallOptions = {}): Promise<ApiTranscription> {
    return this.json({
      ...requestLine(transcriptions.transcribeTranscription, { transcription_id: id }),
      body,
      resource: 'transcription',
      idempotent: false,
      ...o,
    });
  }

  listTranscriptions(page = 1, o: CallOptions = {}): Promise<ApiTranscription[]> {
    return this.json({
      ...requestLine(transcriptions.listTranscriptions, {}),
      query: { page },
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /** Every page, newest first. */
  listAllTranscriptions(o: CallOptions = {}): Promise<ApiTranscription[]> {
    return this.allPages((page) => this.listTranscriptions(page, o));
  }

  getTranscription(id: string, o: CallOptions = {}): Promise<ApiTranscription> {
    return this.json({
      ...requestLine(transcriptions.getTranscription, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  async deleteTranscription(id: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(transcriptions.deleteTranscription, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /** The corrected text, or null when none has been saved (404 REVIEW_NOT_FOUND). */
  async getReview(id: string, o: CallOptions = {}): Promise<ApiReview | null> {
    try {
      return await this.json<ApiReview>({
        ...requestLine(transcriptions.getReview, { transcription_id: id }),
        resource: 'review',
        idempotent: true,
        ...o,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.errorCode === ErrorCode.REVIEW_NOT_FOUND)
        return null;
      throw error;
    }
  }

  /**
   * The corrected text unless the transcript is still at revision `held` (decision 0056): GET /review with
   * `If-None-Match`, so an unchanged transcript costs a 304 without a body. `revision` is the answer's ETag
   * (1 with no review yet; null from a server that sends none).
   */
  async reviewSince(
    id: string,
    held: number,
    o: CallOptions = {},
  ): Promise<'unchanged' | { revision: number | null; review: ApiReview | null }> {
    let response: Response;
    try {
      response = await this.send({
        ...requestLine(transcriptions.getReview, { transcription_id: id }),
        headers: { 'if-none-match': `"${held}"` },
        resource: 'review',
        idempotent: true,
        ...o,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.errorCode === ErrorCode.REVIEW_NOT_FOUND)
        return held === 1 ? 'unchanged' : { revision: 1, review: null };
      throw error;
    }
    if (response.status === 304) return 'unchanged';
    const tag = /^(?:W\/)?"([1-9][0-9]{0,14})"$/.exec(response.headers.get('etag') ?? '');
    const revision = tag ? Number(tag[1]) : null;
    const body: unknown = await response.json().catch(() => null);
    if (!compiled(transcriptions.Review).Check(body))
      throw new ApiError({ code: 'server', reason: 'unreadable-answer' }, response.status);
    return { revision, review: body as ApiReview };
  }

  /** Replaces the whole corrected text; repeating it is harmless. */
  saveReview(id: string, reviewedText: string, o: CallOptions = {}): Promise<ApiReview> {
    return this.json({
      ...requestLine(transcriptions.saveReview, { transcription_id: id }),
      body: { reviewed_text: reviewedText },
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /**
   * Applies edit operations made on `baseRevision` as a new revision (extension, decision 0052). Not
   * repeated after an unknown outcome: the operations could land twice.
   */
  createRevision(
    id: string,
    baseRevision: number,
    operations: revisions.RevisionOperationBody[],
    o: CallOptions = {},
  ): Promise<Static<typeof revisions.CreatedRevision>> {
    return this.json({
      ...requestLine(revisions.createRevision, { transcription_id: id }),
      body: { base_revision: baseRevision, operations },
      resource: 'transcription',
      idempotent: false,
      ...o,
    });
  }

  /** The transcript's revisions, oldest first, and the latest's number. */
  listRevisions(id: string, o: CallOptions = {}): Promise<Static<typeof revisions.RevisionList>> {
    return this.json({
      ...requestLine(revisions.listRevisions, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /** One revision with its document. */
  getRevision(
    id: string,
    revision: number,
    o: CallOptions = {},
  ): Promise<Static<typeof revisions.RevisionWithDocument>> {
    return this.json({
      ...requestLine(revisions.getRevision, { transcription_id: id, revision: String(revision) }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /** A new revision equal to `revision`, refused (412) when the latest is no longer `latest`. */
  restoreRevision(
    id: string,
    revision: number,
    latest: number,
    o: CallOptions = {},
  ): Promise<Static<typeof revisions.CreatedRevision>> {
    return this.json({
      ...requestLine(revisions.restoreRevision, { transcription_id: id, revision: String(revision) }),
      headers: { 'if-match': `"${latest}"` },
      resource: 'transcription',
      idempotent: false,
      ...o,
    });
  }

  /** Applies a dictionary's forced replacements to the finished transcript (extension); repeating it changes nothing more. */
  applyReplacements(id: string, dictionaryId: string | null, o: CallOptions = {}): Promise<ApiTranscription> {
    return this.json({
      ...requestLine(transcriptions.applyReplacements, { transcription_id: id }),
      body: dictionaryId ? { dictionary_id: dictionaryId } : {},
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  // Posting an analysis again re-runs it (docs/decisions/0006): a retry only restarts the same work.
  requestSummary(id: string, o: CallOptions = {}): Promise<ApiAsyncAck> {
    return this.json({
      ...requestLine(analyses.requestSummary, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  getSummary(id: string, o: CallOptions = {}): Promise<ApiSummaryResult> {
    return this.json({
      ...requestLine(analyses.getSummary, { transcription_id: id }),
      resource: 'analysis',
      idempotent: true,
      ...o,
    });
  }

  requestEmotion(id: string, o: CallOptions = {}): Promise<ApiAsyncAck> {
    return this.json({
      ...requestLine(analyses.requestEmotion, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  getEmotion(id: string, o: CallOptions = {}): Promise<ApiEmotionResult> {
    return this.json({
      ...requestLine(analyses.getEmotion, { transcription_id: id }),
      resource: 'analysis',
      idempotent: true,
      ...o,
    });
  }

  requestTranslation(id: string, language: string, o: CallOptions = {}): Promise<ApiAsyncAck> {
    return this.json({
      ...requestLine(analyses.requestTranslation, { transcription_id: id }),
      body: { language },
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  /** Without `language`: the most recently requested translation. */
  getTranslation(id: string, language?: string, o: CallOptions = {}): Promise<ApiTranslationResult> {
    return this.json({
      ...requestLine(analyses.getTranslation, { transcription_id: id }),
      query: { language },
      resource: 'analysis',
      idempotent: true,
      ...o,
    });
  }

  /** What the transcription can be translated into, offline and through the LLM endpoint (extension). */
  getTranslationTargets(id: string, o: CallOptions = {}): Promise<ApiTranslationTargets> {
    return this.json({
      ...requestLine(analyses.getTranslationTargets, { transcription_id: id }),
      resource: 'transcription',
      idempotent: true,
      ...o,
    });
  }

  // ---------- signed URLs ----------

  /** The transcript document behind a `transcription_path`. */
  downloadTranscript(transcriptionPath: string, o: CallOptions = {}): Promise<TranscriptDocument> {
    return this.json({
      method: 'GET',
      path: transcriptionPath,
      query: { format: 'json' },
      resource: 'transcript',
      idempotent: true,
      signed: true,
      ...o,
    });
  }

  /** The transcript rendered by the server as SRT, WebVTT or text. */
  async downloadTranscriptAs(
    transcriptionPath: string,
    format: Exclude<ApiTranscriptFormat, 'json'>,
    o: CallOptions = {},
  ): Promise<string> {
    const response = await this.send({
      method: 'GET',
      path: transcriptionPath,
      query: { format },
      resource: 'transcript',
      idempotent: true,
      signed: true,
      ...o,
    });
    return response.text();
  }

  /**
   * Streams the file at `filePath` to a signed `audio_upload_url` with PUT, chunk by chunk from disk
   * (never the whole file in memory). Not retried here: a stream cannot be replayed, and the upload
   * manager decides whether to start over.
   */
  async uploadFile(
    uploadUrl: string,
    filePath: string,
    o: TransferOptions & { contentType?: string; chunkBytes?: number } = {},
  ): Promise<void> {
    await this.putFile(uploadUrl, filePath, { ...o, resource: 'upload', headers: {} });
  }

  /** Installs a speech model on the server from its file (OPERATOR), streamed as an upload is; answers the model as listed. */
  async installModelFile(name: string, filePath: string, o: TransferOptions = {}): Promise<models.CatalogueModel> {
    const connection = this.options.connection();
    if ('unavailable' in connection) throw unavailableError(connection.unavailable);
    const url = connection.baseUrl.replace(/\/+$/, '') + requestLine(models.installModelFile, { name }).path;
    const body = await this.putFile(url, filePath, {
      ...o,
      resource: 'model',
      headers: { 'x-api-key': connection.apiKey, accept: 'application/json' },
    });
    try {
      const model: unknown = JSON.parse(body.toString('utf8'));
      if (compiled(models.CatalogueModel).Check(model)) return model as models.CatalogueModel;
    } catch {
      // answered below
    }
    throw new ApiError({ code: 'server', reason: 'unreadable-answer-address' }, 200);
  }

  /**
   * PUTs a file from disk, chunk by chunk; the answer's body on 2xx. Uses node:http rather than fetch: undici
   * keeps a streamed request body in memory (nodejs/undici#4058), which grew RSS by the file's size.
   */
  private async putFile(
    target: string,
    filePath: string,
    o: TransferOptions & {
      contentType?: string;
      chunkBytes?: number;
      resource: ApiResource;
      headers: Record<string, string>;
    },
  ): Promise<Buffer> {
    const { size } = await fsp.stat(filePath);
    const url = new URL(target);
    const send = url.protocol === 'https:' ? https.request : http.request;
    let sent = 0;
    const progress = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        o.onProgress?.(sent, size);
        done(null, chunk);
      },
    });
    const request = send(url, {
      method: 'PUT',
      headers: {
        ...o.headers,
        'content-type': o.contentType ?? 'application/octet-stream',
        'content-length': String(size),
      },
      signal: o.signal,
    });
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    try {
      // The server may answer (413, 403) before the body is sent; that answer is what matters.
      await Promise.all([
        pipeline(fs.createReadStream(filePath, { highWaterMark: o.chunkBytes ?? 256 * 1024 }), progress, request).catch(
          () => undefined,
        ),
        answered,
      ]);
      const response = await answered;
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      throw errorFromResponse(status, body, o.resource, [response.headers['retry-after']].flat()[0] ?? null);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (o.signal?.aborted) throw cancelledError();
      throw offlineError(target, error);
    }
  }

  /** Streams a signed `audio_path` into `destination` (written beside it, then renamed into place). */
  async downloadToFile(
    url: string,
    destination: string,
    o: TransferOptions = {},
  ): Promise<{ bytes: number; contentType: string | null }> {
    await fsp.mkdir(path.dirname(destination), { recursive: true });
    const response = await this.withRetries(
      { method: 'GET', path: url, resource: 'audio', idempotent: true, signed: true, signal: o.signal },
      (spec) =>
        this.fetchOnce(
          url,
          { method: 'GET' },
          { resource: spec.resource, signal: spec.signal, timeout: true, baseUrl: url },
        ),
    );
    const total = Number(response.headers.get('content-length') ?? NaN);
    const tmp = `${destination}.${process.pid}.part`;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        o.onProgress?.(bytes, Number.isFinite(total) ? total : null);
        done(null, chunk);
      },
    });
    try {
      if (!response.body) throw offlineError(url);
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
        counter,
        fs.createWriteStream(tmp),
        {
          signal: o.signal,
        },
      );
      await fsp.rename(tmp, destination);
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      if (o.signal?.aborted) throw cancelledError();
      if (error instanceof ApiError) throw error;
      throw offlineError(url, error);
    }
    return { bytes, contentType: response.headers.get('content-type') };
  }

  // ---------- the team voice library (extension, decision 0065) ----------

  listSpeakers(page = 1, o: CallOptions = {}): Promise<ApiSpeaker[]> {
    return this.json({
      ...requestLine(speakers.listSpeakers, {}),
      query: { page },
      resource: 'voice',
      idempotent: true,
      ...o,
    });
  }

  listAllSpeakers(o: CallOptions = {}): Promise<ApiSpeaker[]> {
    return this.allPages((page) => this.listSpeakers(page, o));
  }

  createSpeaker(body: ApiSpeakerCreate, o: CallOptions = {}): Promise<ApiSpeaker> {
    return this.json({
      ...requestLine(speakers.createSpeaker, {}),
      body,
      resource: 'voice',
      idempotent: false,
      ...o,
    });
  }

  getSpeaker(id: string, o: CallOptions = {}): Promise<ApiSpeaker> {
    return this.json({
      ...requestLine(speakers.getSpeaker, { speaker_id: id }),
      resource: 'voice',
      idempotent: true,
      ...o,
    });
  }

  updateSpeaker(id: string, body: ApiSpeakerUpdate, o: CallOptions = {}): Promise<ApiSpeaker> {
    // Not idempotent: add_samples twice would add the samples twice.
    return this.json({
      ...requestLine(speakers.updateSpeaker, { speaker_id: id }),
      body,
      resource: 'voice',
      idempotent: body.add_samples === undefined,
      ...o,
    });
  }

  async deleteSpeaker(id: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(speakers.deleteSpeaker, { speaker_id: id }),
      resource: 'voice',
      idempotent: true,
      ...o,
    });
  }

  // ---------- dictionaries (4.2) ----------

  listDictionaries(page = 1, o: CallOptions = {}): Promise<ApiDictionaryListItem[]> {
    return this.json({
      ...requestLine(dictionaries.listDictionaries, {}),
      query: { page },
      resource: 'dictionary',
      idempotent: true,
      ...o,
    });
  }

  listAllDictionaries(o: CallOptions = {}): Promise<ApiDictionaryListItem[]> {
    return this.allPages((page) => this.listDictionaries(page, o));
  }

  // Creating operations are not idempotent: they are retried only when the request surely never arrived.
  createDictionary(body: ApiDictionaryCreate, o: CallOptions = {}): Promise<ApiDictionary> {
    return this.json({
      ...requestLine(dictionaries.createDictionary, {}),
      body,
      resource: 'dictionary',
      idempotent: false,
      ...o,
    });
  }

  getDictionary(id: string, o: CallOptions = {}): Promise<ApiDictionary> {
    return this.json({
      ...requestLine(dictionaries.getDictionary, { dictionary_id: id }),
      resource: 'dictionary',
      idempotent: true,
      ...o,
    });
  }

  updateDictionary(id: string, body: ApiDictionaryUpdate, o: CallOptions = {}): Promise<ApiDictionary> {
    return this.json({
      ...requestLine(dictionaries.updateDictionary, { dictionary_id: id }),
      body,
      resource: 'dictionary',
      idempotent: true,
      ...o,
    });
  }

  async deleteDictionary(id: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(dictionaries.deleteDictionary, { dictionary_id: id }),
      resource: 'dictionary',
      idempotent: true,
      ...o,
    });
  }

  addWord(dictionaryId: string, word: ApiWordCreate, o: CallOptions = {}): Promise<ApiWord> {
    return this.json({
      ...requestLine(dictionaries.wordOperations.create, { dictionary_id: dictionaryId }),
      body: word,
      resource: 'dictionary',
      idempotent: false,
      ...o,
    });
  }

  addWords(dictionaryId: string, words: ApiWordCreate[], o: CallOptions = {}): Promise<ApiWord[]> {
    return this.json({
      ...requestLine(dictionaries.wordOperations.bulkCreate, { dictionary_id: dictionaryId }),
      body: words,
      resource: 'dictionary',
      idempotent: false,
      ...o,
    });
  }

  getWord(dictionaryId: string, wordId: string, o: CallOptions = {}): Promise<ApiWord> {
    return this.json({
      ...requestLine(dictionaries.wordOperations.get, { dictionary_id: dictionaryId, word_id: wordId }),
      resource: 'word',
      idempotent: true,
      ...o,
    });
  }

  async deleteWord(dictionaryId: string, wordId: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(dictionaries.wordOperations.remove, { dictionary_id: dictionaryId, word_id: wordId }),
      resource: 'word',
      idempotent: true,
      ...o,
    });
  }

  addReplacementRule(
    dictionaryId: string,
    entry: ApiBlacklistWordCreate,
    o: CallOptions = {},
  ): Promise<ApiBlacklistWord> {
    return this.json({
      ...requestLine(dictionaries.blacklistWordOperations.create, { dictionary_id: dictionaryId }),
      body: entry,
      resource: 'dictionary',
      idempotent: false,
      ...o,
    });
  }

  addReplacementRules(
    dictionaryId: string,
    entries: ApiBlacklistWordCreate[],
    o: CallOptions = {},
  ): Promise<ApiBlacklistWord[]> {
    return this.json({
      ...requestLine(dictionaries.blacklistWordOperations.bulkCreate, { dictionary_id: dictionaryId }),
      body: entries,
      resource: 'dictionary',
      idempotent: false,
      ...o,
    });
  }

  getReplacementRule(dictionaryId: string, id: string, o: CallOptions = {}): Promise<ApiBlacklistWord> {
    return this.json({
      ...requestLine(dictionaries.blacklistWordOperations.get, { dictionary_id: dictionaryId, blacklist_word_id: id }),
      resource: 'replacement-rule',
      idempotent: true,
      ...o,
    });
  }

  async deleteReplacementRule(dictionaryId: string, id: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(dictionaries.blacklistWordOperations.remove, {
        dictionary_id: dictionaryId,
        blacklist_word_id: id,
      }),
      resource: 'replacement-rule',
      idempotent: true,
      ...o,
    });
  }

  // ---------- speech models (extension, issue 10) ----------
  // Answers are checked against the contract's schemas: Settings shows them as they are, and a server
  // that answers something else says so instead of drawing nonsense.

  listModels(o: CallOptions = {}): Promise<models.ModelsResponse> {
    return this.checked(models.ModelsResponse, {
      ...requestLine(models.listModels, {}),
      resource: 'model',
      idempotent: true,
      ...o,
    });
  }

  /** Not repeated after an unknown outcome: a second POST could start the download over. */
  startModelDownload(name: string, o: CallOptions = {}): Promise<models.ModelDownloadAck> {
    return this.checked(models.ModelDownloadAck, {
      ...requestLine(models.downloadModel, { name }),
      resource: 'model',
      idempotent: false,
      ...o,
    });
  }

  getModelDownload(name: string, o: CallOptions = {}): Promise<models.ModelDownload> {
    return this.checked(models.ModelDownload, {
      ...requestLine(models.getModelDownload, { name }),
      resource: 'model-download',
      idempotent: true,
      ...o,
    });
  }

  async cancelModelDownload(name: string, o: CallOptions = {}): Promise<void> {
    await this.send({
      ...requestLine(models.cancelModelDownload, { name }),
      resource: 'model-download',
      idempotent: true,
      ...o,
    });
  }

  async deleteModel(name: string, o: CallOptions = {}): Promise<void> {
    await this.send({ ...requestLine(models.deleteModel, { name }), resource: 'model', idempotent: true, ...o });
  }

  // ---------- plumbing ----------

  private async checked<S extends TSchema>(schema: S, spec: RequestSpec): Promise<Static<S>> {
    const value = await this.json<unknown>(spec);
    if (!compiled(schema).Check(value)) {
      throw new ApiError({ code: 'server', reason: 'unreadable-answer' }, 200);
    }
    return value as Static<S>;
  }

  private async allPages<T>(fetchPage: (page: number) => Promise<T[]>): Promise<T[]> {
    // The spec does not give the page size: read until a page comes back shorter than the first.
    const all: T[] = [];
    let pageSize = 0;
    for (let page = 1; ; page++) {
      const items = await fetchPage(page);
      all.push(...items);
      if (page === 1) pageSize = items.length;
      if (items.length === 0 || items.length < pageSize) return all;
    }
  }

  private async json<T>(spec: RequestSpec): Promise<T> {
    const response = await this.send(spec);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError({ code: 'server', reason: 'unreadable-answer-address' }, response.status);
    }
  }

  private send(spec: RequestSpec): Promise<Response> {
    return this.withRetries(spec, (s) => {
      const connection = this.options.connection();
      if ('unavailable' in connection) throw unavailableError(connection.unavailable);
      const url = new URL(s.signed ? s.path : connection.baseUrl.replace(/\/+$/, '') + s.path);
      for (const [key, value] of Object.entries(s.query ?? {}))
        if (value !== undefined) url.searchParams.set(key, String(value));
      const headers: Record<string, string> = { ...s.headers, accept: 'application/json' };
      if (!s.signed) headers['x-api-key'] = connection.apiKey;
      if (s.body !== undefined) headers['content-type'] = 'application/json';
      return this.fetchOnce(
        url.toString(),
        { method: s.method, headers, body: s.body === undefined ? undefined : JSON.stringify(s.body) },
        { resource: s.resource, signal: s.signal, timeout: true, baseUrl: s.signed ? url.origin : connection.baseUrl },
      );
    });
  }

  private async withRetries(spec: RequestSpec, attempt: (spec: RequestSpec) => Promise<Response>): Promise<Response> {
    // Before each attempt: this call's backoff, or the server's Retry-After for every call, whichever is longer.
    let delay = 0;
    for (let n = 0; ; n++) {
      try {
        await this.waitFor(Math.max(delay, this.notBefore - Date.now()), spec.signal);
        const response = await attempt(spec);
        this.options.onReachability?.({ state: 'online' });
        return response;
      } catch (error) {
        if (spec.signal?.aborted) throw cancelledError();
        const surelyNotReceived = error instanceof ApiError && error.networkCode === 'ECONNREFUSED';
        const retryAfter = error instanceof ApiError ? error.retryAfterMs : null;
        if (retryAfter !== null) this.notBefore = Math.max(this.notBefore, Date.now() + retryAfter);
        const retry =
          isRetryable(error) &&
          (spec.idempotent || surelyNotReceived) &&
          n < this.policy.retries &&
          (retryAfter ?? 0) <= MAX_RETRY_AFTER_MS;
        if (!retry) {
          this.report(error);
          throw error;
        }
        delay = Math.max(backoffDelay(n, this.policy, this.options.random), retryAfter ?? 0);
      }
    }
  }

  private async waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (ms <= 0) return;
    try {
      await (this.options.wait ?? ((delay, s) => sleep(delay, undefined, { signal: s })))(
        Math.min(ms, MAX_RETRY_AFTER_MS),
        signal,
      );
    } catch {
      throw cancelledError();
    }
  }

  private report(error: unknown) {
    if (!(error instanceof ApiError)) return;
    if (error.error.code === 'offline') this.options.onReachability?.({ state: 'offline', detail: error.error });
    else if (error.error.code === 'unauthorized')
      this.options.onReachability?.({ state: 'unauthorized', detail: error.error });
    else if (error.status !== null) this.options.onReachability?.({ state: 'online' });
  }

  /** One HTTP exchange: a Response when 2xx, else an ApiError. */
  private async fetchOnce(
    url: string,
    init: RequestInit,
    context: { resource: ApiResource; signal?: AbortSignal; timeout: boolean; baseUrl: string },
  ): Promise<Response> {
    const signals = [context.signal, context.timeout ? AbortSignal.timeout(this.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => !!s,
    );
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: signals.length ? AbortSignal.any(signals) : undefined });
    } catch (error) {
      if (context.signal?.aborted) throw cancelledError();
      throw offlineError(context.baseUrl, error);
    }
    // 304 answers only a conditional request (If-None-Match), whose caller reads it as "unchanged".
    if (response.ok || response.status === 304) return response;
    let body: unknown;
    try {
      const text = await response.text();
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    throw errorFromResponse(response.status, body, context.resource, response.headers.get('retry-after'));
  }
}

const validators = new WeakMap<TSchema, ReturnType<typeof Compile>>();
function compiled(schema: TSchema): ReturnType<typeof Compile> {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}
