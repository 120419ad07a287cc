// Tells main which transcript the window shows while it is visible, and whether the user is typing in one of
// its editors (a segment, a word, a speaker's name): main then checks that transcript for a teammate's newer
// revision every few seconds and says 'transcripts:changed' when one is shown (decision 0056). While an
// editor is open main holds the new revision back, so what the user types is saved on the revision they
// read, and a teammate's change of the same segment is a conflict the server finds, not an overwrite.
import { useTranscriptStore } from '../stores/transcript-store';
import { api } from './api';

/** Whether focus is in an editor of the open transcript: a field, or a segment editor's buttons (Save). */
function typingInTranscript(): boolean {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !focused.closest('.transcript-pane')) return false;
  return focused.matches('input, textarea') || focused.closest('.segment-editor, .speaker-form') !== null;
}

/** Starts reporting; returns the stop. */
export function followOpenTranscript(): () => void {
  let reported = '';
  const report = () => {
    // Once its detail is loaded, main has the transcription (a follow of one it has not is refused).
    const { id, detail } = useTranscriptStore.getState();
    const shown = document.visibilityState === 'visible' && detail ? id : null;
    const request = { id: shown, editing: shown !== null && typingInTranscript() };
    const key = JSON.stringify(request);
    if (key === reported) return;
    reported = key;
    // Failing to follow only means the transcript updates on its next read, as before; the next report retries.
    void api()
      .transcripts.follow(request)
      .then(
        (result) => !result.ok && reported === key && (reported = ''),
        () => reported === key && (reported = ''),
      );
  };
  // Focus moves between two elements as focusout then focusin: report once it has landed.
  const soon = () => queueMicrotask(report);
  const offStore = useTranscriptStore.subscribe(report);
  document.addEventListener('visibilitychange', report);
  document.addEventListener('focusin', soon);
  document.addEventListener('focusout', soon);
  report();
  return () => {
    offStore();
    document.removeEventListener('visibilitychange', report);
    document.removeEventListener('focusin', soon);
    document.removeEventListener('focusout', soon);
    void api()
      .transcripts.follow({ id: null, editing: false })
      .catch(() => {});
  };
}
