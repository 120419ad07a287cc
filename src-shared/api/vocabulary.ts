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
