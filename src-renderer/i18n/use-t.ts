import { useCallback } from 'react';
import { selectUiLanguage, useSettingsStore } from '../stores/settings-store';
import { translate, type MessageKey } from './messages';

export type T = (key: MessageKey, params?: Record<string, string | number>) => string;

/** The translator for the chosen UI language; components re-render when it changes. */
export function useT(): T {
  const language = useSettingsStore(selectUiLanguage);
  return useCallback<T>((key, params) => translate(language, key, params), [language]);
}

export function useLocale(): string {
  return useSettingsStore(selectUiLanguage) === 'ja' ? 'ja-JP' : 'en-US';
}
