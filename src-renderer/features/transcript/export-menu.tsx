// Export to txt/srt/vtt/json/docx through main's save dialog.
import { useEffect, useId, useRef, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../src-shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useTranscriptStore } from '../../stores/transcript-store';


export function ExportMenu() {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('txt');
  const [speakers, setSpeakers] = useState(true);
  const [timestamps, setTimestamps] = useState(true);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const exportAs = useTranscriptStore((state) => state.exportAs);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('select')?.focus();
  }, [open]);

  const run = async () => {
    setBusy(true);
    const { path, error } = await exportAs({ format, speakers, timestamps });
    setBusy(false);
    if (error) setMessage({ text: error.message, error: true });
    else if (path) setMessage({ text: t('export.saved', { path }), error: false });
  };

  return (
    <div className="popover-anchor">
      <button type="button" className="button" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen(!open)}>
        {t('export.button')}
      </button>
      {open && (
        <div
          ref={panel}
          id={`${id}-panel`}
          className="popover"
          role="dialog"
          aria-label={t('export.heading')}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(false);
          }}
        >
          <h2 className="section-title">{t('export.heading')}</h2>
          <label htmlFor={`${id}-format`}>{t('export.format')}</label>
          <select id={`${id}-format`} value={format} onChange={(event) => setFormat(event.target.value as ExportFormat)}>
            {EXPORT_FORMATS.map((value) => (
              <option key={value} value={value}>
                {value.toUpperCase()}
              </option>
            ))}
          </select>
          <label className="check">
            <input type="checkbox" checked={speakers} onChange={(event) => setSpeakers(event.target.checked)} /> {t('export.speakers')}
          </label>
          <label className="check">
            <input type="checkbox" checked={timestamps} onChange={(event) => setTimestamps(event.target.checked)} /> {t('export.timestamps')}
          </label>
          <div className="row-actions">
            <button type="button" className="button primary" onClick={() => void run()} disabled={busy}>
              {t('export.run')}
            </button>
            <button type="button" className="button-quiet" onClick={() => setOpen(false)}>
              {t('common.close')}
            </button>
          </div>
          {message && (
            <p className={message.error ? 'field-error' : 'hint'} role="status">
              {message.text}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
