// Options for the next upload: language, model, speakers, a dictionary, ad-hoc words.
import { useEffect, useId, useState } from 'react';
import type { TranscriptionModel } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { useUploadsStore } from '../../stores/uploads-store';

const MODELS: TranscriptionModel[] = ['default', 'diarization-high'];

function toCount(value: string): number | null {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

export function parseWordLines(text: string): Array<{ word: string; reading?: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter(([word]) => word)
    .map(([word, reading]) => (reading ? { word: word!, reading } : { word: word! }));
}

export function UploadOptionsForm() {
  const t = useT();
  const id = useId();
  const options = useUploadsStore((state) => state.options);
  const setOptions = useUploadsStore((state) => state.setOptions);
  const dictionaries = useDictionariesStore((state) => state.list);
  const [open, setOpen] = useState(false);
  const [wordsText, setWordsText] = useState('');

  useEffect(() => {
    if (open) void useDictionariesStore.getState().load();
  }, [open]);

  return (
    <details className="upload-options" open={open} onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>{t('library.options.toggle')}</summary>
      <div className="form-grid">
        <label htmlFor={`${id}-language`}>{t('library.options.language')}</label>
        <input
          id={`${id}-language`}
          value={options.language ?? ''}
          placeholder={t('common.auto')}
          aria-describedby={`${id}-language-hint`}
          onChange={(event) => setOptions({ language: event.target.value.trim() || null })}
        />
        <small id={`${id}-language-hint`} className="hint">
          {t('library.options.languageHint')}
        </small>

        <label htmlFor={`${id}-model`}>{t('library.options.model')}</label>
        <select id={`${id}-model`} value={options.model} onChange={(event) => setOptions({ model: event.target.value as TranscriptionModel })}>
          {MODELS.map((model) => (
            <option key={model} value={model}>
              {t(`library.options.model.${model}`)}
            </option>
          ))}
        </select>
        <span />

        <label htmlFor={`${id}-speakers`}>{t('library.options.speakers')}</label>
        <div className="inline-fields">
          <input id={`${id}-speakers`} type="number" min={1} max={32} value={options.numSpeakers ?? ''} placeholder={t('common.auto')} onChange={(event) => setOptions({ numSpeakers: toCount(event.target.value) })} />
          <label htmlFor={`${id}-min`}>{t('library.options.minSpeakers')}</label>
          <input id={`${id}-min`} type="number" min={1} max={32} value={options.minSpeakers ?? ''} onChange={(event) => setOptions({ minSpeakers: toCount(event.target.value) })} />
          <label htmlFor={`${id}-max`}>{t('library.options.maxSpeakers')}</label>
          <input id={`${id}-max`} type="number" min={1} max={32} value={options.maxSpeakers ?? ''} onChange={(event) => setOptions({ maxSpeakers: toCount(event.target.value) })} />
        </div>
        <span />

        <label htmlFor={`${id}-dictionary`}>{t('library.options.dictionary')}</label>
        <select id={`${id}-dictionary`} value={options.dictionaryId ?? ''} onChange={(event) => setOptions({ dictionaryId: event.target.value || null })}>
          <option value="">{t('common.none')}</option>
          {dictionaries
            .filter((dictionary) => !dictionary.isTemporary)
            .map((dictionary) => (
              <option key={dictionary.id} value={dictionary.id}>
                {dictionary.name}
              </option>
            ))}
        </select>
        <span />

        <label htmlFor={`${id}-words`}>{t('library.options.words')}</label>
        <textarea
          id={`${id}-words`}
          rows={3}
          value={wordsText}
          onChange={(event) => {
            setWordsText(event.target.value);
            setOptions({ words: parseWordLines(event.target.value) });
          }}
        />
        <span />
      </div>
    </details>
  );
}
