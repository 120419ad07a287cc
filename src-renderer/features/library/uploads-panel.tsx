// The uploads queue: every file's state and progress, newest first. It collapses to one summary line,
// and "Clear finished" removes what is done (the transcriptions stay in the library).
import { useId } from 'react';
import type { IpcError, UploadJob } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { selectFinishedCount, useUploadsStore } from '../../stores/uploads-store';

const isActive = (job: UploadJob) => job.state === 'queued' || job.state === 'uploading' || job.state === 'starting';
/** Failed or cancelled, or waiting after the server could not be reached: "Try again" tries now. */
const canRetry = (job: UploadJob) => job.state === 'failed' || job.state === 'cancelled' || (job.state === 'queued' && job.error !== null);

export function UploadsPanel() {
  const t = useT();
  const listId = useId();
  const jobs = useUploadsStore((state) => state.jobs);
  const collapsed = useUploadsStore((state) => state.collapsed);
  const finished = useUploadsStore(selectFinishedCount);
  const { cancel, retry, clearFinished, setCollapsed } = useUploadsStore.getState();
  if (jobs.length === 0) return null;
  const active = jobs.filter(isActive).length;
  const failed = jobs.filter((job) => job.state === 'failed').length;
  const summary = [
    active > 0 && t('library.uploads.summary.active', { count: active }),
    finished > 0 && t('library.uploads.summary.done', { count: finished }),
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
          onClick={() => setCollapsed(!collapsed)}
        >
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> <span className="section-title">{t('library.uploads.heading')}</span>
        </button>
        <span className="hint" data-testid="uploads-summary">
          {summary.join(' · ')}
        </span>
        <span className="spacer" />
        {finished > 0 && (
          <button type="button" className="button-quiet" onClick={() => void clearFinished()}>
            {t('library.uploads.clear')}
          </button>
        )}
      </div>
      {!collapsed && (
        <ul className="upload-list" id={listId}>
          {[...jobs].reverse().map((job) => {
            const fraction = job.size > 0 ? job.sentBytes / job.size : 0;
            return (
              <li key={job.id} className="upload-item" data-testid="upload-item" data-state={job.state}>
                <span className="upload-name" title={job.filePath}>
                  {job.fileName}
                </span>
                <progress max={1} value={job.state === 'done' ? 1 : fraction} aria-label={t('library.uploads.progress', { name: job.fileName })} />
                <span className={`upload-state state-${job.state}`}>
                  {t(`library.upload.state.${job.state}`)} · {formatBytes(job.sentBytes)} / {formatBytes(job.size)}
                </span>
                <span className="upload-actions">
                  {canRetry(job) && (
                    <button type="button" className="button-quiet" onClick={() => void retry(job.id)} aria-label={t('library.uploads.retry', { name: job.fileName })}>
                      {t('library.uploads.retryShort')}
                    </button>
                  )}
                  {isActive(job) && (
                    <button type="button" className="button-quiet" onClick={() => void cancel(job.id)} aria-label={t('library.uploads.cancel', { name: job.fileName })}>
                      {t('common.cancel')}
                    </button>
                  )}
                </span>
                {job.error && <UploadError error={job.error} />}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * Why an upload failed. A language the server refused gets the app's own words, in the UI's language;
 * the server's message (English, and naming the language) stays underneath as the detail.
 */
function UploadError({ error }: { error: IpcError }) {
  const t = useT();
  const languageRefused = error.code === 'unsupported' && (error.field === 'language' || error.field === 'options.language');
  if (!languageRefused) return <span className="field-error upload-error">{error.message}</span>;
  return (
    <span className="field-error upload-error">
      {t('library.upload.languageRefused')} <small className="muted">{error.message}</small>
    </span>
  );
}
