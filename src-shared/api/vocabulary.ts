// The API's closed word lists, with no TypeBox import, so that the IPC contract (bundled into the
// preload and renderer) can share them without pulling in the schema library. The schemas in
// ./common.ts and ./transcriptions.ts are built from these lists.

/** Section 3. The order is the order of the spec's table. */
export const TRANSCRIPTION_STATUSES = ['IN_PROGRESS', 'CONVERTING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

/** The statuses a transcription never leaves (docs/decisions/0001-transcription-states.md). */
export const FINAL_TRANSCRIPTION_STATUSES: readonly TranscriptionStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** Still being processed: started (or waiting for its audio) and not yet in a final status. */
export function isProcessing(status: TranscriptionStatus): boolean {
  return status === 'CONVERTING' || status === 'IN_PROGRESS';
}

/** transcription_model values a client may ask for at upload. */
export const TRANSCRIPTION_MODELS = ['default', 'diarization-high'] as const;
export type TranscriptionModel = (typeof TRANSCRIPTION_MODELS)[number];

/**
 * Roles an API key may carry (`kikitori-server keys create --role …`). DELETE: delete its team's
 * transcriptions. ADMIN: a team role, kept for existing keys; it grants nothing server-wide. OPERATOR:
 * manage what the whole server shares (speech models), given only by whoever runs the server (decision 0045).
 */
export const API_KEY_ROLES = ['DELETE', 'ADMIN', 'OPERATOR'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/**
 * Extension: what a running transcription is doing now (the Transcription view's `stage`), in pipeline
 * order. `queued`: started, and waiting for a free worker. Null before it is started and once it ended.
 * Engines that find speech before recognizing it report `detecting-speech`; the others go straight to
 * `recognizing`.
 */
export const TRANSCRIPTION_STAGES = [
  'queued',
  'converting',
  'detecting-speech',
  'recognizing',
  'separating-speakers',
  'applying-dictionary',
  'finishing',
] as const;
export type TranscriptionStage = (typeof TRANSCRIPTION_STAGES)[number];

/**
 * Extension: what a finished transcription's `warnings` may say (decision 0070). LANGUAGE_MISMATCH: the
 * audio is most likely not in the language it was transcribed as (`likely_language` when known).
 */
export const TRANSCRIPTION_WARNING_CODES = ['LANGUAGE_MISMATCH'] as const;
export type TranscriptionWarningCode = (typeof TRANSCRIPTION_WARNING_CODES)[number];

/** One entry of a Transcription's `warnings`, as on the wire. */
export interface TranscriptionWarning {
  code: TranscriptionWarningCode;
  /** English, for people reading the API; apps show their own text from the code. */
  message: string;
  /** ISO 639-1 code of the language the audio sounds like; null when it cannot be told. */
  likely_language: string | null;
}

/**
 * Extension: why a job FAILED (or a ticket was CANCELLED), as a closed code a client words in its own
 * language: a transcription's `failure_code`, an analysis' `error_code`. The text beside it
 * (`failure_reason`, `error`) is the server's own words, in English, for the details. The first four are
 * the engines' failure kinds (src-server/domain/engine-error.ts); `internal`: anything else (a bug, the
 * database, the disk; the text carries an error id); `upload-expired`: the audio never arrived in time.
 */
export const FAILURE_CODES = [
  'unavailable',
  'unsupported',
  'bad-input',
  'transient',
  'internal',
  'upload-expired',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** A failure code a client knows how to word; a newer server's other codes read as none (its text still shows). */
export function knownFailureCode(code: unknown): FailureCode | null {
  return (FAILURE_CODES as readonly unknown[]).includes(code) ? (code as FailureCode) : null;
}

/** Extension: why a speech model download FAILED (its status' `error_code`); see src-server/models/model-error.ts. */
export const MODEL_ERROR_KINDS = [
  /** No catalogue entry has this name. */
  'not-found',
  /** The model is not on disk. */
  'not-installed',
  /** Not enough free disk space for the file. */
  'insufficient-storage',
  /** The model server could not be reached (offline, DNS, refused, TLS). Trying later may work. */
  'unreachable',
  /** The server answered, but without the file (404, 403…) or with an error (5xx). */
  'source-failed',
  /** The transfer stopped part-way; the partial file is kept and the next download resumes it. */
  'interrupted',
  /** The bytes do not match the catalogue's size or SHA-256; nothing is kept. */
  'corrupt',
  /** Cancelled by the user; nothing is kept. */
  'cancelled',
  /** The bytes match the catalogue, but whisper.cpp could not load them (not a whisper ggml model); nothing is kept. */
  'unusable',
  /** A file given to install (not downloaded) differs from the catalogue entry in size or SHA-256; nothing is kept. */
  'not-this-model',
  /** Anything else (a bug, the disk): the text says so. */
  'internal',
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];
