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
  const focusNow = () => {
    const word = document.querySelector<HTMLElement>(
      `[data-segment-index="${next.segmentIndex}"] [data-word-index="${next.wordIndex}"]`,
    );
    word?.focus({ preventScroll: true });
    return word !== null;
  };
  // At once when the word is on the page: a frame later, an Enter pressed right after U edited the word
  // that still had the focus, and the late focus then closed that editor (uncertain-words.spec under load).
  const focus = (frames: number) => requestAnimationFrame(() => focusNow() || (frames > 0 && focus(frames - 1)));
  if (!focusNow()) focus(FOCUS_FRAMES);
  return next;
}
