// "History…": the transcript's revisions on the server (decision 0052), newest first, with who made each,
// when, and what made it; selecting one shows what it changed, and Restore brings an older one back as a
// new revision.
import { useEffect, useId, useRef, useState } from 'react';
import type {
  IpcError,
  RevisionChanges,
  TranscriptRevision,
  TranscriptRevisions,
} from '../../../src-shared/ipc-contract';
import { useLocale, useT, type T } from '../../i18n/use-t';
import { api, split } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useTranscriptStore } from '../../stores/transcript-store';
import { RevisionChangesView } from './revision-changes-view';
import type { ToolProps } from './edit-toolbar';
import { ErrorText } from '../../lib/error-details';
import { useEscape } from '../../lib/use-escape';
import { usePopoverPlacement } from '../../lib/use-popover-placement';

/** `tool`: its place in the edit toolbar's roving tab stops. */
export function HistoryMenu({ tool }: { tool?: ToolProps } = {}) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  const transcriptId = useTranscriptStore((state) => state.id);
  const shown = useTranscriptStore((state) => state.detail?.document?.revision ?? null);
  const restoreRevision = useTranscriptStore((state) => state.restoreRevision);
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState<TranscriptRevisions | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  // A revision never changes, so what it changed is read once: when it is selected, or earlier, when the
  // pointer or focus reaches it, for its tooltip. A failed read is tried again the next time.
  const [changes, setChanges] = useState<Record<string, RevisionChanges>>({});
  const [changesErrors, setChangesErrors] = useState<Record<string, IpcError>>({});
  const asked = useRef(new Set<string>());
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEscape(open, () => setOpen(false), opener);
  const placement = usePopoverPlacement(open, opener, panel);
  const keyOf = (revision: number) => `${transcriptId}/${revision}`;
  const selectedChanges = selected === null ? null : (changes[keyOf(selected)] ?? null);
  const changesError = selected === null ? null : (changesErrors[keyOf(selected)] ?? null);

  const readChanges = (revision: number) => {
    const key = keyOf(revision);
    if (!transcriptId || revision === 1 || asked.current.has(key)) return;
    asked.current.add(key);
    setChangesErrors(({ [key]: _, ...others }) => others);
    void api()
      .transcripts.revisionChanges({ id: transcriptId, revision })
      .then((result) => {
        const [value, failure] = split(result);
        if (value) setChanges((before) => ({ ...before, [key]: value }));
        if (failure) {
          asked.current.delete(key);
          setChangesErrors((before) => ({ ...before, [key]: failure }));
        }
      });
  };

  useEffect(() => {
    if (open && selected !== null && !selectedChanges) readChanges(selected);
  }, [open, transcriptId, selected, selectedChanges]);

  useEffect(() => {
    if (!open || !transcriptId) return;
    let live = true;
    void api()
      .transcripts.revisions({ id: transcriptId })
      .then((result) => {
        if (!live) return;
        const [value, failure] = split(result);
        setHistory(value);
        setError(failure);
      });
    return () => {
      live = false;
    };
  }, [open, transcriptId, shown]);

  const restore = async (revision: number) => {
    setBusy(true);
    setError(null);
    setError(await restoreRevision(revision));
    setBusy(false);
  };

  return (
    <div className="popover-anchor">
      <button
        ref={opener}
        type="button"
        className="button-quiet"
        {...tool}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {t('transcript.history.button')}
      </button>
      {open && (
        <div
          ref={panel}
          id={`${id}-panel`}
          className={`popover history-popover ${placement.className}`}
          style={placement.style}
          role="dialog"
          aria-label={t('transcript.history.heading')}
        >
          <h2 className="section-title">{t('transcript.history.heading')}</h2>
          {!history && !error && <p className="hint">{t('common.loading')}</p>}
          {history && (
            <ol className="history-list" reversed>
              {[...history.revisions].reverse().map((r) => (
                <li key={r.revision} data-testid="history-revision">
                  <button
                    type="button"
                    className="history-select"
                    aria-expanded={selected === r.revision}
                    aria-controls={`${id}-changes-${r.revision}`}
                    onMouseEnter={() => readChanges(r.revision)}
                    onFocus={() => readChanges(r.revision)}
                    onClick={() => setSelected(selected === r.revision ? null : r.revision)}
                  >
                    <strong>{t('transcript.history.revision', { revision: r.revision })}</strong>
                    {r.revision === history.latest && (
                      <span className="badge">{t('transcript.history.current')}</span>
                    )}{' '}
                    <span className="hint">
                      {t('transcript.history.byAt', { author: r.author, time: formatDate(r.createdAt, locale) })}
                    </span>
                    {/* The server's summary is English prose naming internal labels: the tooltip says it in
                        the UI's language from what the revision changed. */}
                    <span className="history-what" title={revisionSummary(t, r, changes[keyOf(r.revision)])}>
                      {t(`transcript.history.source.${r.source}`)}
                    </span>
                  </button>
                  <div
                    id={`${id}-changes-${r.revision}`}
                    className="history-changes"
                    role="region"
                    aria-label={t('transcript.history.changes.label', { revision: r.revision })}
                    hidden={selected !== r.revision}
                  >
                    {selected === r.revision &&
                      (r.revision === 1 ? (
                        <p className="hint">{t('transcript.history.changes.recognized')}</p>
                      ) : selectedChanges ? (
                        <RevisionChangesView changes={selectedChanges} />
                      ) : changesError ? (
                        <div className="field-error" role="alert">
                          <ErrorText error={changesError} />
                        </div>
                      ) : (
                        <p className="hint">{t('common.loading')}</p>
                      ))}
                  </div>
                  {r.revision !== history.latest && (
                    <button
                      type="button"
                      className="button-quiet"
                      disabled={busy}
                      aria-label={t('transcript.history.restoreLabel', { revision: r.revision })}
                      onClick={() => void restore(r.revision)}
                    >
                      {t('transcript.history.restore')}
                    </button>
                  )}
                </li>
              ))}
            </ol>
          )}
          {error && (
            <div className="field-error" role="alert">
              <ErrorText error={error} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** What a revision changed, in the UI's language: counts from its changes once read (none before). */
export function revisionSummary(t: T, revision: TranscriptRevision, changes: RevisionChanges | undefined) {
  if (revision.revision === 1) return t('transcript.history.changes.recognized');
  if (!changes) return undefined;
  const segments = changes.segments.length + changes.moreSegments;
  const names = changes.speakerNames.length;
  const replaced = changes.replacements.reduce((sum, r) => sum + r.count, 0);
  const parts = [
    segments > 0 &&
      t(segments === 1 ? 'transcript.history.summary.segments.one' : 'transcript.history.summary.segments.other', {
        count: segments,
      }),
    names > 0 &&
      t(names === 1 ? 'transcript.history.summary.names.one' : 'transcript.history.summary.names.other', {
        count: names,
      }),
    replaced > 0 &&
      t(replaced === 1 ? 'transcript.history.summary.replaced.one' : 'transcript.history.summary.replaced.other', {
        count: replaced,
      }),
  ].filter((part) => part !== false);
  return parts.length > 0
    ? parts.join(t('transcript.history.summary.separator'))
    : t('transcript.history.changes.none');
}
