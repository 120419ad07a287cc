// The keyboard shortcuts of the transcript view (playing, then editing), opened with ? (and from the
// transport's hint).
import { useEffect, useId, useRef } from 'react';
import { useT } from '../../i18n/use-t';
import { EDIT_SHORTCUTS } from './edit-toolbar';
import { SHORTCUTS } from './use-transport-keys';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    return () => before?.focus();
  }, []);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal shortcut-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape' || event.key === '?') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId}>{t('shortcuts.title')}</h2>
        <table>
          <tbody>
            {[...SHORTCUTS, ...EDIT_SHORTCUTS].map((shortcut) => (
              <tr key={shortcut.keys.join('+')}>
                <td className="shortcut-keys">
                  {shortcut.keys.map((key) => (
                    <kbd key={key}>{key === 'Space' ? t('shortcuts.space') : key === 'Shift' ? 'Shift' : key}</kbd>
                  ))}
                </td>
                <td>{t(shortcut.action)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row-actions">
          <button ref={close} type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </div>
  );
}
