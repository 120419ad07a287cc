// Turns the API's error body (spec 2.10) and network failures into IpcErrors: closed reasons the renderer
// words in the UI's language, with the server's message as the detail (decision 0068).
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { ApiErrorBody } from '../../src-shared/api-types.js';
import { serverReason, type AppErrorReason, type ErrorReason } from '../../src-shared/error-reasons.js';
import type { IpcError, IpcErrorCode } from '../../src-shared/ipc-contract.js';
import { AppFailure, type AppFailureInit } from '../app-failure.js';

/** What a request was about, so a 404 can say what is missing. */
export type ApiResource =
  | 'transcription'
  | 'transcript'
  | 'audio'
  | 'upload'
  | 'review'
  | 'analysis'
  | 'dictionary'
  | 'word'
  | 'replacement-rule'
  | 'voice'
  | 'model'
  | 'model-download'
  | 'server';

/** An API failure: an AppFailure (so handlers can let it cross IPC as is) with the HTTP details kept. */
export class ApiError extends AppFailure {
  constructor(
    error: AppFailureInit,
    /** HTTP status; null for network failures and cancellation. */
    readonly status: number | null,
    /** The spec body's error_code, when the server sent one. */
    readonly errorCode: number | null = null,
    /** The server's own message (also the error's `detail`). */
    readonly serverMessage: string | null = null,
    /** For network failures: the system error code (ECONNREFUSED...), when known. */
    readonly networkCode: string | null = null,
    /** How long the server asked to wait before trying again (its Retry-After), when it said. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(error);
  }
}

// Spec field names -> the names the IPC contract uses, so the renderer can show an error next to its field.
const CONTRACT_FIELDS: Record<string, string> = {
  filename: 'files',
  dictionary_id: 'dictionaryId',
  language: 'language',
  transcription_model: 'model',
  num_speakers: 'numSpeakers',
  min_speakers: 'minSpeakers',
  max_speakers: 'maxSpeakers',
  words: 'words',
  word: 'word',
  reading: 'reading',
  pattern: 'pattern',
  replacement: 'replacement',
  name: 'name',
  is_temporary: 'isTemporary',
  reviewed_text: 'segments',
  page: 'page',
};

/**
 * The body's `field` ("num_speakers", "words.0.reading") in the contract's spelling ("numSpeakers",
 * "words.0.reading"); undefined when the server named none. Never guessed from error_message: servers
 * word their messages as they like.
 */
function contractField(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const [head = '', ...rest] = field.split('.');
  return [CONTRACT_FIELDS[head] ?? head, ...rest].join('.');
}

const NOT_FOUND: Record<ApiResource, AppErrorReason> = {
  transcription: 'not-found-transcription',
  transcript: 'not-found-transcript',
  audio: 'not-found-audio',
  upload: 'not-found-upload',
  review: 'not-found-review',
  analysis: 'not-found-analysis',
  dictionary: 'not-found-dictionary',
  word: 'not-found-word',
  'replacement-rule': 'not-found-replacement-rule',
  voice: 'not-found-voice',
  model: 'not-found-model',
  'model-download': 'not-found-model-download',
  server: 'not-found-server',
};

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).error_message === 'string';
}

/**
 * A Retry-After header (RFC 9110 section 10.2.3) as milliseconds from `now`: delay-seconds, or an
 * HTTP date (a past one is 0). Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Maps a non-2xx response to an ApiError: a reason by what was asked where the app has more to say
 * (which resource is missing, where to fix the key), else by the server's closed code, else by the HTTP
 * status. The server's message goes along as the detail, never as the words the user reads.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  resource: ApiResource,
  retryAfter: string | null = null,
): ApiError {
  const parsed = isErrorBody(body) ? body : null;
  const serverMessage = parsed?.error_message ?? null;
  const errorCode = typeof parsed?.error_code === 'number' ? parsed.error_code : null;
  const errorId = typeof parsed?.error_id === 'string' ? parsed.error_id : undefined;
  const field = contractField(typeof parsed?.field === 'string' ? parsed.field : undefined);
  const byCode = serverReason(errorCode);
  const make = (
    code: IpcErrorCode,
    reason: AppErrorReason | ErrorReason,
    at?: string,
    params?: Record<string, string | number>,
  ) =>
    new ApiError(
      {
        code,
        reason,
        ...(params ? { params } : {}),
        ...(serverMessage ? { detail: serverMessage } : {}),
        ...(at ? { field: at } : {}),
        ...(errorId ? { errorId } : {}),
      },
      status,
      errorCode,
      serverMessage,
      null,
      parseRetryAfter(retryAfter),
    );

  if (status === 401) return make('unauthorized', 'unauthorized');
  if (status === 403) {
    if (errorCode === ErrorCode.EXPIRED_SIGNATURE) return make('forbidden', 'link-expired');
    if (errorCode === ErrorCode.INVALID_SIGNATURE) return make('forbidden', 'link-refused');
    if (resource === 'model' || resource === 'model-download') return make('forbidden', 'models-need-operator');
    if (errorCode === ErrorCode.ROLE_REQUIRED || errorCode === null) return make('forbidden', 'role-required');
    return make('forbidden', byCode ?? 'refused');
  }
  if (status === 404) {
    const byResource: Partial<Record<number, ApiResource>> = {
      [ErrorCode.TRANSCRIPTION_NOT_FOUND]: 'transcription',
      [ErrorCode.DICTIONARY_NOT_FOUND]: 'dictionary',
      [ErrorCode.WORD_NOT_FOUND]: 'word',
      [ErrorCode.BLACKLIST_WORD_NOT_FOUND]: 'replacement-rule',
      [ErrorCode.SPEAKER_NOT_FOUND]: 'voice',
      [ErrorCode.REVIEW_NOT_FOUND]: 'review',
      [ErrorCode.RESULT_NOT_READY]: 'transcript',
      [ErrorCode.ANALYSIS_NOT_FOUND]: 'analysis',
      [ErrorCode.ROUTE_NOT_FOUND]: 'server',
      [ErrorCode.MODEL_NOT_FOUND]: 'model',
      [ErrorCode.MODEL_DOWNLOAD_NOT_FOUND]: 'model-download',
    };
    return make('not-found', NOT_FOUND[(errorCode !== null && byResource[errorCode]) || resource]);
  }
  if (status === 409) {
    switch (errorCode) {
      case ErrorCode.TRANSCRIPTION_NOT_COMPLETED:
        return make('conflict', 'not-completed');
      case ErrorCode.UPLOAD_NOT_COMPLETE:
        return make('conflict', 'upload-not-complete');
      case ErrorCode.TRANSCRIPTION_ALREADY_ENDED:
        return make('conflict', 'already-ended');
      case ErrorCode.UPLOAD_ALREADY_COMPLETED:
        return make('conflict', 'already-uploaded');
      case ErrorCode.UPLOAD_CLOSED:
        return make('conflict', 'upload-closed');
      case ErrorCode.MODEL_NOT_INSTALLED:
        return make('conflict', 'model-not-installed');
      default:
        return make('conflict', byCode ?? 'conflict');
    }
  }
  if (status === 413) return make('too-large', 'too-large');
  if (status === 400 && (errorCode === ErrorCode.UNSUPPORTED_LANGUAGE || errorCode === ErrorCode.UNSUPPORTED_OPTION)) {
    // The code alone says a language was refused, for servers that do not send `field`.
    return make(
      'unsupported',
      byCode ?? 'unsupported',
      field ?? (errorCode === ErrorCode.UNSUPPORTED_LANGUAGE ? 'language' : undefined),
    );
  }
  if (status === 400 || status === 422) return make('validation', byCode ?? 'invalid', field);
  // Retried with backoff (isRetryable); this is what is left when the server keeps refusing.
  if (status === 429) return make('server', 'rate-limited');
  if (status === 507 || errorCode === ErrorCode.INSUFFICIENT_STORAGE) {
    return make(
      'insufficient-storage',
      resource === 'model' || resource === 'model-download' ? 'no-space-model' : 'no-space',
    );
  }
  if (status >= 500) return make('server', 'server-failed');
  // 415 and other 4xx: the app sent something the server does not take, which is a bug here.
  return make('internal', 'app-request-refused', undefined, { status });
}

/** The server could not be reached (as opposed to having answered with a refusal). */
export function isOfflineError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.error.code === 'offline';
}

/**
 * Runs a change the server must make. Offline it is refused with `reason` rather than queued: changes that
 * create server ids are not invented offline (docs/decisions/0007-offline-edits.md).
 */
export async function changeOnline<T>(reason: AppErrorReason, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isOfflineError(error)) throw new AppFailure({ code: 'offline', reason });
    throw error;
  }
}

/** The server could not be reached at all; the system's reason (connection refused…) is the detail. */
export function offlineError(baseUrl: string | null, cause?: unknown): ApiError {
  let host: string | null = null;
  if (baseUrl) {
    try {
      host = new URL(baseUrl).host;
    } catch {
      host = baseUrl;
    }
  }
  const networkCode = networkCodeOf(cause);
  const reason = describeNetworkCause(networkCode, cause);
  return new ApiError(
    {
      code: 'offline',
      reason: host ? 'offline-at' : 'offline',
      ...(host ? { params: { host } } : {}),
      ...(reason ? { detail: reason } : {}),
    },
    null,
    null,
    null,
    networkCode,
  );
}

/** A server that is unavailable for a known reason (e.g. the embedded server is still starting). */
export function unavailableError(reason: IpcError): ApiError {
  return new ApiError({ ...reason, code: 'offline', reason: reason.reason ?? 'offline' }, null);
}

export function cancelledError(): ApiError {
  return new ApiError({ code: 'cancelled', reason: 'cancelled' }, null);
}

/** fetch wraps the system error (sometimes an AggregateError of several attempts) in `cause`. */
export function networkCodeOf(error: unknown): string | null {
  const seen = new Set<unknown>();
  const visit = (value: unknown): string | null => {
    if (!value || typeof value !== 'object' || seen.has(value)) return null;
    seen.add(value);
    const { code, cause, errors } = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && code) return code;
    if (Array.isArray(errors))
      for (const e of errors) {
        const found = visit(e);
        if (found) return found;
      }
    return visit(cause);
  };
  return visit(error);
}

function describeNetworkCause(code: string | null, cause: unknown): string | null {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timed out';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection lost';
    default:
      return (cause as Error | undefined)?.name === 'TimeoutError' ? 'timed out' : null;
  }
}

/** True for failures worth retrying: the network, or the server (5xx). Never a 4xx. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.error.code === 'offline' || (error.status !== null && (error.status >= 500 || error.status === 429)))
  );
}
