// Coded application errors. Each carries its HTTP status; the error handler renders the spec's body.
import { ErrorCode, type ErrorCodeName } from '../../src-shared/error-codes.js';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCodeName,
    message: string,
    /** Where the bad input is ("words.0.reading"); sent as the error body's `field`. */
    readonly field?: string,
    /** What a client needs to act on it (a conflict's segment ids); sent as the error body's `details`. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
  get errorCode(): number {
    return ErrorCode[this.code];
  }
  /** Extra fields for the log line of this failure (never for the response body). */
  logFields(): Record<string, unknown> {
    return {};
  }
}

export const errors = {
  /** `field`: the bad input's path ("num_speakers", "words.0.reading"), so clients need not read the message. */
  validation: (message: string, field?: string) => new AppError(400, 'VALIDATION_FAILED', message, field),
  malformedJson: (detail: string) =>
    new AppError(
      400,
      'MALFORMED_JSON',
      `The request body is not valid JSON (${detail}). Send a JSON document with Content-Type: application/json.`,
    ),
  invalidPage: (raw: unknown) =>
    new AppError(400, 'INVALID_PAGE', `page must be a whole number of 1 or more; got ${JSON.stringify(raw)}.`, 'page'),
  unsupportedLanguage: (message: string, field?: string) => new AppError(400, 'UNSUPPORTED_LANGUAGE', message, field),
  unsupportedOption: (message: string, field?: string) => new AppError(400, 'UNSUPPORTED_OPTION', message, field),
  missingApiKey: () =>
    new AppError(
      401,
      'MISSING_API_KEY',
      'No API key was sent. Send it in the X-API-KEY header or as "Authorization: Bearer <key>".',
    ),
  invalidApiKey: () =>
    new AppError(
      401,
      'INVALID_API_KEY',
      'The API key is not valid or has been revoked. Create a key with `kikitori-server keys create`.',
    ),
  roleRequired: (role: string, action: string) =>
    new AppError(
      403,
      'ROLE_REQUIRED',
      `${action} requires an API key with the ${role} role. Ask an administrator for a key created with --role ${role}.`,
    ),
  invalidSignature: () =>
    new AppError(
      403,
      'INVALID_SIGNATURE',
      'This signed URL is not valid. Use the exact URL the API returned; request a new one if needed.',
    ),
  expiredSignature: () =>
    new AppError(
      403,
      'EXPIRED_SIGNATURE',
      'This signed URL has expired. Fetch the resource again from the API to get a fresh URL.',
    ),
  malformedUrl: () =>
    new AppError(
      400,
      'MALFORMED_URL',
      'The request path is not a valid URL (check its percent-escapes, such as %20). Use the URLs the API returns.',
    ),
  methodNotAllowed: (method: string, url: string, allowed: readonly string[]) =>
    new AppError(
      405,
      'METHOD_NOT_ALLOWED',
      `${url} does not accept ${method}; it accepts ${allowed.join(', ')}. See /docs for the API.`,
    ),
  uriTooLong: () =>
    new AppError(
      414,
      'URI_TOO_LONG',
      'A path parameter of this URL is too long (ids are at most 100 characters). Use the ids the API returns.',
    ),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'ROUTE_NOT_FOUND', `No operation ${method} ${url}. See /docs for the API.`),
  /** `field`: where a request named it (a voice sample's "samples.0.transcription_id"). */
  transcriptionNotFound: (id: string, field?: string) =>
    new AppError(404, 'TRANSCRIPTION_NOT_FOUND', `No transcription with id "${id}" in your team.`, field),
  speakerNotFound: (id: string) =>
    new AppError(404, 'SPEAKER_NOT_FOUND', `No speaker with id "${id}" in your team's voice library.`),
  /** A voice sample that cannot be used (outside its recording, too little speech); `field` names it. */
  speakerSampleInvalid: (message: string, field: string) => new AppError(400, 'SPEAKER_SAMPLE_INVALID', message, field),
  tooManyVoices: (limit: number) =>
    new AppError(
      409,
      'TOO_MANY_VOICES',
      `Your team's voice library already holds ${limit} voices, the most this server keeps per team. Delete voices you no longer need, then enrol this one again.`,
    ),
  /** `field`: where a request named it (the OpenAI route's "dictionary_id" form field). */
  dictionaryNotFound: (id: string, field?: string) =>
    new AppError(404, 'DICTIONARY_NOT_FOUND', `No dictionary with id "${id}" in your team.`, field),
  wordNotFound: (id: string) => new AppError(404, 'WORD_NOT_FOUND', `No word with id "${id}" in this dictionary.`),
  replacementRuleNotFound: (id: string) =>
    new AppError(404, 'BLACKLIST_WORD_NOT_FOUND', `No blacklist word with id "${id}" in this dictionary.`),
  reviewNotFound: (id: string) =>
    new AppError(
      404,
      'REVIEW_NOT_FOUND',
      `Transcription "${id}" has no review yet. POST {"reviewed_text": "..."} to /review to save one.`,
    ),
  resultNotReady: (id: string) =>
    new AppError(
      404,
      'RESULT_NOT_READY',
      `Transcription "${id}" has no transcript yet; wait until its status is COMPLETED.`,
    ),
  analysisNotFound: (id: string, label: string, segment: string, language?: string) =>
    new AppError(
      404,
      'ANALYSIS_NOT_FOUND',
      language
        ? `Transcription "${id}" has no ${label} into "${language}". POST {"language": "${language}"} to /${segment} to request one.`
        : `Transcription "${id}" has no ${label} yet. POST to /${segment} to request one.`,
    ),
  uploadNotComplete: (id: string) =>
    new AppError(
      409,
      'UPLOAD_NOT_COMPLETE',
      `The audio of transcription "${id}" has not been uploaded yet. PUT the file to audio_upload_url first.`,
    ),
  transcriptionRunning: (id: string, status: string) =>
    new AppError(
      409,
      'TRANSCRIPTION_RUNNING',
      `Transcription "${id}" is being transcribed (status ${status}); wait until it has finished, then transcribe it again.`,
    ),
  audioGone: (id: string) =>
    new AppError(
      410,
      'AUDIO_GONE',
      `The stored audio of transcription "${id}" is gone, so it cannot be transcribed again; upload the file again.`,
    ),
  transcriptionAlreadyEnded: (id: string, status: string) =>
    new AppError(
      409,
      'TRANSCRIPTION_ALREADY_ENDED',
      `Transcription "${id}" has already ended with status ${status}; request a new upload to transcribe again.`,
    ),
  uploadAlreadyCompleted: () =>
    new AppError(
      409,
      'UPLOAD_ALREADY_COMPLETED',
      'This upload URL has already been used. Request a new upload ticket to send another file.',
    ),
  /** The uploaded bytes' SHA-256 is not the one the client's Content-Digest or x-amz-checksum-sha256 named. */
  checksumMismatch: () =>
    new AppError(
      400,
      'CHECKSUM_MISMATCH',
      'The file arrived different from the checksum sent with it, so it was not stored. Upload it again; if this repeats, check the file and the network.',
    ),
  /** A tus request the server cannot follow; `detail` is what @tus/server said. */
  tusRequestInvalid: (detail: string) =>
    new AppError(
      400,
      'TUS_REQUEST_INVALID',
      `The resumable upload request was not understood (${detail}). Use a tus 1.0 client, or PUT the whole file to the upload URL.`,
    ),
  /** The transcript moved on from the revision the client named (If-Match), or its edits meet another's. */
  revisionConflict: (current: number, conflict?: { segments: number[]; speakers: string[] }) =>
    new AppError(
      412,
      'REVISION_CONFLICT',
      conflict
        ? `Someone else changed the same part of this transcript since your revision (now revision ${current}). Reload it, check the segments named in details, and make your edit again.`
        : `This transcript has changed since the revision you named (now revision ${current}). Reload it and try again.`,
      undefined,
      {
        current_revision: current,
        conflicting_segment_ids: conflict?.segments ?? [],
        conflicting_speakers: conflict?.speakers ?? [],
      },
    ),
  tusVersionUnsupported: () =>
    new AppError(
      412,
      'TUS_VERSION_UNSUPPORTED',
      'This server speaks tus 1.0.0 only: send Tus-Resumable: 1.0.0, or PUT the whole file to the upload URL.',
    ),
  uploadOffsetMismatch: () =>
    new AppError(
      409,
      'UPLOAD_OFFSET_MISMATCH',
      'The upload continued from a different point than the server has. Ask the server for its offset (HEAD) and resume from there.',
    ),
  tusUploadNotFound: () =>
    new AppError(
      404,
      'ROUTE_NOT_FOUND',
      "There is no resumable upload at this URL: it finished, was cancelled, or was never created. Start again from the ticket's audio_upload_url.",
    ),
  uploadClosed: (status: string) =>
    new AppError(
      409,
      'UPLOAD_CLOSED',
      `This transcription is ${status} and no longer accepts audio. Request a new upload ticket.`,
    ),
  tooManyReplacementRules: (limit: number, existing: number, adding: number) =>
    new AppError(
      409,
      'TOO_MANY_BLACKLIST_WORDS',
      `This dictionary has ${existing} blacklist words; adding ${adding} would pass the limit of ${limit} per dictionary. Delete rules it no longer needs first.`,
    ),
  transcriptionNotCompleted: (id: string, status: string) =>
    new AppError(
      409,
      'TRANSCRIPTION_NOT_COMPLETED',
      `Transcription "${id}" is ${status}; this needs it to be COMPLETED.`,
    ),
  payloadTooLarge: (limit: number) =>
    new AppError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The file is larger than the server's limit of ${limit} bytes (KIKITORI_MAX_UPLOAD_BYTES).`,
    ),
  unsupportedMediaType: (message: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message),
  /** A team's stored audio would pass KIKITORI_TEAM_QUOTA_BYTES (decision 0026). */
  quotaExceeded: (message: string) => new AppError(403, 'QUOTA_EXCEEDED', message),
  rateLimited: (message: string) => new AppError(429, 'RATE_LIMITED', message),
  /** The server's disk cannot take what the request would store. */
  insufficientStorage: (message: string) => new AppError(507, 'INSUFFICIENT_STORAGE', message),
  notReady: (message: string) => new AppError(503, 'NOT_READY', message),
  serverBusy: (retryAfterSeconds: number) =>
    new AppError(
      503,
      'SERVER_BUSY',
      `The server is busy with other transcriptions and its wait queue is full. Try again in about ${retryAfterSeconds} seconds (the Retry-After header).`,
    ),
  rangeNotSatisfiable: (size: number) =>
    new AppError(
      416,
      'RANGE_NOT_SATISFIABLE',
      `The requested Range is outside the file (size ${size} bytes).`,
    ) /** The team has KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM resumable uploads open (decision 0043). */,
  tooManyOpenUploads: (limit: number) =>
    new AppError(
      409,
      'TOO_MANY_OPEN_UPLOADS',
      `Your team already has ${limit} resumable uploads in progress, the most this server allows at once. Finish or cancel one of them (or wait until its upload URL expires), then try again.`,
    ),
};
