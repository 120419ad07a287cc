// Every closed code the app can meet has words in both catalogues (decision 0068): the server's error
// codes, main's own reasons, why a job failed, why a model download failed, and each IpcErrorCode.
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/error-codes';
import { APP_ERROR_REASONS, ERROR_REASONS } from '../../../../src-shared/error-reasons';
import { FAILURE_CODES, MODEL_ERROR_KINDS } from '../../../../src-shared/api/vocabulary';
import type { IpcErrorCode } from '../../../../src-shared/ipc-contract';
import { en, ja } from '../../../../src-renderer/i18n/messages';
import { errorText, failureText, downloadFailureText } from '../../../../src-renderer/i18n/error-text';
import { translate, type MessageKey } from '../../../../src-renderer/i18n/messages';

const IPC_ERROR_CODES: Record<IpcErrorCode, true> = {
  offline: true,
  unauthorized: true,
  forbidden: true,
  'not-found': true,
  validation: true,
  conflict: true,
  'too-large': true,
  'insufficient-storage': true,
  unsupported: true,
  cancelled: true,
  server: true,
  internal: true,
};

const catalogues = { en: en as Record<string, string>, ja: ja as Record<string, string> };

function expectWords(key: string) {
  for (const [language, table] of Object.entries(catalogues)) {
    expect(table[key], `${language}: ${key}`).toEqual(expect.stringMatching(/\S/));
  }
  // The Japanese is a translation, not the English copied over.
  expect(catalogues.ja[key], `ja: ${key}`).not.toBe(catalogues.en[key]);
}

describe('the message catalogue for failures', () => {
  it('words every server error code, in English and Japanese', () => {
    for (const name of Object.keys(ErrorCode)) expectWords(`error.server.${name}`);
  });

  it('words every reason main sends for a failure of its own or for what it asked', () => {
    expect(ERROR_REASONS.length).toBe(Object.keys(ErrorCode).length + APP_ERROR_REASONS.length);
    for (const reason of ERROR_REASONS) expectWords(`error.${reason}`);
  });

  it('words why a transcription or an analysis failed, and why a model download failed', () => {
    for (const code of FAILURE_CODES) expectWords(`failure.${code}`);
    for (const kind of MODEL_ERROR_KINDS) expectWords(`download.error.${kind}`);
  });

  it('words each IpcErrorCode, for errors stored before reasons existed', () => {
    for (const code of Object.keys(IPC_ERROR_CODES)) expectWords(`error.code.${code}`);
  });
});

describe('errorText', () => {
  const t = (language: 'en' | 'ja') => (key: MessageKey, params?: Record<string, string | number>) =>
    translate(language, key, params);

  it('says a reason in the UI language, never the server’s words', () => {
    const error = {
      code: 'unsupported' as const,
      reason: 'server.UNSUPPORTED_LANGUAGE' as const,
      detail: 'Japanese needs a speech model that knows Japanese.',
    };
    expect(errorText(t('ja'), error, 'ja')).toBe(ja['error.server.UNSUPPORTED_LANGUAGE']);
    expect(errorText(t('en'), error, 'en')).not.toContain('Japanese needs');
  });

  it('names a language parameter in the UI language, and says what a failure wraps after it', () => {
    const error = {
      code: 'not-found' as const,
      reason: 'app.translation-not-cached' as const,
      params: { language: 'es' },
    };
    expect(errorText(t('ja'), error, 'ja')).toContain('スペイン語');
    expect(errorText(t('en'), error, 'en')).toContain('Spanish');
    const wrapped = {
      code: 'offline' as const,
      reason: 'app.edits-not-sent' as const,
      cause: { code: 'offline' as const, reason: 'app.offline' as const },
    };
    expect(errorText(t('ja'), wrapped, 'ja')).toBe(`${ja['error.app.edits-not-sent']} ${ja['error.app.offline']}`);
  });

  it('words an error stored without a reason by its code', () => {
    expect(errorText(t('ja'), { code: 'offline' }, 'ja')).toBe(ja['error.code.offline']);
  });

  it('words failure codes, and leaves a server without them to its own text', () => {
    expect(failureText(t('ja'), 'bad-input')).toBe(ja['failure.bad-input']);
    expect(failureText(t('ja'), 'bad-input', true)).toBe(ja['failure.analysis.bad-input']);
    expect(failureText(t('ja'), null)).toBeNull();
    expect(downloadFailureText(t('ja'), 'corrupt')).toBe(ja['download.error.corrupt']);
  });
});
