// Full-text search and list filters, and Record (record-panel.tsx).
import { useEffect, useId, useState } from 'react';
import { TRANSCRIPTION_STATUSES, type TranscriptionStatus } from '../../../src-shared/ipc-contract';
import { languageName } from '../../../src-shared/languages';
import { useT } from '../../i18n/use-t';
import { useLibraryStore } from '../../stores/library-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { RecordButton } from './record-panel';

/** Converting is the first step of transcribing: one filter choice covers both. */
const SHOWN_AS: Partial<Record<TranscriptionStatus, TranscriptionStatus>> = { CONVERTING: 'IN_PROGRESS' };

const STATUS_CHOICES: Array<{ value: string; statuses?: TranscriptionStatus[] }> = [
  { value: '' },
  ...TRANSCRIPTION_STATUSES.filter((status) => !SHOWN_AS[status]).map((value) => ({
    value,
    statuses: [value, ...TRANSCRIPTION_STATUSES.filter((status) => SHOWN_AS[status] === value)],
  })),
];

const LANGUAGES = ['en', 'ja', 'es', 'fr', 'de', 'zh', 'ko'];

export function LibraryToolbar() {
  const t = useT();
  // Named as the list's Language column names them (languageList), in the UI's language.
  const uiLanguage = useSettingsStore(selectUiLanguage);
  const id = useId();
  const search = useLibraryStore((state) => state.search);
  const setFilter = useLibraryStore((state) => state.setFilter);
  const filter = useLibraryStore((state) => state.filter);
  const total = useLibraryStore((state) => state.total);
  const [text, setText] = useState(() => useLibraryStore.getState().query);

  useEffect(() => {
    // Search as the user types, once they pause.
    const timer = setTimeout(() => void search(text), 120);
    return () => clearTimeout(timer);
  }, [text, search]);

  const statusValue =
    STATUS_CHOICES.find((choice) => choice.statuses?.[0] && filter.status?.includes(choice.statuses[0]))?.value ?? '';

  return (
    <div className="toolbar" role="search">
      <label htmlFor={`${id}-search`} className="visually-hidden">
        {t('library.search.label')}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="search-input"
        data-testid="search-input"
        placeholder={t('library.search.placeholder')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setText('');
        }}
      />
      <div className="filters" role="group" aria-label={t('library.filters.label')}>
        <label htmlFor={`${id}-status`}>{t('library.filters.status')}</label>
        <select
          id={`${id}-status`}
          value={statusValue}
          onChange={(event) =>
            void setFilter({ status: STATUS_CHOICES.find((choice) => choice.value === event.target.value)?.statuses })
          }
        >
          {STATUS_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.value ? t(`status.${choice.value as TranscriptionStatus}`) : t('library.filters.status.all')}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-language`}>{t('library.filters.language')}</label>
        <select
          id={`${id}-language`}
          value={filter.language ?? ''}
          onChange={(event) => void setFilter({ language: event.target.value || undefined })}
        >
          <option value="">{t('library.filters.language.any')}</option>
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {languageName(language, uiLanguage)}
            </option>
          ))}
        </select>
        <span className="count" aria-live="polite">
          {t('library.list.count', { count: total })}
        </span>
      </div>
      <RecordButton />
    </div>
  );
}
