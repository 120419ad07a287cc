// One dictionary: its name, words with readings, forced replacements and a bulk import
// (dictionary-import-section.tsx). Server errors appear next to the field that caused them.
import { useId, useMemo, useRef, useState, type ClipboardEvent, type FormEvent } from 'react';
import type { IpcError } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { useLocale, useT } from '../../i18n/use-t';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { errorFor, formLevelError } from '../../lib/field-error';
import { FieldMessage } from '../../lib/field-message';
import { dictionaryLabels } from './dictionary-options';
import { ImportSection, useBulkDraft } from './dictionary-import-section';

export function DictionaryEditor() {
  const t = useT();
  const detail = useDictionariesStore((state) => state.detail);
  const remove = useDictionariesStore((state) => state.remove);
  const list = useDictionariesStore((state) => state.list);
  const locale = useLocale();
  // The prompt names the dictionary as the list does: with its creation time when another has its name.
  const labels = useMemo(() => dictionaryLabels(list, locale), [list, locale]);
  const bulk = useBulkDraft();
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
        <button
          type="button"
          className="button-quiet danger"
          onClick={() =>
            window.confirm(t('dict.deleteConfirm', { name: labels.get(detail.id) ?? detail.name })) && void remove()
          }
        >
          {t('dict.delete')}
        </button>
      </div>
      <div className="dict-columns">
        <WordsSection onMoveLines={bulk.moveLines} />
        <ReplacementRulesSection />
      </div>
      <ImportSection draft={bulk} />
    </div>
  );
}

/** The non-empty lines of pasted text, when it holds more than one; else null (paste as usual). */
export function pastedLines(text: string): string[] | null {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length > 1 ? lines : null;
}

function useSubmit(action: () => Promise<IpcError | null>, onSuccess: () => void) {
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const failure = await action();
    setBusy(false);
    setError(failure);
    if (!failure) onSuccess();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return { error, busy, submit, setError };
}

function RenameForm({ name: initial }: { name: string }) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState(initial);
  const rename = useDictionariesStore((state) => state.rename);
  const { error, submit } = useSubmit(
    () => rename(name.trim()),
    () => {},
  );
  const nameError = errorFor(error, ['name']);
  return (
    <form className="inline-fields" onSubmit={submit}>
      <label htmlFor={`${id}-name`} className="visually-hidden">
        {t('dict.rename')}
      </label>
      <input
        id={`${id}-name`}
        className="title-input"
        value={name}
        maxLength={LIMITS.name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={nameError ? true : undefined}
      />
      {name.trim() !== initial && (
        <button type="submit" className="button">
          {t('common.save')}
        </button>
      )}
      <FieldMessage error={nameError ?? formLevelError(error, ['name'])} />
    </form>
  );
}

interface EntryField {
  label: string;
  placeholder?: string;
  testId: string;
  /** The most characters the field takes (src-shared/limits.ts); the count shows as it nears it. */
  maxLength: number;
  /** Error fields (dot paths, `*` for any index) shown under this input. */
  errorFields: string[];
}

interface EntrySectionProps<E extends { id: string }> {
  title: string;
  /** The first field is required; the second optional. */
  fields: [EntryField, EntryField];
  add(first: string, second: string): Promise<IpcError | null>;
  entries: E[];
  cells: [(entry: E) => string, (entry: E) => string];
  secondCellClass?: string;
  remove(id: string): Promise<unknown>;
  removeLabel(entry: E): string;
  empty: string;
  tableTestId: string;
  /** Given, a paste of several lines into the first field is not squashed into one: these can move them. */
  onMoveLines?: (lines: string[]) => void;
}

/** From this share of a field's limit on, the field shows how many characters it holds of how many. */
const NEAR_LIMIT = 0.9;

/** A two-field add form over a table of entries: words (word, reading) or replacement rules (pattern, replacement). */
function EntrySection<E extends { id: string }>(props: EntrySectionProps<E>) {
  const t = useT();
  const id = useId();
  const [values, setValues] = useState<[string, string]>(['', '']);
  const { error, busy, submit, setError } = useSubmit(
    async () => {
      const sent = values;
      const failure = await props.add(sent[0].trim(), sent[1].trim());
      // The fields stay editable while saving: clear only what still holds what was saved, never what
      // the user typed meanwhile.
      if (!failure) setValues((now) => [now[0] === sent[0] ? '' : now[0], now[1] === sent[1] ? '' : now[1]]);
      return failure;
    },
    () => {},
  );
  const errors = props.fields.map((field) => errorFor(error, field.errorFields));
  const [pasted, setPasted] = useState<string[] | null>(null);
  // The field a paste overflowed (the input keeps only its first maxLength characters), until it is typed in.
  const [clipped, setClipped] = useState<number | null>(null);
  const pasting = useRef(false);
  const onPaste = (i: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text/plain');
    const lines = i === 0 && props.onMoveLines ? pastedLines(text) : null;
    if (lines) {
      event.preventDefault();
      setPasted(lines);
      return;
    }
    const input = event.currentTarget;
    const kept = input.value.length - ((input.selectionEnd ?? 0) - (input.selectionStart ?? 0));
    pasting.current = true;
    setClipped(kept + text.length > props.fields[i]!.maxLength ? i : null);
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 className="section-title" id={`${id}-title`}>
        {props.title}
      </h2>
      <form className="add-row" onSubmit={submit}>
        {props.fields.map((field, i) => {
          const value = values[i] ?? '';
          // Counted as the input's maxLength counts (UTF-16 units): never more than the server takes.
          const nearLimit = value.length >= field.maxLength * NEAR_LIMIT;
          const describedBy = [errors[i] && `${id}-${i}-error`, nearLimit && `${id}-${i}-count`].filter(Boolean);
          return (
            <div className="field" key={field.testId}>
              <label htmlFor={`${id}-${i}`}>{field.label}</label>
              <input
                id={`${id}-${i}`}
                value={value}
                placeholder={field.placeholder}
                maxLength={field.maxLength}
                onChange={(event) => {
                  if (i === 0) setPasted(null);
                  if (!pasting.current) setClipped(null);
                  pasting.current = false;
                  // A refusal of what the field held no longer speaks of what it holds now.
                  if (errors[i]) setError(null);
                  setValues((current) =>
                    i === 0 ? [event.target.value, current[1]] : [current[0], event.target.value],
                  );
                }}
                onPaste={onPaste(i)}
                aria-invalid={errors[i] ? true : undefined}
                aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
                data-testid={field.testId}
              />
              {nearLimit && (
                <small id={`${id}-${i}-count`} className="hint" data-testid={`${field.testId}-count`}>
                  {t('dict.length', { count: value.length, max: field.maxLength })}
                  {clipped === i && ` ${t('dict.paste.clipped')}`}
                </small>
              )}
              <FieldMessage id={`${id}-${i}-error`} error={errors[i] ?? null} />
            </div>
          );
        })}
        <button type="submit" className="button primary" disabled={busy || !values[0].trim()}>
          {t('common.add')}
        </button>
      </form>
      {pasted && props.onMoveLines && (
        <div className="paste-lines" role="status" data-testid="pasted-lines">
          <span>
            {t('dict.paste.lines', { count: pasted.length, field: props.fields[0].label, bulk: t('dict.import') })}
          </span>
          <button
            type="button"
            className="button"
            onClick={() => {
              props.onMoveLines?.(pasted);
              setPasted(null);
            }}
          >
            {t('dict.paste.move')}
          </button>
        </div>
      )}
      <FieldMessage
        error={formLevelError(
          error,
          props.fields.flatMap((f) => f.errorFields),
        )}
      />
      {props.entries.length === 0 ? (
        <p className="hint">{props.empty}</p>
      ) : (
        <table className="entries" data-testid={props.tableTestId}>
          <thead>
            <tr>
              <th scope="col">{props.fields[0].label}</th>
              <th scope="col">{props.fields[1].label}</th>
              <th scope="col">
                <span className="visually-hidden">{t('common.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{props.cells[0](entry)}</td>
                <td className={props.secondCellClass}>{props.cells[1](entry)}</td>
                <td>
                  <button
                    type="button"
                    className="button-quiet"
                    onClick={() => void props.remove(entry.id)}
                    aria-label={props.removeLabel(entry)}
                  >
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

function WordsSection({ onMoveLines }: { onMoveLines: (lines: string[]) => void }) {
  const t = useT();
  const detail = useDictionariesStore((state) => state.detail)!;
  const { addWords, removeWord } = useDictionariesStore.getState();
  return (
    <EntrySection
      title={t('dict.words')}
      fields={[
        // "*.word", "*.reading": the server's bulk add (what the app calls) names the item by its position.
        {
          label: t('dict.word'),
          testId: 'word-input',
          maxLength: LIMITS.word,
          errorFields: ['words', 'words.*', 'words.*.word', '*.word', 'word'],
        },
        {
          label: t('dict.reading'),
          placeholder: t('dict.readingHint'),
          testId: 'reading-input',
          maxLength: LIMITS.reading,
          errorFields: ['words.*.reading', '*.reading', 'reading'],
        },
      ]}
      add={(word, reading) => addWords([reading ? { word, reading } : { word }])}
      entries={detail.words}
      cells={[(entry) => entry.word, (entry) => entry.reading ?? '']}
      secondCellClass="muted"
      remove={removeWord}
      removeLabel={(entry) => t('dict.word.remove', { word: entry.word })}
      empty={t('dict.words.empty')}
      tableTestId="words-table"
      onMoveLines={onMoveLines}
    />
  );
}

function ReplacementRulesSection() {
  const t = useT();
  const detail = useDictionariesStore((state) => state.detail)!;
  const { addReplacementRules, removeReplacementRule } = useDictionariesStore.getState();
  return (
    <EntrySection
      title={t('dict.replacements')}
      fields={[
        {
          label: t('dict.pattern'),
          testId: 'pattern-input',
          maxLength: LIMITS.pattern,
          errorFields: ['replacementRules', 'replacementRules.*', 'replacementRules.*.pattern', 'pattern'],
        },
        {
          label: t('dict.replacement'),
          placeholder: t('dict.replacement.placeholder'),
          testId: 'replacement-input',
          maxLength: LIMITS.replacement,
          errorFields: ['replacementRules.*.replacement', 'replacement'],
        },
      ]}
      add={(pattern, replacement) => addReplacementRules([{ pattern, replacement }])}
      entries={detail.replacementRules}
      // The server takes an empty replacement: the matched words are deleted, which the list says.
      cells={[(entry) => entry.pattern, (entry) => `→ ${entry.replacement || t('dict.replacement.deleted')}`]}
      remove={removeReplacementRule}
      removeLabel={(entry) => t('dict.replacement.remove', { pattern: entry.pattern })}
      empty={t('dict.replacements.empty')}
      tableTestId="replacement-rules-table"
    />
  );
}
