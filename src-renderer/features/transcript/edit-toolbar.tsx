// Undo, redo and find & replace for the open transcript, as buttons and as the usual keys:
// Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl+Y redo, Ctrl/⌘+F opens find, Ctrl/⌘+H find and replace.
// "Next uncertain word" (U, handled with the transport keys) reviews the underlined words in order. The
// toolbar is one tab stop; ←/→ move between its buttons.
// Undo keys typed into a field are left to the field (its own text undo).
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import type { TranscriptSegment } from '../../../src-shared/transcript-document';
import { uncertainWords } from '../../../src-shared/word-confidence';
import { useT } from '../../i18n/use-t';
import { usePlayerStore } from '../../stores/player-store';
import { locateTime, selectHistory, selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import { goToNextUncertainWord } from './uncertain-words';
import { HistoryMenu } from './history-menu';
import { TranscribeAgainButton } from './transcribe-again-button';
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

type Tool = 'undo' | 'redo' | 'find' | 'uncertain' | 'again' | 'history';
/** What a button needs to be one of the toolbar's roving stops. */
export interface ToolProps {
  'data-tool': Tool;
  tabIndex: number;
}
const TOOLBAR_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

/**
 * One tab stop (a roving tabindex, as ARIA's toolbar pattern has it): ←/→, Home and End move between its
 * enabled buttons, so Tab still gets from the title to the analyses in a few presses.
 */
export function EditToolbar({ onFind }: { onFind: (mode: FindMode) => void }) {
  const t = useT();
  const history = useTranscriptStore(selectHistory);
  const undo = useTranscriptStore((state) => state.undo);
  const redo = useTranscriptStore((state) => state.redo);
  const segments = useTranscriptStore(selectSegments);
  const summary = useTranscriptStore((state) => state.detail?.summary ?? null);
  const revisioned = useTranscriptStore((state) => state.detail?.document?.revision !== undefined);
  const ordinals = useMemo(
    () => new Map(uncertainWords(segments).map((u, i) => [`${u.segmentIndex}:${u.wordIndex}`, i + 1])),
    [segments],
  );
  const [error, setError] = useState<string | null>(null);
  const errorText = useErrorText();
  const [current, setCurrent] = useState<Tool>('find');
  const enabled: Record<Tool, boolean> = {
    undo: history.undo > 0,
    redo: history.redo > 0,
    find: true,
    uncertain: ordinals.size > 0,
    again: summary?.status === 'COMPLETED',
    history: revisioned,
  };
  const stop: Tool = enabled[current] ? current : 'find';
  const tool = (name: Tool): ToolProps => ({ 'data-tool': name, tabIndex: name === stop ? 0 : -1 });
  const run = async (action: () => Promise<IpcError | null>) => {
    const failure = await action();
    setError(failure ? errorText(failure) : null);
  };
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (!TOOLBAR_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-tool]:not(:disabled)')];
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? buttons.length - 1
          : (at + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length;
    event.preventDefault(); // not the transport's ←/→
    buttons[next]!.focus();
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const name = (event.target as HTMLElement).dataset.tool as Tool | undefined;
    if (name) setCurrent(name);
  };
  return (
    <div className="edit-toolbar" role="toolbar" aria-label={t('edit.toolbar')} onKeyDown={onKeyDown} onFocus={onFocus}>
      <button
        type="button"
        className="button-quiet"
        {...tool('undo')}
        onClick={() => void run(undo)}
        disabled={!enabled.undo}
        aria-keyshortcuts="Control+Z Meta+Z"
      >
        ↶ {t('edit.undo')}
      </button>
      <button
        type="button"
        className="button-quiet"
        {...tool('redo')}
        onClick={() => void run(redo)}
        disabled={!enabled.redo}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
      >
        ↷ {t('edit.redo')}
      </button>
      <button
        type="button"
        className="button-quiet"
        {...tool('find')}
        onClick={() => onFind('replace')}
        aria-keyshortcuts="Control+H Meta+H"
      >
        {t('edit.findReplace')}
      </button>
      <UncertainWords ordinals={ordinals} segments={segments} tabIndex={tool('uncertain').tabIndex} />
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      {/* The transcript's own actions, where the eye looks for tools (at the page's foot they went unseen). */}
      {(enabled.again || enabled.history) && (
        <span className="toolbar-end">
          {summary && enabled.again && <TranscribeAgainButton summary={summary} tool={tool('again')} />}
          {enabled.history && <HistoryMenu tool={tool('history')} />}
        </span>
      )}
    </div>
  );
}

/** "Next uncertain word", and where playback is among the uncertain words (or that there are none). */
function UncertainWords({
  ordinals,
  segments,
  tabIndex,
}: {
  /** Each uncertain word's place ("segment:word") in reading order, from 1. */
  ordinals: ReadonlyMap<string, number>;
  segments: TranscriptSegment[];
  tabIndex: number;
}) {
  const t = useT();
  const id = useId();
  // A number, so the toolbar re-renders only when the word being played changes.
  const at = usePlayerStore((state) => ordinals.get(locateTime(segments, state.currentTime).join(':')) ?? 0);
  const count = ordinals.size;
  return (
    <>
      <button
        type="button"
        className="button-quiet"
        data-tool="uncertain"
        tabIndex={tabIndex}
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
