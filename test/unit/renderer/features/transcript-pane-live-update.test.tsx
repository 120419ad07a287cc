// @vitest-environment happy-dom
// A teammate's revision arriving ('transcripts:changed', decision 0056) while the user types in a segment's
// editor: the other segments update, and the editor keeps the user's text, caret and selection.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { TranscriptDetail } from '../../../../src-shared/ipc-contract';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, transcriptDetail, type FakeApi } from '../fake-api';

const seg = (id: number, start: number, words: string[]): TranscriptSegment => ({
  id,
  start,
  end: start + words.length,
  speaker: 'SPEAKER_1',
  text: words.join(' '),
  words: words.map((word, i) => ({ word, start: start + i, end: start + i + 1, confidence: 0.95 })),
});
const detail = (segments: TranscriptSegment[]): TranscriptDetail =>
  transcriptDetail(segments, { language: 'en', duration: 10, speaking_duration: 6 });

let fake: FakeApi;
let served: TranscriptDetail;
let stop: () => void;
beforeEach(() => {
  served = detail([seg(0, 0, ['hello', 'world']), seg(1, 3, ['good', 'morning'])]);
  fake = installFakeApi({ 'transcripts:get': () => served });
  useTranscriptStore.setState({ id: 't1', detail: served, loading: false, error: null });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  stop = useTranscriptStore.getState().init();
});
afterEach(() => {
  stop();
  cleanup();
});

it("keeps what the user types, with the caret and selection, while a teammate's revision arrives", async () => {
  render(<TranscriptPane />);
  fireEvent.click(screen.getByRole('button', { name: 'Edit segment at 0:00' }));
  const editor = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Text of the segment at 0:00' });
  fireEvent.change(editor, { target: { value: 'hello my world' } });
  editor.focus();
  editor.setSelectionRange(6, 8);

  served = detail([seg(0, 0, ['hello', 'world']), seg(1, 3, ['good', 'evening'])]);
  await act(async () => fake.emit('transcripts:changed', { ids: ['t1'] }));

  expect(await screen.findByText('evening')).toBeTruthy();
  const after = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Text of the segment at 0:00' });
  expect(after).toBe(editor);
  expect(document.activeElement).toBe(editor);
  expect([editor.value, editor.selectionStart, editor.selectionEnd]).toEqual(['hello my world', 6, 8]);
});
