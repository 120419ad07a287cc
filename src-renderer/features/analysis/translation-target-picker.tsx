// The translation's target by language name, in the UI's language: first what the server translates on
// its own (offline), then what goes through the language model the server is set up with, said so in
// the list. Without one, that group says it is missing and nothing in it can be chosen (decision 0087).
import { useMemo } from 'react';
import type { TranslationTargets } from '../../../src-shared/ipc-contract';
import { LANGUAGE_CODES, languageName, languageOptions } from '../../../src-shared/languages';
import { useT } from '../../i18n/use-t';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';

export interface TranslationTargetPickerProps {
  id: string;
  value: string;
  onChange: (code: string) => void;
  /** undefined while loading or when the server could not be asked. */
  targets: TranslationTargets | undefined;
  /** The server could not be asked: the reason shows beside the list, which stays empty. */
  failed?: boolean;
  describedBy?: string;
  invalid?: boolean;
}

/** The codes of each group: the LLM's are every other language when it takes any. */
export function targetGroups(targets: TranslationTargets): { offline: string[]; llm: string[] } {
  const offline = targets.offline.filter((code) => code !== targets.source);
  const taken = new Set([targets.source, ...offline]);
  const llm = (targets.llmAnyLanguage ? [...LANGUAGE_CODES, ...targets.llm] : targets.llm).filter(
    (code) => !taken.has(code),
  );
  return { offline, llm: [...new Set(llm)] };
}

export function TranslationTargetPicker({
  id,
  value,
  onChange,
  targets,
  failed = false,
  describedBy,
  invalid,
}: TranslationTargetPickerProps) {
  const t = useT();
  const locale = useSettingsStore(selectUiLanguage);
  const groups = useMemo(() => {
    if (!targets) return null;
    const { offline, llm } = targetGroups(targets);
    return { offline: languageOptions(locale, offline), llm: languageOptions(locale, llm) };
  }, [targets, locale]);
  const listed = groups !== null && [...groups.offline, ...groups.llm].some((o) => o.code === value);

  return (
    <select
      id={id}
      value={value}
      data-testid="translation-target"
      disabled={!groups}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="" disabled>
        {t(groups || failed ? 'analysis.translation.choose' : 'common.loading')}
      </option>
      {/* A translation made earlier into a language the server no longer lists stays shown. */}
      {value && !listed && <option value={value}>{languageName(value, locale)}</option>}
      {groups && (
        <optgroup label={t('analysis.translation.offlineGroup')} data-testid="translation-offline">
          {groups.offline.length > 0 ? (
            groups.offline.map((o) => (
              <option key={o.code} value={o.code}>
                {o.name}
              </option>
            ))
          ) : (
            <option value="-no-offline" disabled>
              {t('analysis.translation.noneOffline')}
            </option>
          )}
        </optgroup>
      )}
      {groups && (
        <optgroup label={t('analysis.translation.llmGroup')} data-testid="translation-llm">
          {groups.llm.length > 0 ? (
            groups.llm.map((o) => (
              <option key={o.code} value={o.code}>
                {o.name}
              </option>
            ))
          ) : (
            <option value="-no-llm" disabled>
              {t('analysis.translation.noLlm')}
            </option>
          )}
        </optgroup>
      )}
    </select>
  );
}
