// Drag files or folders in, or press Enter/Space (or the button) to choose files with the system
// dialog; "Import folder…" beside it chooses a folder (main walks it: src-main/uploads/folder-scan.ts).
import { useState, type DragEvent, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/use-t';
import { errorFor, formLevelError } from '../../lib/field-error';
import { useUploadsStore } from '../../stores/uploads-store';
import { UPLOAD_OPTION_FIELDS } from './upload-options-form';
import { ErrorText } from '../../lib/error-details';
import { useNavigationStore } from '../../stores/navigation-store';

export function DropZone() {
  const t = useT();
  const [active, setActive] = useState(false);
  const addFiles = useUploadsStore((state) => state.addFiles);
  const pick = useUploadsStore((state) => state.pick);
  const pickFolder = useUploadsStore((state) => state.pickFolder);
  // Errors about an upload option sit next to that option in the form; here, only that the files
  // it refused were not added (else they would vanish without a word).
  const storeError = useUploadsStore((state) => state.error);
  const error = formLevelError(storeError, UPLOAD_OPTION_FIELDS);
  const refused = errorFor(storeError, UPLOAD_OPTION_FIELDS);
  const dismissError = useUploadsStore((state) => state.dismissError);
  // Each refused file by name with its reason, until dismissed: a later good drop leaves them be.
  const refusals = useUploadsStore((state) => state.refusals);
  const dismissRefusal = useUploadsStore((state) => state.dismissRefusal);
  const duplicates = useUploadsStore((state) => state.duplicates);
  const { addDuplicate, dismissDuplicate } = useUploadsStore.getState();
  const go = useNavigationStore((state) => state.go);

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setActive(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setActive(false);
    // A dropped folder arrives as a File too: main looks at the path and imports it as a folder.
    const dropped = Array.from(event.dataTransfer.files);
    if (dropped.length) void addFiles(dropped);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      void pick();
    }
  };

  return (
    <div className="drop-area">
      <div className="drop-row">
        <div
          className={active ? 'drop-zone drop-zone-active' : 'drop-zone'}
          data-testid="drop-zone"
          role="button"
          tabIndex={0}
          aria-label={t('library.drop.label')}
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={() => setActive(false)}
          onDrop={onDrop}
          onKeyDown={onKeyDown}
        >
          <svg className="drop-icon" viewBox="0 0 24 24" aria-hidden="true" width="28" height="28">
            <path
              d="M12 3v12m0-12-4 4m4-4 4 4M4 15v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          {/* "or" goes with its button onto the next line when the title needs the room. */}
          <span className="drop-text">
            <span className="drop-title">{active ? t('library.drop.active') : t('library.drop.title')}</span>
            <span className="drop-choose">
              <span className="drop-or">{t('library.drop.or')}</span>
              <button type="button" className="button" tabIndex={-1} onClick={() => void pick()}>
                {t('library.drop.choose')}
              </button>
            </span>
          </span>
        </div>
        <button
          type="button"
          className="button import-folder"
          data-testid="import-folder"
          onClick={() => void pickFolder()}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
            <path
              d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          </svg>
          {t('library.drop.folder')}
        </button>
      </div>
      {refused && !error && (
        <p className="field-error drop-refused" role="alert" data-testid="drop-refused">
          {t('library.drop.notAdded', { options: t('library.options.toggle') })}{' '}
          <button type="button" className="button-quiet" onClick={dismissError}>
            {t('common.dismiss')}
          </button>
        </p>
      )}
      {duplicates.length > 0 && (
        <ul className="drop-refusals" data-testid="drop-duplicates">
          {duplicates.map(({ offer, transcriptionId }) => (
            <li key={offer.handle} className="warning-banner">
              <p>{t('library.drop.duplicate', { name: offer.name })}</p>
              {transcriptionId && (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    dismissDuplicate(offer.handle);
                    go({ name: 'transcript', id: transcriptionId });
                  }}
                >
                  {t('library.drop.duplicateOpen')}
                </button>
              )}
              <button type="button" className="button" onClick={() => void addDuplicate(offer.handle)}>
                {t('library.drop.duplicateAgain')}
              </button>
              <button type="button" className="button-quiet" onClick={() => dismissDuplicate(offer.handle)}>
                {t('common.dismiss')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {refusals.length > 0 && (
        <ul className="drop-refusals" role="alert" data-testid="drop-refusals">
          {refusals.map((refusal) => (
            <li key={refusal.key} className="error-banner">
              <ErrorText error={refusal.error} />{' '}
              <button type="button" className="button-quiet" onClick={() => dismissRefusal(refusal.key)}>
                {t('common.dismiss')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div className="error-banner" role="alert">
          <ErrorText error={error} />{' '}
          <button type="button" className="button-quiet" onClick={dismissError}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}
