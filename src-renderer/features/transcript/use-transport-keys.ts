// Keyboard transport while a transcript is open: Space plays/pauses, ←/→ skip 5 s, Shift+←/→ jump to
// the previous/next speaker turn, [ and ] change speed, U goes to the next uncertain word, ? opens the
// shortcut sheet.
// Keys typed into fields, and Space on buttons (which activates them), are left alone.
import { useEffect, useRef } from 'react';
import { PLAYBACK_RATES, SKIP_SECONDS, usePlayerStore } from '../../stores/player-store';
import { selectSegments, useTranscriptStore } from '../../stores/transcript-store';
import { nextTurn, previousTurn, turnStarts } from './speaker-turns';
import { goToNextUncertainWord } from './uncertain-words';

/** What the shortcut sheet lists, in order: the keys and the message key of what they do. */
export const SHORTCUTS = [
  { keys: ['Space'], action: 'shortcuts.playPause' },
  { keys: ['←', '→'], action: 'shortcuts.skip' },
  { keys: ['Shift', '←', '→'], action: 'shortcuts.turns' },
  { keys: ['[', ']'], action: 'shortcuts.speed' },
  { keys: ['↑', '↓'], action: 'shortcuts.segments' },
  { keys: ['Enter'], action: 'shortcuts.activate' },
  { keys: ['?'], action: 'shortcuts.sheet' },
] as const;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function nextRate(rate: number, direction: 1 | -1): number {
  const index = PLAYBACK_RATES.findIndex((candidate) => candidate >= rate);
  const current = index < 0 ? PLAYBACK_RATES.length - 1 : index;
  return PLAYBACK_RATES[Math.min(PLAYBACK_RATES.length - 1, Math.max(0, current + direction))]!;
}

export function useTransportKeys(onHelp?: () => void): void {
  const help = useRef(onHelp);
  help.current = onHelp;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const player = usePlayerStore.getState();
      const onButton = event.target instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(event.target.tagName);
      const turn = (direction: 1 | -1) => {
        const starts = turnStarts(selectSegments(useTranscriptStore.getState()));
        const target = direction > 0 ? nextTurn(starts, player.currentTime) : previousTurn(starts, player.currentTime);
        if (target !== null) player.seek(target);
      };
      switch (event.key) {
        case ' ':
          if (onButton) return;
          player.togglePlay();
          break;
        case 'ArrowLeft':
          if (event.shiftKey) turn(-1);
          else player.skip(-SKIP_SECONDS);
          break;
        case 'ArrowRight':
          if (event.shiftKey) turn(1);
          else player.skip(SKIP_SECONDS);
          break;
        case '?':
          if (!help.current) return;
          help.current();
          break;
        case '[':
          player.setRate(nextRate(player.rate, -1));
          break;
        case ']':
          player.setRate(nextRate(player.rate, 1));
          break;
        case 'u':
        case 'U':
          goToNextUncertainWord();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
