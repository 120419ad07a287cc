// The bulk paste or CSV import of a dictionary (docs/decisions/0103-bulk-import-lines.md). Main checks
// every line first: when some cannot be imported, nothing is sent and each is listed here by number, text
// and problem, with the choice to import the others or to correct the paste. When the server stops taking
// a long import part-way, the lines it has and has not are said, and those it has not stay in the box.
import { useEffect, useId, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { DictionaryImport, ImportLineProblem, IpcError } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useDictionariesStore } from '../../stores/dictionaries-store';
import { errorFor, formLevelError } from '../../lib/field-error';
import { ErrorText } from '../../lib/error-details';
import { FieldMessage } from '../../lib/field-message';
import { importLineLabel, importProblemText, linesFrom } from './import-problems';

type Kind = 'words' | 'replacement-rules';
type Checked = Extract<DictionaryImport, { outcome: 'checked' }>;
type PartlyImported = Extract<DictionaryImport, { outcome: 'partly-imported' }>;

/** What the last import said: bad lines (nothing sent), what was imported, or how far it went. */
type Said =
  | { kind: 'none' }
  | { kind: 'error'; error: IpcError }
  | { kind: 'checked'; checked: Checked }
  | { kind: 'imported'; importedLines: number; skippedLines: number; duplicateLines: number }
  | { kind: 'partial'; partial: PartlyImported };

/** The bulk import's draft, held by the editor so the Word field can move pasted lines into it. */
export interface BulkDraft {
  text: string;
  setText: Dispatch<SetStateAction<string>>;
  kind: Kind;
  setKind: (kind: Kind) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Counts moves, so the import focuses its text after each. */
  moves: number;
  /** Opens the import as words, with `lines` after any text already there. */
  moveLines: (lines: string[]) => void;
}

export function useBulkDraft(): BulkDraft {
  const [text, setText] = useState('');
  const [kind, setKind] = useState<Kind>('words');
  const [open, setOpen] = useState(false);
  const [moves, setMoves] = useState(0);
  return {
    text,
    setText,
    kind,
    setKind,
    open,
    setOpen,
    moves,
    moveLines(lines) {
      setText((current) => [...(current.trim() ? [current.replace(/\s+$/, '')] : []), ...lines].join('\n'));
      setKind('words');
      setOpen(true);
      setMoves((n) => n + 1);
    },
  };
}

export function ImportSection({ draft }: { draft: BulkDraft }) {
  const t = useT();
  const id = useId();
  const importText = useDictionariesStore((state) => state.importText);
  const { text, setText, kind, setKind } = draft;
  const [busy, setBusy] = useState(false);
  const textArea = useRef<HTMLTextAreaElement>(null);
  // Lines moved here from the Word field: the text is where the user goes on.
  useEffect(() => {
    if (draft.moves > 0) textArea.current?.focus();
  }, [draft.moves]);
  const [said, setSaid] = useState<Said>({ kind: 'none' });

  // A change to the paste or its kind makes the last check stale: the list of bad lines goes.
  const edit = (next: { text?: string; kind?: Kind }) => {
    if (next.text !== undefined) setText(next.text);
    if (next.kind !== undefined) setKind(next.kind);
    setSaid({ kind: 'none' });
  };

  const run = async (skipBadLines: boolean) => {
    setBusy(true);
    const sent = text;
    const [result, error] = await importText(sent, kind, skipBadLines);
    setBusy(false);
    if (error) return setSaid({ kind: 'error', error });
    if (result.outcome === 'checked') return setSaid({ kind: 'checked', checked: result });
    // What was typed or moved here during the import stays; what the server took goes.
    const rest = (now: string) => (now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now);
    if (result.outcome === 'imported') {
      setText(rest);
      return setSaid({
        kind: 'imported',
        importedLines: result.importedLines,
        skippedLines: result.skippedLines,
        duplicateLines: result.duplicateLines,
      });
    }
    setText((now) =>
      now.startsWith(sent) ? [linesFrom(sent, result.firstNotImportedLine), rest(now)].filter(Boolean).join('\n') : now,
    );
    setSaid({ kind: 'partial', partial: result });
  };

  const error = said.kind === 'error' ? said.error : null;
  const textError = errorFor(error, ['text']);
  const checked = said.kind === 'checked' ? said.checked : null;
  return (
    <details className="card import" open={draft.open} onToggle={(event) => draft.setOpen(event.currentTarget.open)}>
      <summary>{t('dict.import')}</summary>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void run(false);
        }}
      >
        <div className="inline-fields">
          <label htmlFor={`${id}-kind`}>{t('dict.import.kind')}</label>
          <select id={`${id}-kind`} value={kind} onChange={(event) => edit({ kind: event.target.value as Kind })}>
            <option value="words">{t('dict.words')}</option>
            <option value="replacement-rules">{t('dict.replacements')}</option>
          </select>
          <label htmlFor={`${id}-file`} className="button">
            {t('dict.import.file')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            className="visually-hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void file.text().then((content) => edit({ text: content }));
            }}
          />
        </div>
        <label htmlFor={`${id}-text`}>{t('dict.import.text')}</label>
        <textarea
          ref={textArea}
          id={`${id}-text`}
          rows={6}
          value={text}
          onChange={(event) => edit({ text: event.target.value })}
          aria-describedby={`${id}-hint`}
          aria-invalid={textError || checked ? true : undefined}
        />
        <small id={`${id}-hint`} className="hint">
          {kind === 'words' ? t('dict.import.hint.words') : t('dict.import.hint.replacements')}
        </small>
        <FieldMessage error={textError ?? formLevelError(error, ['text'])} />
        {checked && <ImportProblems checked={checked} busy={busy} importOthers={() => void run(true)} />}
        {said.kind === 'imported' && (
          <p className="import-done" role="status" data-testid="import-done">
            {said.skippedLines > 0
              ? t('dict.import.done.skipped', { count: said.importedLines, skipped: said.skippedLines })
              : t(said.importedLines === 1 ? 'dict.import.done.one' : 'dict.import.done.other', {
                  count: said.importedLines,
                })}
            {said.duplicateLines > 0 &&
              ` ${t(said.duplicateLines === 1 ? 'dict.import.duplicates.one' : 'dict.import.duplicates.other', {
                count: said.duplicateLines,
              })}`}
          </p>
        )}
        {said.kind === 'partial' && (
          <div className="import-problems" role="alert" data-testid="import-partial">
            <p>
              {t('dict.import.partial', {
                last: said.partial.lastImportedLine,
                count: said.partial.importedLines,
                first: said.partial.firstNotImportedLine,
              })}
            </p>
            <div className="field-error">
              <ErrorText error={said.partial.error} />
            </div>
            <p>{t('dict.import.partial.left')}</p>
          </div>
        )}
        <div className="import-actions">
          <button type="submit" className="button primary" disabled={busy || !text.trim()}>
            {t('dict.import.run')}
          </button>
        </div>
      </form>
    </details>
  );
}

/** The lines that cannot be imported, each by number, text and problem, and what the user can do. */
function ImportProblems({
  checked,
  busy,
  importOthers,
}: {
  checked: Checked;
  busy: boolean;
  importOthers: () => void;
}) {
  const t = useT();
  const more = checked.badLines - checked.problems.length;
  return (
    <div className="import-problems" role="alert" data-testid="import-problems">
      <p className="import-problems-title">
        {t(checked.badLines === 1 ? 'dict.import.problems.one' : 'dict.import.problems.other', {
          count: checked.badLines,
        })}
      </p>
      <ul className="import-problem-list">
        {checked.problems.map((problem) => (
          <ProblemLine key={problem.line} problem={problem} />
        ))}
      </ul>
      {more > 0 && <p>{t('dict.import.problems.more', { count: more })}</p>}
      <p className="hint">{t(checked.goodLines > 0 ? 'dict.import.problems.fix' : 'dict.import.problems.fixAll')}</p>
      {checked.goodLines > 0 && (
        <button type="button" className="button" disabled={busy} onClick={importOthers}>
          {t(checked.goodLines === 1 ? 'dict.import.runOthers.one' : 'dict.import.runOthers.other', {
            count: checked.goodLines,
          })}
        </button>
      )}
    </div>
  );
}

function ProblemLine({ problem }: { problem: ImportLineProblem }) {
  const t = useT();
  return (
    <li className="import-problem" data-testid="import-problem" data-line={problem.line}>
      <span className="import-problem-line">{importLineLabel(t, problem)}</span>
      <code className="import-problem-text">{problem.text}</code>
      <span className="import-problem-why">{importProblemText(t, problem.problem)}</span>
    </li>
  );
}
