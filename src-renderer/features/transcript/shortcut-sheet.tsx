// The keyboard shortcuts of the transcript view (playing, then editing), opened with ? (and from the
// transport's hint).
import { useRef } from 'react';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../lib/modal';
import { EDIT_SHORTCUTS } from './edit-toolbar';
import { SHORTCUTS } from './use-transport-keys';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  const close = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      className="shortcut-sheet"
      title={t('shortcuts.title')}
      onClose={onClose}
      closeKeys={['Escape', '?']}
      initialFocus={close}
    >
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
    </Modal>
  );
}
