// How Settings → Speech recognition words things for the user: the engine in use in plain words
// (engine names only in the details), languages, progress, and errors by their closed code.
import type {
  IpcError,
  SpeechEngineInUse,
  SpeechModel,
  SpeechModelDownload,
  UiLanguage,
} from '../../../src-shared/ipc-contract';
import type { MessageKey } from '../../i18n/messages';
import type { T } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { errorText as appErrorText, downloadFailureText } from '../../i18n/error-text';

export function languagesLabel(t: T, multilingual: boolean): string {
  return t(multilingual ? 'settings.speech.languages.multi' : 'settings.speech.languages.english');
}

/** The headline ("Built-in English recognizer", "Whisper base — 99 languages") and the details ("Using: whisper base"). */
export function engineLabels(
  t: T,
  serving: SpeechEngineInUse,
  models: readonly SpeechModel[],
): { headline: string; using: string } {
  const using = t('settings.speech.using', { engine: [serving.engine, serving.model].filter(Boolean).join(' ') });
  switch (serving.engine) {
    case 'pocketsphinx':
      return { headline: t('settings.speech.headline.builtin'), using };
    case 'whisper': {
      const known = models.find((m) => m.name === serving.model);
      const multilingual = known ? known.multilingual : serving.detectsLanguage;
      return {
        headline: t('settings.speech.headline.whisper', {
          model: serving.model ?? '',
          languages: languagesLabel(t, multilingual),
        }),
        using,
      };
    }
    case 'remote':
      return { headline: t('settings.speech.headline.remote'), using };
    default:
      return { headline: t('settings.speech.headline.other'), using };
  }
}

/** "45% · 66.6 MB of 148 MB", or what the server is doing when there are no bytes to count. */
export function progressText(t: T, download: SpeechModelDownload): string {
  if (download.status === 'VERIFYING') return t('settings.speech.verifying');
  if (download.status === 'INSTALLING') {
    const percent =
      download.totalBytes > 0 ? Math.min(100, Math.floor((download.receivedBytes / download.totalBytes) * 100)) : 0;
    return t('settings.speech.installing', { percent });
  }
  if (download.totalBytes <= 0) return t('settings.speech.starting');
  const percent = Math.min(100, Math.floor((download.receivedBytes / download.totalBytes) * 100));
  return t('settings.speech.progress', {
    percent,
    received: formatBytes(download.receivedBytes),
    total: formatBytes(download.totalBytes),
  });
}

const ERROR_KEYS: Partial<Record<IpcError['code'], MessageKey>> = {
  offline: 'settings.speech.error.offline',
  unauthorized: 'settings.speech.error.unauthorized',
  forbidden: 'settings.speech.error.forbidden',
  'not-found': 'settings.speech.error.not-found',
  conflict: 'settings.speech.error.conflict',
  'insufficient-storage': 'settings.speech.error.insufficient-storage',
  server: 'settings.speech.error.server',
};

/**
 * An error in the UI's language: this section's own words by its code, where it has them (they say
 * what the list does next); for the others (a refused request, a bug) the app's words for its reason.
 */
export function errorText(t: T, error: IpcError, uiLanguage: UiLanguage): string {
  const key = ERROR_KEYS[error.code];
  const text = key ? t(key) : appErrorText(t, error, uiLanguage);
  return error.errorId ? `${text} ${t('settings.speech.errorId', { id: error.errorId })}` : text;
}

/**
 * Why a download FAILED, in the UI's language: by the server's code, else the app's reason for losing
 * it, else (a server that sends no code) the general words.
 */
export function downloadFailedText(t: T, download: SpeechModelDownload, uiLanguage: UiLanguage): string {
  if (download.unfollowed)
    return `${t('settings.speech.downloadFailed')} ${appErrorText(t, download.unfollowed, uiLanguage)}`;
  return downloadFailureText(t, download.errorCode) ?? t('settings.speech.downloadFailed');
}
