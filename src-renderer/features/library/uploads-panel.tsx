import { useT } from '../../i18n/use-t';
import { formatBytes } from '../../lib/format';
import { useUploadsStore } from '../../stores/uploads-store';

export function UploadsPanel() {
  const t = useT();
  const jobs = useUploadsStore((state) => state.jobs);
  const cancel = useUploadsStore((state) => state.cancel);
  if (jobs.length === 0) return null;
  return (
    <div className="uploads" aria-label={t('library.uploads.heading')} role="region">
      <h2 className="section-title">{t('library.uploads.heading')}</h2>
      <ul className="upload-list">
        {jobs.slice(-6).reverse().map((job) => {
          const active = job.state === 'queued' || job.state === 'uploading' || job.state === 'starting';
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
                {active && (
                  <button type="button" className="button-quiet" onClick={() => void cancel(job.id)} aria-label={t('library.uploads.cancel', { name: job.fileName })}>
                    {t('common.cancel')}
                  </button>
                )}
              </span>
              {job.error && <span className="field-error upload-error">{job.error.message}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
