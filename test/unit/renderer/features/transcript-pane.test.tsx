// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, type FakeApi } from '../fake-api';

const word = (w: string, start: number, end: number, confidence = 0.95) => ({ word: w, start, end, confidence });
const detail = (speakerNames: Record<string, string> = {}, text = 'hello world'): TranscriptDetail => ({
  summary: summary('t1'),
  speakerNames,
  unsyncedEdits: false,
  conflict: null,
  document: {
    transcription_id: 't1',
    text,
    language: 'en',
    duration: 10,
    speaking_duration: 6,
    segments: [
      { id: 0, start: 0, end: 2, speaker: 'SPEAKER_1', text, words: [word('hello', 0, 0.9), word('world', 1, 2, 0.3)] },
      {
        id: 1,
        start: 4,
        end: 6,
        speaker: 'SPEAKER_2',
        text: 'good morning',
        words: [word('good', 4, 5), word('morning', 5, 6)],
      },
    ],
    replacements: [],
    engine: { name: 'test', model: 'test', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00Z',
  },
});

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({
    'transcripts:edit': ({ segments }) => detail({}, segments[0]!.text),
    'transcripts:rename-speaker': ({ speaker, name }) => detail({ [speaker]: name }),
  });
  useTranscriptStore.setState({ id: 't1', detail: detail(), loading: false, error: null });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
});
afterEach(cleanup);

describe('TranscriptPane', () => {
  it('seeks to a word when it is clicked, and highlights the word being played', () => {
    const seek = vi.fn();
    usePlayerStore.getState().attach({ play: vi.fn(), pause: vi.fn(), seek, setRate: vi.fn() });
    render(<TranscriptPane />);
    fireEvent.click(screen.getByText('morning'));
    expect(seek).toHaveBeenCalledWith(5);
    act(() => usePlayerStore.getState().reportTime(1.5));
    expect(screen.getByText('world').className).toContain('word-active');
    expect(screen.getByText('hello').className).not.toContain('word-active');
  });

  it('marks low-confidence words subtly', () => {
    render(<TranscriptPane />);
    expect(screen.getByText('world').className).toContain('word-low');
    expect(screen.getByText('hello').className).not.toContain('word-low');
    expect(screen.getByText(/more likely wrong than right/)).toBeTruthy();
  });

  it('saves an edited segment through transcripts:edit', async () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit segment at 0:00' }));
    const box = screen.getByRole('textbox', { name: 'Text of the segment at 0:00' });
    fireEvent.change(box, { target: { value: 'hello there world' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'transcripts:edit',
      request: { id: 't1', segments: [{ id: 0, text: 'hello there world' }] },
    });
    expect(useTranscriptStore.getState().detail?.document?.segments[0]?.text).toBe('hello there world');
  });

  it('renames a speaker', async () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename Speaker 1' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for Speaker 1' }), { target: { value: 'Aiko' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await screen.findByRole('button', { name: 'Rename Aiko' });
    // The label goes to main, never the name on screen: names are looked up, not written over labels.
    expect(fake.calls.at(-1)).toEqual({
      channel: 'transcripts:rename-speaker',
      request: { id: 't1', speaker: 'SPEAKER_1', name: 'Aiko' },
    });
  });

  it('selects the old name when renaming starts, so typing replaces it', () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename Speaker 1' }));
    const box = screen.getByRole<HTMLInputElement>('textbox', { name: 'New name for Speaker 1' });
    expect(document.activeElement).toBe(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 'Speaker 1'.length]);
  });

  it('marks a word a dictionary replaced, with what was heard', () => {
    const replaced = detail();
    replaced.document!.segments[1]!.words[0] = {
      word: 'Good',
      start: 4,
      end: 5,
      confidence: 0.95,
      replaced: { pattern: 'good', original: 'good' },
    };
    useTranscriptStore.setState({ detail: replaced });
    render(<TranscriptPane />);
    const word = screen.getByText('Good');
    expect(word.className).toContain('word-replaced');
    expect(word.title).toBe('Replaced by the dictionary: heard “good”');
    expect(screen.getByText('morning').className).not.toContain('word-replaced');
    // The note above the transcript says what the marking is, after the one about dotted underlines.
    expect(screen.getByTestId('transcript-legend').textContent).toBe(
      'Words with a dotted underline are more likely wrong than right. Words on a blue background were written by a dictionary: point at one to see what was heard, or right-click it to put that back.',
    );
  });

  it('says nothing about dictionary words when none was replaced', () => {
    render(<TranscriptPane />);
    expect(screen.getByTestId('transcript-legend').textContent).toBe(
      'Words with a dotted underline are more likely wrong than right.',
    );
  });
});
