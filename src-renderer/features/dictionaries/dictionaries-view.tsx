// Dictionaries: the list on the left (temporary ones marked), the selected one on the right.
import { useEffect, useId, useMemo, useState } from 'react';
import type { IpcError } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { useLocale, useT } from '../../i18n/use-t';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { DictionaryEditor } from './dictionary-editor';
import { dictionaryLabels } from './dictionary-options';
import { errorFor, formLevelError } from '../../lib/field-error';
import { FieldMessage } from '../../lib/field-message';
import { ErrorText } from '../../lib/error-details';

export function DictionariesView() {
  const t = useT();
  const list = useDictionariesStore((state) => state.list);
  const selectedId = useDictionariesStore((state) => state.selectedId);
  const error = useDictionariesStore((state) => state.error);
  const { load, select } = useDictionariesStore.getState();
  const locale = useLocale();
  const labels = useMemo(() => dictionaryLabels(list, locale), [list, locale]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="dictionaries">
      <aside className="dict-sidebar">
        <h1 className="view-title">{t('dict.heading')}</h1>
        <CreateDictionaryForm />
        {error && (
          <div className="error-banner" role="alert">
            <ErrorText error={error} />
          </div>
        )}
        <h2 className="section-title" id="dict-list-title">
          {t('dict.list')}
        </h2>
        {list.length === 0 ? (
          <p className="hint">{t('dict.empty')}</p>
        ) : (
          <ul className="dict-list" aria-labelledby="dict-list-title">
            {list.map((dictionary) => (
              <li key={dictionary.id}>
                <button
                  type="button"
                  className="dict-item"
                  aria-current={dictionary.id === selectedId ? 'true' : undefined}
                  onClick={() => void select(dictionary.id)}
                  data-testid="dictionary-item"
                >
                  <span>{labels.get(dictionary.id) ?? dictionary.name}</span>
                  {dictionary.isTemporary && (
                    <span className="badge badge-temp" title={t('dict.temporaryHint')}>
                      {t('dict.temporary')}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <section className="dict-main">
        {selectedId ? <DictionaryEditor /> : <p className="empty">{t('dict.select')}</p>}
      </section>
    </div>
  );
}

function CreateDictionaryForm() {
  const t = useT();
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<IpcError | null>(null);
  const create = useDictionariesStore((state) => state.create);
  const nameError = errorFor(error, ['name']);
  const submit = async () => {
    const failure = await create(name.trim());
    setError(failure);
    if (!failure) setName('');
  };
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={`${id}-name`}>{t('dict.create.name')}</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={LIMITS.name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={nameError ? true : undefined}
        aria-describedby={nameError ? `${id}-name-error` : undefined}
      />
      <FieldMessage id={`${id}-name-error`} error={nameError} />
      <button type="submit" className="button primary" disabled={!name.trim()}>
        {t('dict.create.button')}
      </button>
      <FieldMessage error={formLevelError(error, ['name'])} />
    </form>
  );
}
