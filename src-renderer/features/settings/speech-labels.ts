// How Settings → Speech recognition words things for the user: the engine in use in plain words
// (engine names only in the details), languages, progress, and errors by their closed code.
import type {
  IpcError,
  SpeechEngineInUse,
  SpeechModel,
  SpeechModelDownload,
  SpeechModelPrecision,
  UiLanguage,
} from '../../../src-shared/ipc-contract';
import { joinSentences, type MessageKey } from '../../i18n/messages';
import type { T } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { errorText as appErrorText, downloadFailureText } from '../../i18n/error-text';

export function languagesLabel(t: T, multilingual: boolean): string {
  return t(multilingual ? 'settings.speech.languages.multi' : 'settings.speech.languages.english');
}

/** A model by its plain name: "Whisper small — 99 languages", "Whisper small — English only". */
export function modelName(t: T, model: Pick<SpeechModel, 'family' | 'multilingual'>): string {
  return t('settings.speech.headline.whisper', {
    model: model.family,
    languages: languagesLabel(t, model.multilingual),
  });
}

/** One file of a model: its plain name, and for a compressed file what it keeps of the model's accuracy. */
export function variantName(t: T, model: Pick<SpeechModel, 'family' | 'multilingual' | 'precision'>): string {
  const name = modelName(t, model);
  return model.precision === 'full' ? name : t(`settings.speech.compressedName.${model.precision}`, { model: name });
}

/** What a file is beside the others of its model: "Full size", "Compressed: nearly as accurate"… */
export function precisionLabel(t: T, precision: SpeechModelPrecision): string {
  return t(`settings.speech.precision.${precision}`);
}

/** Files of one model (family and languages), in the catalogue's order, the full file first. */
export interface ModelGroup {
  key: string;
  family: string;
  multilingual: boolean;
  /** The model's speed and accuracy (the full file's). */
  speed: SpeechModel['speed'];
  accuracy: SpeechModel['accuracy'];
  variants: SpeechModel[];
}

const PRECISION_ORDER: readonly SpeechModelPrecision[] = ['full', 'near-full', 'reduced'];

export function groupModels(models: readonly SpeechModel[]): ModelGroup[] {
  const groups = new Map<string, ModelGroup>();
  for (const model of models) {
    const key = `${model.family}|${model.multilingual ? 'multi' : 'en'}`;
    const group = groups.get(key) ?? {
      key,
      family: model.family,
      multilingual: model.multilingual,
      speed: model.speed,
      accuracy: model.accuracy,
      variants: [],
    };
    group.variants.push(model);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    group.variants.sort((a, b) => PRECISION_ORDER.indexOf(a.precision) - PRECISION_ORDER.indexOf(b.precision));
    const head = group.variants[0]!;
    [group.speed, group.accuracy] = [head.speed, head.accuracy];
  }
  return [...groups.values()];
}

/**
 * The headline of what transcribes now, in plain words: "Built-in English recognizer", "Whisper base — 99
 * languages". Engine names stay out of it (issue 27).
 */
export function engineHeadline(t: T, serving: SpeechEngineInUse, models: readonly SpeechModel[]): string {
  switch (serving.engine) {
    case 'pocketsphinx':
      return t('settings.speech.headline.builtin');
    case 'whisper': {
      const known = models.find((m) => m.name === serving.model);
      if (known) return variantName(t, known);
      // A file named by KIKITORI_WHISPER_MODEL outside the catalogue: its own name is all there is.
      return t('settings.speech.headline.whisper', {
        model: serving.model ?? '',
        languages: languagesLabel(t, serving.detectsLanguage),
      });
    }
    case 'remote':
      return t('settings.speech.headline.remote');
    default:
      return t('settings.speech.headline.other');
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
  return error.errorId ? joinSentences(uiLanguage, text, t('settings.speech.errorId', { id: error.errorId })) : text;
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
