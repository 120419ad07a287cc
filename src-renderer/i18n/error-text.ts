// Failures in the UI's language (decision 0068): an IpcError by its closed reason, a failed job by its
// failure code, a model download by its error code. The server's own text is never the message: it is
// the detail (error-details.tsx).
import type { FailureCode, ModelErrorKind } from '../../src-shared/api/vocabulary';
import { languageName } from '../../src-shared/languages';
import type { ErrorReason } from '../../src-shared/error-reasons';
import type { IpcError, IpcErrorCode, UiLanguage } from '../../src-shared/ipc-contract';
import { useCallback } from 'react';
import { selectUiLanguage, useSettingsStore } from '../stores/settings-store';
import { useT, type T } from './use-t';

/** Reasons whose words need the detail beside them (which field, which line): it is shown inline. */
const SAID_WITH_DETAIL: ReadonlySet<ErrorReason> = new Set<ErrorReason>(['app.edit-refused', 'app.invalid-request']);

/** A failure the renderer found itself (its own form checks), already worded in the UI's language. */
export interface LocalError {
  code: IpcErrorCode;
  field?: string;
  text: string;
}

/** What a form or banner shows: main's failure, or the renderer's own. */
export type ShownError = IpcError | LocalError;

/**
 * What to tell the user about `error`. A parameter named `language` is a language code, named in the
 * UI's language; an error stored by an older version (no reason) is worded by its code.
 */
export function errorText(t: T, error: ShownError, uiLanguage: UiLanguage = 'en'): string {
  if ('text' in error) return error.text;
  const params = error.params?.language
    ? { ...error.params, language: languageName(String(error.params.language), uiLanguage) }
    : error.params;
  const said = error.reason ? t(`error.${error.reason}`, params) : t(`error.code.${error.code}`);
  // Checks whose particulars only main's schema or editor words (in English) say them after the reason.
  const message = error.detail && error.reason && SAID_WITH_DETAIL.has(error.reason) ? `${said} ${error.detail}` : said;
  return error.cause ? t('error.causedBy', { message, cause: errorText(t, error.cause, uiLanguage) }) : message;
}

/** Why a transcription (or, with `analysis`, an analysis) failed; null when the server sent no code. */
export function failureText(t: T, code: FailureCode | null, analysis = false): string | null {
  if (code === null) return null;
  return analysis && code === 'bad-input' ? t('failure.analysis.bad-input') : t(`failure.${code}`);
}

/** Why a speech model download failed; null when the server sent no code. */
export function downloadFailureText(t: T, code: ModelErrorKind | null): string | null {
  return code === null ? null : t(`download.error.${code}`);
}

/** The technical part of an error, for the details: the server's words, and its error id. */
export function errorDetail(error: ShownError): string[] {
  if ('text' in error || (error.reason && SAID_WITH_DETAIL.has(error.reason))) return [];
  const lines = [error.detail, error.cause?.detail].filter((line): line is string => Boolean(line));
  return lines;
}

/** errorText bound to the UI's language, for components. */
export function useErrorText(): (error: ShownError) => string {
  const t = useT();
  const language = useSettingsStore(selectUiLanguage);
  return useCallback((error: ShownError) => errorText(t, error, language), [t, language]);
}
