// @vitest-environment happy-dom
// A finished transcription offers "Transcribe again…" in its view: the same dialog as a failed row's,
// prefilled, which asks main to transcribe it again (in place on a server that can, decision 0062).
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RerunPlan, TranscriptDetail, UploadOptions } from '../../../../src-shared/ipc-contract';
import { TranscriptView } from '../../../../src-renderer/features/transcript/transcript-view';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, transcriptDetail, type FakeApi, type FakeHandlers } from '../fake-api';

const ORIGINAL: UploadOptions = {
  language: 'en',
  model: 'diarization-high',
  numSpeakers: 2,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};
const words = ['budget', 'meeting'].map((word, i) => ({ word, start: i, end: i + 0.8, confidence: 0.9 }));
const completed = transcriptDetail([{ id: 0, start: 0, end: 2, speaker: null, text: 'budget meeting', words }]);

let fake: FakeApi;
function show(detail: TranscriptDetail, extra: FakeHandlers = {}) {
  fake = installFakeApi({
    'transcripts:get': () => detail,
    'transcripts:rerun-plan': (): RerunPlan => ({ options: ORIGINAL, optionsKnown: true, audioCached: false }),
    'transcripts:rerun': () => null,
    'dictionaries:list': () => [],
    'languages:serving': () => null,
    ...extra,
  });
  render(<TranscriptView id={detail.summary.id} />);
}
const callsOf = (channel: string) => fake.calls.filter((c) => c.channel === channel).map((c) => c.request);

beforeEach(() => {
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set(), reruns: {} }, true);
});
afterEach(cleanup);

describe('transcribing a finished transcription again', () => {
  it('opens the rerun dialog from the view and transcribes it again in place with the changed options', async () => {
    show(completed);
    fireEvent.click(await screen.findByRole('button', { name: 'Transcribe again…' }));
    const dialog = await screen.findByTestId('rerun-dialog');
    await within(dialog).findByText(/The current transcript stays in History/);
    // In place: no file to choose even though the recording is not on this computer.
    expect(within(dialog).getByTestId('rerun-submit').textContent).toBe('Transcribe again');
    const exact = within(dialog).getByTestId<HTMLInputElement>('rerun-num-speakers-input');
    fireEvent.change(exact, { target: { value: '3' } });
    fireEvent.click(within(dialog).getByTestId('rerun-submit'));
    await screen.findByRole('button', { name: 'Transcribe again…' });
    expect(screen.queryByTestId('rerun-dialog')).toBeNull();
    expect(callsOf('transcripts:rerun')).toEqual([
      { id: completed.summary.id, options: { ...ORIGINAL, numSpeakers: 3 } },
    ]);
    expect(callsOf('uploads:pick')).toEqual([]);
  });

  it('asks for the file only when main says the server cannot run it in place', async () => {
    const message =
      'The recording of “t1.wav” is not on this computer (it was uploaded from another computer, or removed from this one). Choose the file to transcribe it again.';
    show(completed, {
      'transcripts:rerun': () => ({
        ok: false,
        error: { code: 'not-found', field: 'audio', reason: 'app.rerun-needs-file', params: { name: 't1.wav' } },
      }),
      'uploads:pick': () => [],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Transcribe again…' }));
    const dialog = await screen.findByTestId('rerun-dialog');
    fireEvent.click(await within(dialog).findByTestId('rerun-submit'));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(callsOf('uploads:pick')).toEqual([]);
    const submit = within(dialog).getByTestId('rerun-submit');
    expect(submit.textContent).toBe('Choose the file and transcribe');
    fireEvent.click(submit);
    await waitFor(() => expect(callsOf('uploads:pick')).toHaveLength(1));
  });

  it('is not offered while the transcription is still running', async () => {
    show({ ...completed, summary: summary(completed.summary.id, { status: 'IN_PROGRESS' }), document: null });
    await screen.findByTestId('running-panel');
    expect(screen.queryByRole('button', { name: 'Transcribe again…' })).toBeNull();
  });
});
