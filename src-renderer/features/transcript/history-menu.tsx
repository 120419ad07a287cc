// "History…": the transcript's revisions on the server (decision 0052), newest first, with who made each,
// when, and what made it; selecting one shows what it changed, and Restore brings an older one back as a
// new revision.
import { useEffect, useId, useRef, useState } from 'react';
import type { IpcError, RevisionChanges, TranscriptRevisions } from '../../../src-shared/ipc-contract';
import { useLocale, useT } from '../../i18n/use-t';
import { api, split } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useTranscriptStore } from '../../stores/transcript-store';
import { RevisionChangesView } from './revision-changes-view';
import { ErrorText } from '../../lib/error-details';
import { useEscape } from '../../lib/use-escape';
import { usePopoverPlacement } from '../../lib/use-popover-placement';

export function HistoryMenu() {
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
  // A revision never changes, so what it changed is read once.
  const [changes, setChanges] = useState<Record<string, RevisionChanges>>({});
  const [changesError, setChangesError] = useState<IpcError | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEscape(open, () => setOpen(false), opener);
  const placement = usePopoverPlacement(open, opener, panel);
  const selectedChanges = selected === null ? null : (changes[`${transcriptId}/${selected}`] ?? null);

  useEffect(() => {
    if (!open || !transcriptId || selected === null || selected === 1 || selectedChanges) return;
    let live = true;
    setChangesError(null);
    void api()
      .transcripts.revisionChanges({ id: transcriptId, revision: selected })
      .then((result) => {
        if (!live) return;
        const [value, failure] = split(result);
        setChangesError(failure);
        if (value) setChanges((before) => ({ ...before, [`${transcriptId}/${selected}`]: value }));
      });
    return () => {
      live = false;
    };
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
        className="button"
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
                    onClick={() => setSelected(selected === r.revision ? null : r.revision)}
                  >
                    <strong>{t('transcript.history.revision', { revision: r.revision })}</strong>
                    {r.revision === history.latest && (
                      <span className="badge">{t('transcript.history.current')}</span>
                    )}{' '}
                    <span className="hint">
                      {t('transcript.history.byAt', { author: r.author, time: formatDate(r.createdAt, locale) })}
                    </span>
                    {/* The server's summary is English prose: the UI's own words lead, it is the detail. */}
                    <span className="history-what" title={r.summary}>
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
