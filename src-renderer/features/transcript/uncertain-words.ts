// "Next uncertain word" (decision 0086): the toolbar's button and the U key both come here. Playback
// moves to the next word more likely wrong than right after the current position (after the last, back to
// the first), and the word takes the focus, so Enter edits it at once.
import { nextUncertainWord, type UncertainWord } from '../../../src-shared/word-confidence';
import { usePlayerStore } from '../../stores/player-store';
import { selectSegments, useTranscriptStore } from '../../stores/transcript-store';

/** Frames to wait for the word to be rendered (a long transcript renders in slices). */
const FOCUS_FRAMES = 30;

export function goToNextUncertainWord(): UncertainWord | null {
  const player = usePlayerStore.getState();
  const next = nextUncertainWord(selectSegments(useTranscriptStore.getState()), player.currentTime);
  if (!next) return null;
  player.seek(next.start);
  const focus = (frames: number) =>
    requestAnimationFrame(() => {
      const word = document.querySelector<HTMLElement>(
        `[data-segment-index="${next.segmentIndex}"] [data-word-index="${next.wordIndex}"]`,
      );
      if (word) word.focus({ preventScroll: true });
      else if (frames > 0) focus(frames - 1);
    });
  focus(FOCUS_FRAMES);
  return next;
}
