// @vitest-environment happy-dom
// "This is…" from a speaker's lane name closes as the other popovers do: a press outside it, or Escape.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TimelineLanes } from '../../../../src-renderer/features/transcript/timeline-lanes';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { installFakeApi, transcriptDetail } from '../fake-api';

const seg = (id: number, start: number, speaker: string): TranscriptSegment => ({
  id,
  start,
  end: start + 2,
  speaker,
  text: 'hello',
  words: [],
});

beforeEach(() => {
  installFakeApi({ 'voices:list': () => ({ voices: [], offline: false, listedAt: null }) });
  useTranscriptStore.setState({
    id: 't1',
    detail: transcriptDetail([seg(0, 0, 'SPEAKER_1'), seg(1, 3, 'SPEAKER_2')], { duration: 10 }),
    loading: false,
    error: null,
  });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
});
afterEach(cleanup);

describe('"This is…" on a lane', () => {
  it('closes on a press outside it and on Escape, giving focus back to the name', () => {
    render(
      <>
        <button type="button" role="tab">
          Summary
        </button>
        <TimelineLanes />
      </>,
    );
    const name = screen.getByRole('button', { name: 'Speaker 2: this is…' });
    fireEvent.click(name);
    const form = () => screen.queryByTestId('this-is-form');
    expect(form()).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('combobox'));
    expect(form()).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('tab', { name: 'Summary' }));
    expect(form()).toBeNull();

    fireEvent.click(name);
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Escape' });
    expect(form()).toBeNull();
    expect(document.activeElement).toBe(name);
  });
});
