// Undo, redo and find & replace for the open transcript, as buttons and as the usual keys:
// Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl+Y redo, Ctrl/⌘+F opens find, Ctrl/⌘+H find and replace.
// "Next uncertain word" (U, handled with the transport keys) reviews the underlined words in order.
// Undo keys typed into a field are left to the field (its own text undo).
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { uncertainWords } from '../../../src-shared/word-confidence';
import { useT } from '../../i18n/use-t';
import { usePlayerStore } from '../../stores/player-store';
import { locateTime, selectHistory, selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import { goToNextUncertainWord } from './uncertain-words';
import { useErrorText } from '../../i18n/error-text';
import type { IpcError } from '../../../src-shared/ipc-contract';

export type FindMode = 'find' | 'replace';

/** The edit keys the shortcut sheet lists after the transport's. */
export const EDIT_SHORTCUTS = [
  { keys: ['Ctrl/⌘', 'Z'], action: 'shortcuts.undo' },
  { keys: ['Ctrl/⌘', 'Shift', 'Z'], action: 'shortcuts.redo' },
  { keys: ['Ctrl', 'Y'], action: 'shortcuts.redo' },
  { keys: ['Ctrl/⌘', 'F'], action: 'shortcuts.find' },
  { keys: ['Ctrl/⌘', 'H'], action: 'shortcuts.replace' },
  { keys: ['Alt', '←', '→'], action: 'shortcuts.words' },
  { keys: ['Enter'], action: 'shortcuts.editWord' },
  { keys: ['S'], action: 'shortcuts.split' },
  { keys: ['M'], action: 'shortcuts.merge' },
  { keys: ['U'], action: 'shortcuts.nextUncertain' },
] as const;

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

export function useEditKeys(onFind: (mode: FindMode) => void): void {
  const find = useRef(onFind);
  find.current = onFind;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      const store = useTranscriptStore.getState();
      if (key === 'f' || key === 'h') {
        find.current(key === 'f' ? 'find' : 'replace');
      } else if ((key === 'z' || key === 'y') && !isTyping(event.target)) {
        if (key === 'y' || event.shiftKey) void store.redo();
        else void store.undo();
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function EditToolbar({ onFind }: { onFind: (mode: FindMode) => void }) {
  const t = useT();
  const history = useTranscriptStore(selectHistory);
  const undo = useTranscriptStore((state) => state.undo);
  const redo = useTranscriptStore((state) => state.redo);
  const [error, setError] = useState<string | null>(null);
  const errorText = useErrorText();
  const run = async (action: () => Promise<IpcError | null>) => {
    const failure = await action();
    setError(failure ? errorText(failure) : null);
  };
  return (
    <div className="edit-toolbar" role="toolbar" aria-label={t('edit.toolbar')}>
      <button
        type="button"
        className="button-quiet"
        onClick={() => void run(undo)}
        disabled={history.undo === 0}
        aria-keyshortcuts="Control+Z Meta+Z"
      >
        ↶ {t('edit.undo')}
      </button>
      <button
        type="button"
        className="button-quiet"
        onClick={() => void run(redo)}
        disabled={history.redo === 0}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
      >
        ↷ {t('edit.redo')}
      </button>
      <button
        type="button"
        className="button-quiet"
        onClick={() => onFind('replace')}
        aria-keyshortcuts="Control+H Meta+H"
      >
        {t('edit.findReplace')}
      </button>
      <UncertainWords />
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** "Next uncertain word", and where playback is among the uncertain words (or that there are none). */
function UncertainWords() {
  const t = useT();
  const id = useId();
  const segments = useTranscriptStore(selectSegments);
  const ordinals = useMemo(
    () => new Map(uncertainWords(segments).map((u, i) => [`${u.segmentIndex}:${u.wordIndex}`, i + 1])),
    [segments],
  );
  // A number, so the toolbar re-renders only when the word being played changes.
  const at = usePlayerStore((state) => ordinals.get(locateTime(segments, state.currentTime).join(':')) ?? 0);
  const count = ordinals.size;
  return (
    <>
      <button
        type="button"
        className="button-quiet"
        onClick={() => goToNextUncertainWord()}
        disabled={count === 0}
        aria-keyshortcuts="U"
        aria-describedby={id}
      >
        {t('edit.nextUncertain')}
      </button>
      <span className="hint" id={id} data-testid="uncertain-status">
        {count === 0
          ? t('edit.noUncertain')
          : at > 0
            ? t('edit.uncertainPlace', { place: at, count })
            : t('edit.uncertainCount', { count })}
      </span>
    </>
  );
}
