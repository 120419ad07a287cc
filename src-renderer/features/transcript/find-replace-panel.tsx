// Find & replace within the open transcript. Every match is listed with its change previewed
// (the text around it, what goes and what comes) before anything is applied; one match or all of
// them are replaced through the same edit as main applies, so the preview is what happens.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { findMatches, type FindOptions, type TextMatch } from '../../../src-shared/transcript-editing';
import { useT } from '../../i18n/use-t';
import { useEscape } from '../../lib/use-escape';
import { formatClock } from '../../lib/format';
import { usePlayerStore } from '../../stores/player-store';
import { selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import type { FindMode } from './edit-toolbar';
import { useErrorText } from '../../i18n/error-text';

const SHOWN = 200;
const CONTEXT = 24;

export function FindReplacePanel({
  mode,
  onMode,
  onClose,
}: {
  mode: FindMode;
  onMode: (mode: FindMode) => void;
  onClose: () => void;
}) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const segments = useTranscriptStore(selectSegments);
  const editDocument = useTranscriptStore((state) => state.editDocument);
  const seek = usePlayerStore((state) => state.seek);
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const [options, setOptions] = useState<FindOptions>({ matchCase: false, wholeWord: false });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const findInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => findMatches(segments, query, options), [segments, query, options]);
  const changes = (match: TextMatch) =>
    segments[match.segmentIndex]!.text.slice(match.start, match.end) !== replacement;
  // A replacement that leaves every match as it is would change nothing: it is not offered.
  const changing = matches.filter(changes).length;
  // What had focus when the panel opened (the "Find & replace" button, or the text for Ctrl/⌘+F) gets it back.
  const [opener] = useState(() => ({
    current: document.activeElement instanceof HTMLElement ? document.activeElement : null,
  }));
  useEscape(true, onClose, opener);

  // Ctrl/⌘+F and +H bring the panel's field back into focus when it is already open.
  useEffect(() => {
    (mode === 'replace' && query ? replaceInput : findInput).current?.focus();
  }, [mode]);

  const replace = async (only?: TextMatch) => {
    setBusy(true);
    const failure = await editDocument({
      kind: 'replace',
      query,
      replacement,
      options,
      ...(only ? { only: { segmentId: only.segmentId, start: only.start } } : {}),
    });
    setBusy(false);
    setError(failure ? errorText(failure) : null);
  };
  const option = (key: keyof FindOptions) => (
    <label className="check">
      <input
        type="checkbox"
        checked={options[key]}
        onChange={(event) => setOptions({ ...options, [key]: event.target.checked })}
      />
      {t(key === 'matchCase' ? 'find.matchCase' : 'find.wholeWord')}
    </label>
  );

  return (
    <section className="find-panel" aria-label={t('find.heading')} data-testid="find-panel">
      <div className="find-fields">
        <label htmlFor={`${id}-find`}>{t('find.label')}</label>
        <input
          ref={findInput}
          id={`${id}-find`}
          type="search"
          autoFocus
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && matches[0]) seek(segments[matches[0].segmentIndex]!.start);
          }}
        />
        {mode === 'replace' && (
          <>
            <label htmlFor={`${id}-replace`}>{t('find.replaceWith')}</label>
            <input
              ref={replaceInput}
              id={`${id}-replace`}
              type="text"
              value={replacement}
              onChange={(event) => setReplacement(event.target.value)}
            />
          </>
        )}
      </div>
      <div className="find-options">
        {option('matchCase')}
        {option('wholeWord')}
        <span className="find-count" role="status" data-testid="find-count">
          {query === '' ? '' : matches.length === 0 ? t('find.none') : t('find.count', { count: matches.length })}
        </span>
        <span className="spacer" />
        {mode === 'find' ? (
          <button type="button" className="button-quiet" onClick={() => onMode('replace')}>
            {t('find.showReplace')}
          </button>
        ) : (
          changing > 0 && (
            <button type="button" className="button primary" disabled={busy} onClick={() => void replace()}>
              {t('find.replaceAll', { count: changing })}
            </button>
          )
        )}
        <button
          type="button"
          className="button-quiet"
          onClick={() => {
            onClose();
            opener.current?.focus();
          }}
          aria-label={t('find.close')}
        >
          ✕
        </button>
      </div>
      {options.wholeWord && <small className="hint">{t('find.wholeWordHint')}</small>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {matches.length > 0 && (
        <ol className="find-matches" aria-label={t(mode === 'replace' ? 'find.preview' : 'find.results')}>
          {matches.slice(0, SHOWN).map((match) => {
            const segment = segments[match.segmentIndex]!;
            const before = segment.text.slice(Math.max(0, match.start - CONTEXT), match.start);
            const after = segment.text.slice(match.end, match.end + CONTEXT);
            const found = segment.text.slice(match.start, match.end);
            return (
              <li key={`${match.segmentId}:${match.start}`} data-testid="find-match">
                <button
                  type="button"
                  className="timestamp"
                  onClick={() => seek(segment.start)}
                  aria-label={t('transcript.word.seek', { time: formatClock(segment.start) })}
                >
                  {formatClock(segment.start)}
                </button>
                <span className="find-context">
                  {match.start > CONTEXT && '…'}
                  {before}
                  {mode === 'replace' ? (
                    <>
                      <del>{found}</del>
                      <ins>{replacement}</ins>
                    </>
                  ) : (
                    <mark>{found}</mark>
                  )}
                  {after}
                  {match.end + CONTEXT < segment.text.length && '…'}
                </span>
                {mode === 'replace' && changes(match) && (
                  <button type="button" className="button-quiet" disabled={busy} onClick={() => void replace(match)}>
                    {t('find.replace')}
                  </button>
                )}
              </li>
            );
          })}
          {matches.length > SHOWN && <li className="hint">{t('find.more', { count: matches.length - SHOWN })}</li>}
        </ol>
      )}
    </section>
  );
}
