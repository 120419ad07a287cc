// What the app tells the user about a failure, as closed reasons the renderer words in the UI's language
// (decision 0068). A server error becomes `server.<its error_code's name>` unless the app has more to say
// about it (which resource is missing, where to fix the key); main's own failures are `app.<reason>`.
// Neither carries words: the catalogue (src-renderer/i18n/messages.ts, `error.<reason>`) holds them in
// English and Japanese, and the server's own text travels beside as `detail`. No imports beyond
// src-shared: the renderer bundles this list.
import { ErrorCode, type ErrorCodeName } from './error-codes.js';

/** Main's own reasons: failures it words itself, and server answers it words by what was asked. */
export const APP_ERROR_REASONS = [
  // The connection and the server's answers
  'connecting',
  'offline',
  'offline-at',
  'embedded-stopped',
  'embedded-not-running',
  'embedded-starting',
  'profile-removed',
  'unauthorized',
  'link-expired',
  'link-refused',
  'models-need-operator',
  'role-required',
  'refused',
  'not-found-transcription',
  'not-found-transcript',
  'not-found-audio',
  'not-found-upload',
  'not-found-review',
  'not-found-analysis',
  'not-found-dictionary',
  'not-found-word',
  'not-found-replacement-rule',
  'not-found-voice',
  'not-found-model',
  'not-found-model-download',
  'not-found-server',
  'not-completed',
  'upload-not-complete',
  'already-ended',
  'already-uploaded',
  'upload-closed',
  'model-not-installed',
  'conflict',
  'too-large',
  'unsupported',
  'invalid',
  'rate-limited',
  'no-space',
  'no-space-model',
  'server-failed',
  'app-request-refused',
  'unreadable-answer',
  'unreadable-answer-address',
  'cancelled',
  // Main's own
  'internal',
  'page-forbidden',
  'invalid-request',
  'unsafe-file-name',
  'transcription-unreachable',
  'transcription-not-cached',
  'audio-not-uploaded',
  'transcript-unreachable',
  'transcript-not-ready',
  'rerun-running',
  'rerun-needs-file',
  'recording-format',
  'recording-incomplete',
  'recording-empty',
  'recording-not-found',
  'import-no-words',
  'import-no-rules',
  'word-already-in-dictionary',
  'reading-unpronounceable',
  'dictionary-offline',
  'dictionary-unreachable',
  'voice-offline',
  'voice-no-speech',
  'edit-refused',
  'edits-queue-full',
  'undo-conflict',
  'undo-waits-for-sending',
  'undo-offline',
  'undo-changed',
  'not-editable',
  'restore-unsent',
  'restore-changed',
  'segments-merged',
  'no-conflict',
  'segment-merged-away',
  'segments-changed-again',
  'edits-conflict',
  'review-conflict',
  'edits-deleted',
  'edits-not-sent',
  'profile-not-found',
  'no-keyring',
  'embedded-not-removable',
  'key-unreadable',
  'url-invalid',
  'url-scheme',
  'url-parts',
  'file-unreadable',
  'file-forgotten',
  'folder-forgotten',
  'file-twice',
  'folder-unreadable',
  'upload-not-listed',
  'upload-refused',
  'file-empty',
  'not-media',
  'not-media-text',
  'file-gone',
  'upload-unexpected',
  'switch-not-confirmed',
  'translation-not-cached',
  'waveform-cancelled',
  'waveform-failed',
  'download-not-followed',
] as const;
export type AppErrorReason = (typeof APP_ERROR_REASONS)[number];

export type ErrorReason = `server.${ErrorCodeName}` | `app.${AppErrorReason}`;

/** Every reason there is, for the test that each has words in both catalogues. */
export const ERROR_REASONS: readonly ErrorReason[] = [
  ...(Object.keys(ErrorCode) as ErrorCodeName[]).map((name) => `server.${name}` as const),
  ...APP_ERROR_REASONS.map((reason) => `app.${reason}` as const),
];

const NAMES = new Map<number, ErrorCodeName>(
  (Object.entries(ErrorCode) as Array<[ErrorCodeName, number]>).map(([name, code]) => [code, name]),
);

/** The reason for a server's error_code; null for a number this app does not know (a newer server's). */
export function serverReason(errorCode: number | null): ErrorReason | null {
  const name = errorCode === null ? undefined : NAMES.get(errorCode);
  return name ? `server.${name}` : null;
}
