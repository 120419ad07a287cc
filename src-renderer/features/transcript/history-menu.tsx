// "History…": the transcript's revisions on the server (decision 0052), newest first, with who made each,
// when, and what made it; selecting one shows what it changed, and Restore brings an older one back as a
// new revision.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
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
import { nameChange, RevisionChangesView } from './revision-changes-view';
import type { ToolProps } from './edit-toolbar';
import { ErrorText } from '../../lib/error-details';
import { useEscape } from '../../lib/use-escape';
import { usePopoverPlacement } from '../../lib/use-popover-placement';
import { speakerDisplayName } from '../../../src-shared/speaker-names';
import { changedWordCount } from '../../../src-shared/word-diff';
import { selectSegments, speakersOf } from '../../stores/transcript-store';

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

  /** Reads what `revision` changed, once; resolves false when the read failed. */
  const readChanges = async (revision: number): Promise<boolean> => {
    const key = keyOf(revision);
    if (!transcriptId || revision === 1 || asked.current.has(key)) return true;
    asked.current.add(key);
    setChangesErrors(({ [key]: _, ...others }) => others);
    const [value, failure] = split(await api().transcripts.revisionChanges({ id: transcriptId, revision }));
    if (value) setChanges((before) => ({ ...before, [key]: value }));
    if (failure) {
      asked.current.delete(key);
      setChangesErrors((before) => ({ ...before, [key]: failure }));
    }
    return !failure;
  };

  useEffect(() => {
    if (open && selected !== null && !selectedChanges) void readChanges(selected);
  }, [open, transcriptId, selected, selectedChanges]);

  // Each line says what its revision changed ("Edited 3 words"), so the newest revisions' changes are read
  // as the list opens, one after another, newest first (a burst of reads could be refused by the server);
  // older ones, and any that failed, when the pointer or focus reaches them.
  useEffect(() => {
    if (!open || !history) return;
    let live = true;
    void (async () => {
      for (const r of [...history.revisions].reverse().slice(0, EAGER_LINES))
        if (!live || !(await readChanges(r.revision))) return;
    })();
    return () => {
      live = false;
    };
  }, [open, history]);

  const segments = useTranscriptStore(selectSegments);
  const speakers = useMemo(() => speakersOf(segments), [segments]);
  const unknown = t('transcript.speaker.unknown');
  // A label's own "Speaker N": the names are what a name's change is about.
  const speakerOf = (label: string) => speakerDisplayName(label, {}, speakers, unknown);

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
                    onMouseEnter={() => void readChanges(r.revision)}
                    onFocus={() => void readChanges(r.revision)}
                    onClick={() => setSelected(selected === r.revision ? null : r.revision)}
                  >
                    <strong>{t('transcript.history.revision', { revision: r.revision })}</strong>
                    {r.revision === history.latest && (
                      <span className="badge">{t('transcript.history.current')}</span>
                    )}{' '}
                    <span className="hint">
                      {t('transcript.history.byAt', { author: r.author, time: formatDate(r.createdAt, locale) })}
                    </span>
                    {/* The server's summary is English prose naming internal labels: the line and its tooltip
                        say it in the UI's language from what the revision changed. */}
                    <span className="history-what" title={revisionSummary(t, r, changes[keyOf(r.revision)])}>
                      {revisionLine(t, r, changes[keyOf(r.revision)], speakerOf)}
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

/** How many of the newest revisions' changes History reads as it opens, for their lines. */
const EAGER_LINES = 30;

/**
 * A revision's line in History: what it changed ("Renamed Speaker 2 to Alice", "Edited 3 words", "Split a
 * segment", "Dictionary applied: 2 words replaced"), from its changes once read; what made it until then,
 * and for a restore or a transcription (their changes can be anything).
 */
export function revisionLine(
  t: T,
  revision: TranscriptRevision,
  changes: RevisionChanges | undefined,
  speakerOf: (label: string) => string,
): string {
  const made = t(`transcript.history.source.${revision.source}`);
  if (
    !changes ||
    revision.revision === 1 ||
    (revision.source !== 'edit' && revision.source !== 'review' && revision.source !== 'dictionary')
  )
    return made;
  if (revision.source === 'dictionary') {
    const count = changes.replacements.reduce((sum, r) => sum + r.count, 0);
    return count === 0
      ? made
      : t(count === 1 ? 'transcript.history.line.dictionary.one' : 'transcript.history.line.dictionary.other', {
          count,
        });
  }
  // Beyond the listed segments the words are not known: the tooltip's count says it.
  if (changes.moreSegments > 0) return revisionSummary(t, revision, changes) ?? made;
  const parts: string[] = [];
  if (changes.speakerNames.length > 1)
    parts.push(t('transcript.history.line.names', { count: changes.speakerNames.length }));
  for (const n of changes.speakerNames.length === 1 ? changes.speakerNames : []) {
    const speaker = speakerOf(n.speaker);
    const key = `transcript.history.line.${nameChange(n)}` as const;
    parts.push(t(key, { speaker, before: n.before ?? speaker, after: n.after ?? '' }));
  }
  const added = changes.segments.filter((c) => c.before === null).length;
  const removed = changes.segments.filter((c) => c.after === null).length;
  const both = changes.segments.filter((c) => c.before !== null && c.after !== null);
  if (added > 0 && removed === 0)
    parts.push(
      t(added === 1 ? 'transcript.history.line.split.one' : 'transcript.history.line.split.other', { count: added }),
    );
  else if (removed > 0 && added === 0) parts.push(t('transcript.history.line.merged'));
  else if (added + removed > 0) parts.push(revisionSummary(t, revision, changes) ?? made);
  else {
    const speakerChanged = both.filter((c) => c.before!.speaker !== c.after!.speaker).length;
    const words = both.reduce((sum, c) => sum + changedWordCount(c.before!.text, c.after!.text, changes.language), 0);
    if (words > 0)
      parts.push(
        t(words === 1 ? 'transcript.history.line.words.one' : 'transcript.history.line.words.other', { count: words }),
      );
    if (speakerChanged > 0)
      parts.push(
        t(speakerChanged === 1 ? 'transcript.history.line.speaker.one' : 'transcript.history.line.speaker.other', {
          count: speakerChanged,
        }),
      );
  }
  return parts.length > 0 ? parts.join(t('transcript.history.summary.separator')) : made;
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
