// The uploads queue: every file's state and progress, newest first, through to its transcription's
// end (queue-state.ts). It collapses to one summary line (kept; collapsed at first in a low window), and
// "Clear finished" removes what is done (the transcriptions stay in the library).
import { useId } from 'react';
import type { IpcError, TranscriptionSummary, UploadJob } from '../../../src-shared/ipc-contract';
import { LIMITS } from '../../../src-shared/limits';
import { useT, type T } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { useLibraryStore } from '../../stores/library-store';
import { selectFinishedCount, useUploadsStore } from '../../stores/uploads-store';
import { isInProgress, queueStateOf, type QueueState } from './queue-state';
import { ErrorDetails, ErrorText } from '../../lib/error-details';
import { useCollapsedPanel } from '../../lib/use-collapsed-panel';
import { failureText } from '../../i18n/error-text';
import { progressWords, stageText } from '../progress/progress-line';

const isActive = (job: UploadJob) => job.state === 'queued' || job.state === 'uploading' || job.state === 'starting';
/** Failed or cancelled, or waiting after the server could not be reached: "Try again" tries now. */
const canRetry = (job: UploadJob) =>
  job.state === 'failed' || job.state === 'cancelled' || (job.state === 'queued' && job.error !== null);

export function UploadsPanel() {
  const t = useT();
  const listId = useId();
  const jobs = useUploadsStore((state) => state.jobs);
  const opened = useUploadsStore((state) => state.collapsed);
  const [kept, keep] = useCollapsedPanel('uploads');
  const collapsed = opened ?? kept;
  const finished = useUploadsStore(selectFinishedCount);
  const rows = useLibraryStore((state) => state.rows);
  const { cancel, retry, clearFinished, setCollapsed } = useUploadsStore.getState();
  if (jobs.length === 0) return null;
  const byId = new Map(
    rows.filter((row): row is TranscriptionSummary => row !== undefined).map((row) => [row.id, row]),
  );
  const queue = jobs.map((job) => ({
    job,
    state: queueStateOf(job, job.transcriptionId ? byId.get(job.transcriptionId) : undefined),
  }));
  // Queued again after the server could not be reached: folded, the line must still say why they wait.
  const stalled = jobs.filter((job) => job.state === 'queued' && job.error !== null);
  const active = queue.filter(({ state }) => isInProgress(state)).length - stalled.length;
  const failed = queue.filter(({ state }) => state.kind === 'failed').length;
  const settled = queue.length - active - stalled.length - failed;
  const summary = [
    stalled.length > 0 && t('library.uploads.summary.stalled', { count: stalled.length }),
    active > 0 && t('library.uploads.summary.active', { count: active }),
    settled > 0 && t('library.uploads.summary.done', { count: settled }),
    failed > 0 && t('library.uploads.summary.failed', { count: failed }),
  ].filter(Boolean);
  return (
    <div className="uploads" aria-label={t('library.uploads.heading')} role="region" data-collapsed={collapsed}>
      <div className="uploads-head">
        <button
          type="button"
          className="button-quiet uploads-toggle"
          aria-expanded={!collapsed}
          aria-controls={listId}
          title={collapsed ? t('library.uploads.expand') : t('library.uploads.collapse')}
          onClick={() => {
            setCollapsed(null);
            keep(!collapsed);
          }}
        >
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span>{' '}
          <span className="section-title">{t('library.uploads.heading')}</span>
        </button>
        <span className="hint" data-testid="uploads-summary">
          {summary.join(' · ')}
        </span>
        {collapsed && stalled.length > 0 && (
          <button type="button" className="button-quiet" onClick={() => stalled.forEach((job) => void retry(job.id))}>
            {t('library.uploads.retryShort')}
          </button>
        )}
        <span className="spacer" />
        {finished > 0 && (
          <button type="button" className="button-quiet" onClick={() => void clearFinished()}>
            {t('library.uploads.clear')}
          </button>
        )}
      </div>
      {!collapsed && (
        <ul className="upload-list" id={listId}>
          {[...queue].reverse().map(({ job, state }) => (
            <li
              key={job.id}
              className="upload-item"
              data-testid="upload-item"
              data-state={job.state}
              data-queue={state.kind}
            >
              <span className="upload-name" title={job.filePath}>
                {job.fileName}
              </span>
              <QueueProgress job={job} state={state} />
              <span className={`upload-state state-${state.kind}`} data-testid="upload-state">
                {stateText(t, state)}
                {state.kind === 'uploading'
                  ? ` · ${formatBytes(job.sentBytes)} / ${formatBytes(job.size)}`
                  : ` · ${formatBytes(job.size)}`}
              </span>
              <span className="upload-actions">
                {canRetry(job) && (
                  <button
                    type="button"
                    className="button-quiet"
                    onClick={() => void retry(job.id)}
                    aria-label={t('library.uploads.retry', { name: job.fileName })}
                  >
                    {t('library.uploads.retryShort')}
                  </button>
                )}
                {isActive(job) && (
                  <button
                    type="button"
                    className="button-quiet"
                    onClick={() => void cancel(job.id)}
                    aria-label={t('library.uploads.cancel', { name: job.fileName })}
                  >
                    {t('common.cancel')}
                  </button>
                )}
              </span>
              {state.kind === 'failed' && state.error && <UploadError error={state.error} />}
              {/* Waiting after the server could not be reached: why, beside "Try again". */}
              {state.kind === 'waiting' && job.error && <UploadError error={job.error} />}
              {state.kind === 'failed' && !state.error && (state.code || state.reason) && (
                <span className="field-error upload-error">
                  {failureText(t, state.code) ?? state.reason}
                  {state.code && <ErrorDetails detail={state.reason} />}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The line a queue state reads as (the uploads panel, and the record panel's kept recordings). */
export function stateText(t: T, state: QueueState): string {
  switch (state.kind) {
    case 'uploading':
      return t('library.queue.uploading', { percent: state.percent });
    case 'transcribing':
      // The stage as the library row says it, from the one place that words it.
      return stageText(progressWords(t, state.transcription, null));
    default:
      return t(`library.queue.${state.kind}`);
  }
}

/** The upload's progress, then the transcription's; no value (an indeterminate bar) while a stage's share is unknown. */
function QueueProgress({ job, state }: { job: UploadJob; state: QueueState }) {
  const t = useT();
  const label = t('library.uploads.progress', { name: job.fileName });
  switch (state.kind) {
    case 'waiting':
    case 'queued':
      return <progress max={1} value={0} aria-label={label} />;
    case 'uploading':
      return <progress max={100} value={state.percent} aria-label={label} />;
    case 'transcribing':
      return state.percent === null ? (
        <progress aria-label={label} />
      ) : (
        <progress max={100} value={state.percent} aria-label={label} />
      );
    case 'starting':
      return <progress aria-label={label} />;
    case 'failed':
    case 'cancelled':
      return <progress max={1} value={job.size > 0 ? job.sentBytes / job.size : 0} aria-label={label} />;
    default:
      return <progress max={1} value={1} aria-label={label} />;
  }
}

/**
 * Why an upload failed. A language or speaker count the server refused gets the app's own words, in the
 * UI's language; the server's message (English, naming the API's field) stays underneath as the detail.
 */
function UploadError({ error }: { error: IpcError }) {
  const t = useT();
  const languageRefused =
    error.code === 'unsupported' && (error.field === 'language' || error.field === 'options.language');
  const field = error.field?.replace(/^options\./, '');
  const speakersRefused =
    error.code === 'validation' && (field === 'numSpeakers' || field === 'minSpeakers' || field === 'maxSpeakers');
  if (!languageRefused && !speakersRefused)
    return (
      <span className="field-error upload-error">
        <ErrorText error={error} />
      </span>
    );
  return (
    <span className="field-error upload-error">
      {languageRefused
        ? t('library.upload.languageRefused')
        : t('library.upload.speakersRefused', { min: LIMITS.speakers.min, max: LIMITS.speakers.max })}{' '}
      <ErrorDetails detail={error.detail ?? null} />
    </span>
  );
}
