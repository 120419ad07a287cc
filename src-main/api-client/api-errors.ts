// Turns the API's error body (spec 2.10) and network failures into IpcErrors a user can act on.
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { ApiErrorBody } from '../../src-shared/api-types.js';
import type { IpcError, IpcErrorCode } from '../../src-shared/ipc-contract.js';
import { AppFailure } from '../app-failure.js';

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
  | 'model'
  | 'model-download'
  | 'server';

/** An API failure: an AppFailure (so handlers can let it cross IPC as is) with the HTTP details kept. */
export class ApiError extends AppFailure {
  constructor(
    error: IpcError,
    /** HTTP status; null for network failures and cancellation. */
    readonly status: number | null,
    /** The spec body's error_code, when the server sent one. */
    readonly errorCode: number | null = null,
    /** The server's own message, before it was rewritten for the user. */
    readonly serverMessage: string | null = null,
    /** For network failures: the system error code (ECONNREFUSED...), when known. */
    readonly networkCode: string | null = null,
    /** How long the server asked to wait before trying again (its Retry-After), when it said. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(error);
  }
}

export const UNAUTHORIZED_MESSAGE = 'The server refused the API key. Check the key in Settings → Servers.';

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

const NOT_FOUND: Record<ApiResource, string> = {
  transcription: 'This transcription no longer exists on the server; it may have been deleted.',
  transcript: 'The transcript is not ready yet. It appears once the transcription is COMPLETED.',
  audio: 'The audio of this transcription is no longer on the server.',
  upload: 'The server no longer knows this upload. Add the file again.',
  review: 'No corrected text has been saved for this transcription yet.',
  analysis: 'This analysis has not been requested yet.',
  dictionary: 'This dictionary no longer exists on the server; it may have been deleted.',
  word: 'This word is no longer in the dictionary.',
  'replacement-rule': 'This replacement is no longer in the dictionary.',
  model: 'The server does not offer this speech model. Refresh Settings → Speech recognition to see the models it has.',
  'model-download':
    'This download is no longer running on the server (it may have restarted). Start the download again.',
  server: 'The server does not offer this operation. Check the server address in Settings → Servers.',
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

/** Maps a non-2xx response to an ApiError with a message the user can act on. */
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
  const make = (code: IpcErrorCode, message: string, at?: string) =>
    new ApiError(
      { code, message, ...(at ? { field: at } : {}), ...(errorId ? { errorId } : {}) },
      status,
      errorCode,
      serverMessage,
      null,
      parseRetryAfter(retryAfter),
    );

  if (status === 401) return make('unauthorized', UNAUTHORIZED_MESSAGE);
  if (status === 403) {
    if (errorCode === ErrorCode.EXPIRED_SIGNATURE) {
      return make('forbidden', 'The download or upload link expired. Try again: Kikitori fetches a fresh one.');
    }
    if (errorCode === ErrorCode.INVALID_SIGNATURE)
      return make('forbidden', 'The server refused the link it issued. Try again.');
    if (resource === 'model' || resource === 'model-download') {
      return make(
        'forbidden',
        "Your API key is not allowed to download or remove speech models: they are the whole server's, so that needs a key with the OPERATOR role. Ask whoever runs the server to do it, or for such a key.",
      );
    }
    return make(
      'forbidden',
      errorCode === ErrorCode.ROLE_REQUIRED || errorCode === null
        ? 'Your API key is not allowed to do this (deleting needs a key with the DELETE role). Ask your server administrator for such a key, then update it in Settings → Servers.'
        : (serverMessage ?? 'The server refused this operation.'),
    );
  }
  if (status === 404) {
    const byCode: Partial<Record<number, ApiResource>> = {
      [ErrorCode.TRANSCRIPTION_NOT_FOUND]: 'transcription',
      [ErrorCode.DICTIONARY_NOT_FOUND]: 'dictionary',
      [ErrorCode.WORD_NOT_FOUND]: 'word',
      [ErrorCode.BLACKLIST_WORD_NOT_FOUND]: 'replacement-rule',
      [ErrorCode.REVIEW_NOT_FOUND]: 'review',
      [ErrorCode.RESULT_NOT_READY]: 'transcript',
      [ErrorCode.ANALYSIS_NOT_FOUND]: 'analysis',
      [ErrorCode.ROUTE_NOT_FOUND]: 'server',
      [ErrorCode.MODEL_NOT_FOUND]: 'model',
      [ErrorCode.MODEL_DOWNLOAD_NOT_FOUND]: 'model-download',
    };
    return make('not-found', NOT_FOUND[(errorCode !== null && byCode[errorCode]) || resource]);
  }
  if (status === 409) {
    switch (errorCode) {
      case ErrorCode.TRANSCRIPTION_NOT_COMPLETED:
        return make('conflict', 'The transcription is not finished yet. Try again once it is COMPLETED.');
      case ErrorCode.UPLOAD_NOT_COMPLETE:
        return make('conflict', 'The audio has not finished uploading yet.');
      case ErrorCode.TRANSCRIPTION_ALREADY_ENDED:
        return make('conflict', 'This transcription has already ended. Add the file again to transcribe it again.');
      case ErrorCode.UPLOAD_ALREADY_COMPLETED:
        return make('conflict', 'This file was already uploaded.');
      case ErrorCode.UPLOAD_CLOSED:
        return make('conflict', 'The server closed this upload (it waited too long). Add the file again.');
      case ErrorCode.MODEL_NOT_INSTALLED:
        return make('conflict', 'This speech model is not installed on the server any more. Refresh the list.');
      default:
        return make(
          'conflict',
          serverMessage ?? 'The server refused the operation in the current state. Refresh and try again.',
        );
    }
  }
  if (status === 413) {
    return make(
      'too-large',
      serverMessage
        ? `The file is too large for the server. ${serverMessage}`
        : 'The file is too large for the server.',
    );
  }
  if (status === 400 && (errorCode === ErrorCode.UNSUPPORTED_LANGUAGE || errorCode === ErrorCode.UNSUPPORTED_OPTION)) {
    // The code alone says a language was refused, for servers that do not send `field`.
    return make(
      'unsupported',
      serverMessage ?? 'The server cannot honour this language or option.',
      field ?? (errorCode === ErrorCode.UNSUPPORTED_LANGUAGE ? 'language' : undefined),
    );
  }
  if (status === 400 || status === 422) {
    return make('validation', serverMessage ?? 'The server refused the request as invalid.', field);
  }
  if (status === 429) {
    // Retried with backoff (isRetryable); this is what is left when the server keeps refusing.
    return make(
      'server',
      "The server is receiving too many requests with this API key and asked Kikitori to wait. Try again in a minute; if it keeps happening, ask the server's administrator about its rate limit.",
    );
  }
  if (status === 507 || errorCode === ErrorCode.INSUFFICIENT_STORAGE) {
    if (resource !== 'model' && resource !== 'model-download') {
      return make(
        'insufficient-storage',
        serverMessage ??
          "The server does not have enough free disk space for this. Try again later, or ask the server's administrator to free some space.",
      );
    }
    return make(
      'insufficient-storage',
      `The server does not have enough free disk space for this.${serverMessage ? ` ${serverMessage}` : ''} Free some space on it, or choose a smaller model.`,
    );
  }
  if (status >= 500) {
    return make(
      'server',
      `The server had a problem and could not finish the request${errorId ? ` (error id ${errorId})` : ''}. Try again later; if it keeps happening, tell the server's administrator${errorId ? ', quoting the error id' : ''}.`,
    );
  }
  // 415 and other 4xx: the app sent something the server does not take, which is a bug here.
  return make(
    'internal',
    `The server refused a request Kikitori made (HTTP ${status}${serverMessage ? `: ${serverMessage}` : ''}). Please report it.`,
  );
}

/** The server could not be reached at all. */
export function offlineError(baseUrl: string | null, cause?: unknown): ApiError {
  let where = 'the server';
  if (baseUrl) {
    try {
      where = `the server at ${new URL(baseUrl).host}`;
    } catch {
      where = `the server at ${baseUrl}`;
    }
  }
  const networkCode = networkCodeOf(cause);
  const reason = describeNetworkCause(networkCode, cause);
  return new ApiError(
    {
      code: 'offline',
      message: `Cannot reach ${where}${reason ? ` (${reason})` : ''}. Check your connection or the server address in Settings → Servers; transcripts already on this computer are still available.`,
    },
    null,
    null,
    null,
    networkCode,
  );
}

/** A server that is unavailable for a known reason (e.g. the embedded server is still starting). */
export function unavailableError(reason: string): ApiError {
  return new ApiError({ code: 'offline', message: reason }, null);
}

export function cancelledError(): ApiError {
  return new ApiError({ code: 'cancelled', message: 'Cancelled.' }, null);
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
