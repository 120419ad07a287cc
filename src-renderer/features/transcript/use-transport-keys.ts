// Keyboard transport while a transcript is open: Space plays/pauses, ←/→ skip 5 s, [ and ] change speed.
// Keys typed into fields, and Space on buttons (which activates them), are left alone.
import { useEffect } from 'react';
import { PLAYBACK_RATES, SKIP_SECONDS, usePlayerStore } from '../../stores/player-store';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function nextRate(rate: number, direction: 1 | -1): number {
  const index = PLAYBACK_RATES.findIndex((candidate) => candidate >= rate);
  const current = index < 0 ? PLAYBACK_RATES.length - 1 : index;
  return PLAYBACK_RATES[Math.min(PLAYBACK_RATES.length - 1, Math.max(0, current + direction))]!;
}

export function useTransportKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const player = usePlayerStore.getState();
      const onButton = event.target instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(event.target.tagName);
      switch (event.key) {
        case ' ':
          if (onButton) return;
          player.togglePlay();
          break;
        case 'ArrowLeft':
          player.skip(-SKIP_SECONDS);
          break;
        case 'ArrowRight':
          player.skip(SKIP_SECONDS);
          break;
        case '[':
          player.setRate(nextRate(player.rate, -1));
          break;
        case ']':
          player.setRate(nextRate(player.rate, 1));
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
