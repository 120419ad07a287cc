// One dictionary: its name, words with readings, forced replacements and a bulk import. Server errors
// appear next to the field that caused them.
import { useId, useState, type FormEvent } from 'react';
import type { IpcError } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { errorFor, formLevelError } from './field-error';
import { FieldMessage } from './field-message';

export function DictionaryEditor() {
  const t = useT();
  const detail = useDictionariesStore((state) => state.detail);
  const remove = useDictionariesStore((state) => state.remove);
  if (!detail) return <p className="hint">{t('common.loading')}</p>;
  return (
    <div className="dict-editor" data-testid="dictionary-editor">
      <div className="view-header">
        <RenameForm key={detail.id} name={detail.name} />
        {detail.isTemporary && (
          <span className="badge badge-temp" title={t('dict.temporaryHint')}>
            {t('dict.temporary')}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="button-quiet danger" onClick={() => window.confirm(t('dict.deleteConfirm', { name: detail.name })) && void remove()}>
          {t('dict.delete')}
        </button>
      </div>
      <div className="dict-columns">
        <WordsSection />
        <ReplacementsSection />
      </div>
      <ImportSection />
    </div>
  );
}

function useSubmit(action: () => Promise<IpcError | null>, onSuccess: () => void) {
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const failure = await action();
    setBusy(false);
    setError(failure);
    if (!failure) onSuccess();
  };
  return { error, busy, submit };
}

function RenameForm({ name: initial }: { name: string }) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState(initial);
  const rename = useDictionariesStore((state) => state.rename);
  const { error, submit } = useSubmit(() => rename(name.trim()), () => {});
  const nameError = errorFor(error, ['name']);
  return (
    <form className="inline-fields" onSubmit={submit}>
      <label htmlFor={`${id}-name`} className="visually-hidden">
        {t('dict.rename')}
      </label>
      <input id={`${id}-name`} className="title-input" value={name} onChange={(event) => setName(event.target.value)} aria-invalid={nameError ? true : undefined} />
      {name.trim() !== initial && (
        <button type="submit" className="button">
          {t('common.save')}
        </button>
      )}
      <FieldMessage error={nameError ?? formLevelError(error, ['name'])} />
    </form>
  );
}

function WordsSection() {
  const t = useT();
  const id = useId();
  const detail = useDictionariesStore((state) => state.detail)!;
  const { addWords, removeWord } = useDictionariesStore.getState();
  const [word, setWord] = useState('');
  const [reading, setReading] = useState('');
  const { error, busy, submit } = useSubmit(
    () => addWords([reading.trim() ? { word: word.trim(), reading: reading.trim() } : { word: word.trim() }]),
    () => {
      setWord('');
      setReading('');
    },
  );
  const wordError = errorFor(error, ['word', 'words']);
  const readingError = errorFor(error, ['reading']);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 className="section-title" id={`${id}-title`}>
        {t('dict.words')}
      </h2>
      <form className="add-row" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-word`}>{t('dict.word')}</label>
          <input id={`${id}-word`} value={word} onChange={(event) => setWord(event.target.value)} aria-invalid={wordError ? true : undefined} aria-describedby={wordError ? `${id}-word-error` : undefined} data-testid="word-input" />
          <FieldMessage id={`${id}-word-error`} error={wordError} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-reading`}>{t('dict.reading')}</label>
          <input id={`${id}-reading`} value={reading} placeholder={t('dict.readingHint')} onChange={(event) => setReading(event.target.value)} aria-invalid={readingError ? true : undefined} aria-describedby={readingError ? `${id}-reading-error` : undefined} data-testid="reading-input" />
          <FieldMessage id={`${id}-reading-error`} error={readingError} />
        </div>
        <button type="submit" className="button primary" disabled={busy || !word.trim()}>
          {t('common.add')}
        </button>
      </form>
      <FieldMessage error={formLevelError(error, ['word', 'words', 'reading'])} />
      {detail.words.length === 0 ? (
        <p className="hint">{t('dict.words.empty')}</p>
      ) : (
        <table className="entries" data-testid="words-table">
          <thead>
            <tr>
              <th scope="col">{t('dict.word')}</th>
              <th scope="col">{t('dict.reading')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('common.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {detail.words.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.word}</td>
                <td className="muted">{entry.reading ?? ''}</td>
                <td>
                  <button type="button" className="button-quiet" onClick={() => void removeWord(entry.id)} aria-label={t('dict.word.remove', { word: entry.word })}>
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ReplacementsSection() {
  const t = useT();
  const id = useId();
  const detail = useDictionariesStore((state) => state.detail)!;
  const { addReplacements, removeReplacement } = useDictionariesStore.getState();
  const [pattern, setPattern] = useState('');
  const [replacement, setReplacement] = useState('');
  const { error, busy, submit } = useSubmit(
    () => addReplacements([{ pattern: pattern.trim(), replacement: replacement.trim() }]),
    () => {
      setPattern('');
      setReplacement('');
    },
  );
  const patternError = errorFor(error, ['pattern', 'replacements']);
  const replacementError = errorFor(error, ['replacement']);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 className="section-title" id={`${id}-title`}>
        {t('dict.replacements')}
      </h2>
      <form className="add-row" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-pattern`}>{t('dict.pattern')}</label>
          <input id={`${id}-pattern`} value={pattern} onChange={(event) => setPattern(event.target.value)} aria-invalid={patternError ? true : undefined} data-testid="pattern-input" />
          <FieldMessage error={patternError} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-replacement`}>{t('dict.replacement')}</label>
          <input id={`${id}-replacement`} value={replacement} onChange={(event) => setReplacement(event.target.value)} aria-invalid={replacementError ? true : undefined} data-testid="replacement-input" />
          <FieldMessage error={replacementError} />
        </div>
        <button type="submit" className="button primary" disabled={busy || !pattern.trim()}>
          {t('common.add')}
        </button>
      </form>
      <FieldMessage error={formLevelError(error, ['pattern', 'replacements', 'replacement'])} />
      {detail.replacements.length === 0 ? (
        <p className="hint">{t('dict.replacements.empty')}</p>
      ) : (
        <table className="entries" data-testid="replacements-table">
          <thead>
            <tr>
              <th scope="col">{t('dict.pattern')}</th>
              <th scope="col">{t('dict.replacement')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('common.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {detail.replacements.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.pattern}</td>
                <td>→ {entry.replacement}</td>
                <td>
                  <button type="button" className="button-quiet" onClick={() => void removeReplacement(entry.id)} aria-label={t('dict.replacement.remove', { pattern: entry.pattern })}>
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ImportSection() {
  const t = useT();
  const id = useId();
  const importText = useDictionariesStore((state) => state.importText);
  const [kind, setKind] = useState<'words' | 'replacements'>('words');
  const [text, setText] = useState('');
  const { error, busy, submit } = useSubmit(() => importText(text, kind), () => setText(''));
  const textError = errorFor(error, ['text']);
  return (
    <details className="card import">
      <summary>{t('dict.import')}</summary>
      <form className="stack" onSubmit={submit}>
        <div className="inline-fields">
          <label htmlFor={`${id}-kind`}>{t('dict.import.kind')}</label>
          <select id={`${id}-kind`} value={kind} onChange={(event) => setKind(event.target.value as 'words' | 'replacements')}>
            <option value="words">{t('dict.words')}</option>
            <option value="replacements">{t('dict.replacements')}</option>
          </select>
          <label htmlFor={`${id}-file`} className="button">
            {t('dict.import.file')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            className="visually-hidden"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              if (file) setText(await file.text());
            }}
          />
        </div>
        <label htmlFor={`${id}-text`}>{t('dict.import.text')}</label>
        <textarea id={`${id}-text`} rows={6} value={text} onChange={(event) => setText(event.target.value)} aria-describedby={`${id}-hint`} aria-invalid={textError ? true : undefined} />
        <small id={`${id}-hint`} className="hint">
          {kind === 'words' ? t('dict.import.hint.words') : t('dict.import.hint.replacements')}
        </small>
        <FieldMessage error={textError ?? formLevelError(error, ['text'])} />
        <button type="submit" className="button primary" disabled={busy || !text.trim()}>
          {t('dict.import.run')}
        </button>
      </form>
    </details>
  );
}
