// The library list, virtualized: only the rows on screen exist in the DOM, and only their pages are
// fetched, so 10,000 transcriptions cost the same as 20.
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { isProcessing } from '../../../src-shared/api/vocabulary';
import type { TranscriptionSummary, TranscriptWarning } from '../../../src-shared/ipc-contract';
import { languageList } from '../../../src-shared/languages';
import { useLocale, useT } from '../../i18n/use-t';
import { formatClock, formatDate } from '../../lib/format';
import { selectRerun, selectRowAt, useLibraryStore } from '../../stores/library-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { selectUiLanguage, useSettingsStore } from '../../stores/settings-store';
import { ProgressLine } from '../progress/progress-line';
import { RerunDialog } from './rerun-dialog';
import { LanguageWarningCell, languageWarningOf } from '../transcript/language-warning';
import { ErrorText } from '../../lib/error-details';
import { joinSentences } from '../../i18n/messages';
import { failureText, useErrorText } from '../../i18n/error-text';

export const ROW_HEIGHT = 52;
const OVERSCAN = 6;
/** Used until layout is known (and in DOM-less tests). */
const FALLBACK_VIEWPORT = 640;

export function TranscriptionList() {
  const t = useT();
  const total = useLibraryStore((state) => state.total);
  const loading = useLibraryStore((state) => state.loading);
  const error = useLibraryStore((state) => state.error);
  const ensureRange = useLibraryStore((state) => state.ensureRange);
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(FALLBACK_VIEWPORT);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const measure = () => setHeight(element.clientHeight || FALLBACK_VIEWPORT);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    return () => observer?.disconnect();
  }, [total > 0]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  useEffect(() => {
    if (total > 0) void ensureRange(first, last);
  }, [first, last, total, ensureRange]);

  // A key press whose row waits for its page (End from the top) waits alone: the next key press or leaving
  // the list ends the wait, so presses do not pile up waits, and a slow page never pulls focus back to a row
  // the user has already moved on from.
  const waitingFocus = useRef<(() => void) | null>(null);
  const stopWaiting = useCallback(() => {
    waitingFocus.current?.();
    waitingFocus.current = null;
  }, []);
  useEffect(() => stopWaiting, [stopWaiting]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (!row || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End'))
        return;
      event.preventDefault();
      stopWaiting();
      const index = Number(row.dataset.index);
      const next =
        event.key === 'Home' ? 0 : event.key === 'End' ? total - 1 : index + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0 || next >= total || !viewport.current) return;
      const element = viewport.current;
      const top = next * ROW_HEIGHT;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight)
        element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
      // The target row renders on the next frame when it was outside the window, and has a button only once
      // its page is here (End from the top reaches a page the scroll has only just asked for).
      const focus = () => element.querySelector<HTMLElement>(`[data-index="${next}"] button`)?.focus();
      if (useLibraryStore.getState().rows[next]) requestAnimationFrame(focus);
      else
        waitingFocus.current = useLibraryStore.subscribe((state) => {
          if (!state.rows[next] && !state.error) return;
          stopWaiting();
          requestAnimationFrame(focus);
        });
    },
    [total, stopWaiting],
  );

  if (error && total === 0)
    return (
      <div className="error-banner" role="alert">
        <ErrorText error={error} />
      </div>
    );
  if (!loading && total === 0) return <p className="empty">{t('library.list.empty')}</p>;

  const rows = [];
  for (let index = first; index < last; index++) rows.push(<Row key={index} index={index} total={total} />);

  return (
    <div className="list-frame">
      <div className="list-header" aria-hidden="true">
        <span>{t('library.col.name')}</span>
        <span>{t('library.col.status')}</span>
        <span>{t('library.col.duration')}</span>
        <span>{t('library.col.speakers')}</span>
        <span>{t('library.col.language')}</span>
        <span>{t('library.col.date')}</span>
      </div>
      <div
        ref={viewport}
        className="list-viewport"
        data-testid="transcription-list"
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
      >
        <ul className="list-canvas" aria-label={t('library.list.label')} style={{ height: total * ROW_HEIGHT }}>
          {rows}
        </ul>
      </div>
    </div>
  );
}

const Row = memo(function Row({ index, total }: { index: number; total: number }) {
  const item = useLibraryStore(selectRowAt(index));
  return (
    <li
      className="list-row"
      data-index={index}
      aria-setsize={total}
      aria-posinset={index + 1}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
    >
      {!item ? (
        <span className="row-placeholder" aria-hidden="true" />
      ) : item.status === 'FAILED' ? (
        <FailedRowContent item={item} />
      ) : languageWarningOf(item) ? (
        <WarnedRowContent item={item} warning={languageWarningOf(item)!} />
      ) : (
        <RowContent item={item} />
      )}
    </li>
  );
});

function RowContent({ item }: { item: TranscriptionSummary }) {
  const t = useT();
  const locale = useLocale();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  // None chosen at upload: the server fills in the language it detects when done; until then (or from a
  // server that does not) the cell says so rather than showing a dash.
  const languages = item.languages.length ? languageList(item.languages, uiLanguage) : null;
  const active = isProcessing(item.status);
  return (
    <RowButton item={item} className="row-button">
      <NameCell item={item} />
      {active ? (
        <ProgressLine summary={item} variant="row" />
      ) : (
        <span className="cell-status">
          <span className={`status status-${item.status}`}>{t(`status.${item.status}`)}</span>
        </span>
      )}
      <span className="cell-num">{formatClock(item.duration)}</span>
      <span className="cell-num">{item.speakers ?? '–'}</span>
      <span className="cell-language" title={languages ?? t('library.row.noLanguageHint')}>
        {languages ?? t('library.row.noLanguage')}
      </span>
      <span className="cell-date">{formatDate(item.createdAt, locale)}</span>
    </RowButton>
  );
}

/** What every row is: a button that opens the transcript, named for it. */
function RowButton({
  item,
  className,
  children,
}: {
  item: TranscriptionSummary;
  className: string;
  children: ReactNode;
}) {
  const t = useT();
  const go = useNavigationStore((state) => state.go);
  return (
    <button
      type="button"
      className={className}
      data-testid="transcription-row"
      data-status={item.status}
      aria-label={t('library.row.open', { name: item.name })}
      onClick={() => go({ name: 'transcript', id: item.id })}
    >
      {children}
    </button>
  );
}

/**
 * A finished transcription most likely not in its language (decision 0070): opens like the others, and
 * says so in place of the figures, with "Transcribe again as…" beside it (laid out like a failed row).
 */
function WarnedRowContent({ item, warning }: { item: TranscriptionSummary; warning: TranscriptWarning }) {
  return (
    <div className="row-failed row-warned">
      <OpenRowButton item={item} />
      <LanguageWarningCell summary={item} warning={warning} />
    </div>
  );
}

/** A failed or warned row's name and status: opens the transcript, as any row does. */
function OpenRowButton({ item }: { item: TranscriptionSummary }) {
  const t = useT();
  return (
    <RowButton item={item} className="row-button row-open">
      <NameCell item={item} />
      <span className="cell-status">
        <span className={`status status-${item.status}`}>{t(`status.${item.status}`)}</span>
      </span>
    </RowButton>
  );
}

/**
 * A FAILED transcription (decision 0020): opens like the others, and says why it failed in one line
 * (all of it in the tooltip), with "Try again" and "Other options…" beside it; when the recording is
 * not on this computer, the actions ask for the file first and the row says so.
 */
function FailedRowContent({ item }: { item: TranscriptionSummary }) {
  const t = useT();
  const rerun = useLibraryStore(selectRerun(item.id));
  const [dialog, setDialog] = useState(false);
  const errorText = useErrorText();
  const uiLanguage = useSettingsStore(selectUiLanguage);
  // In the UI's language by the server's code; the server's own words only in the tooltip's details (or
  // as the reason itself, from a server that sends no code).
  const reason = failureText(t, item.failureCode) ?? (item.failureReason?.trim() || t('library.rerun.noReason'));
  const serverWords = item.failureCode !== null && item.failureReason ? item.failureReason.trim() : null;
  const refused = rerun?.state === 'refused' ? rerun.error : null;
  const note = refused
    ? errorText(refused)
    : [
        joinSentences(
          uiLanguage,
          t('library.rerun.reason', { reason }),
          item.audioCached ? '' : t('library.rerun.notCached'),
        ),
        serverWords ? t('error.detailsLine', { details: serverWords }) : '',
      ]
        .filter(Boolean)
        .join('\n');
  const again = () => void useLibraryStore.getState().rerun(item.id, undefined, !item.audioCached);
  return (
    <div className="row-failed">
      <OpenRowButton item={item} />
      <div className="failure-cell">
        <span
          className={refused ? 'failure-reason refused' : 'failure-reason'}
          data-testid="failure-reason"
          title={note}
          role={refused ? 'alert' : undefined}
        >
          {refused ? errorText(refused) : reason}
        </span>
        {rerun?.state === 'queued' || rerun?.state === 'sending' ? (
          <span className="failure-progress" role="status">
            {t(rerun.state === 'queued' ? 'library.rerun.queued' : 'library.rerun.sending')}
          </span>
        ) : (
          <span className="failure-actions">
            {item.audioCached ? (
              <button
                type="button"
                className="button-quiet small"
                aria-label={t('library.rerun.tryAgainLabel', { name: item.name })}
                onClick={again}
              >
                {t('library.rerun.tryAgain')}
              </button>
            ) : (
              <button
                type="button"
                className="button-quiet small"
                aria-label={t('library.rerun.chooseFileLabel', { name: item.name })}
                title={t('library.rerun.notCached')}
                onClick={again}
              >
                {t('library.rerun.chooseFile')}
              </button>
            )}
            <button
              type="button"
              className="button-quiet small"
              aria-label={t('library.rerun.otherOptionsLabel', { name: item.name })}
              onClick={() => setDialog(true)}
            >
              {t('library.rerun.otherOptions')}
            </button>
          </span>
        )}
      </div>
      {dialog && <RerunDialog item={item} onClose={() => setDialog(false)} />}
    </div>
  );
}

function NameCell({ item }: { item: TranscriptionSummary }) {
  const t = useT();
  // Only a finished transcription has a transcript to have offline: for any other (failed, waiting,
  // transcribing) its kept recording is what is worth saying, with a muted mark of a recording, not the
  // green check of a transcript ready to read beside "Failed" or "Waiting to start".
  const recording = item.status !== 'COMPLETED';
  const cached = recording ? t('library.row.audioKept') : t('library.row.cached');
  return (
    <span className="cell-name">
      {/* Cut to the column's width: the whole name on hover. */}
      <span className="name-text" title={item.name}>
        {item.name}
      </span>
      {item.audioCached && (
        <span
          className={recording ? 'cached cached-recording' : 'cached'}
          title={cached}
          data-testid="row-cached"
          data-kind={recording ? 'recording' : 'transcript'}
        >
          <span className="visually-hidden">{cached}</span>
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path
              d={recording ? 'M3 6.5v3M6.5 3.5v9M10 5v6M13.5 7v2' : 'M3 8.5 6.5 12 13 4.5'}
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </span>
      )}
    </span>
  );
}
