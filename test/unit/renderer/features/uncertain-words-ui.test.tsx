// @vitest-environment happy-dom
// Decision 0086: only words more likely wrong than right are underlined, and "Next uncertain word" (the
// toolbar's button and U) visits them in order from the playback position, then from the first again.
// The toolbar stays one tab stop.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { EditToolbar } from '../../../../src-renderer/features/transcript/edit-toolbar';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { useTransportKeys } from '../../../../src-renderer/features/transcript/use-transport-keys';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, transcriptDetail } from '../fake-api';

const word = (text: string, start: number, confidence: number | null) => ({
  word: text,
  start,
  end: start + 0.4,
  confidence,
});
const segments = (confidences: Array<number | null>) => [
  {
    id: 0,
    start: 0,
    end: 2,
    speaker: 'A',
    text: 'send the report',
    words: [word('send', 0, 0.95), word('the', 0.5, confidences[0]!), word('report', 1, confidences[1]!)],
  },
  {
    id: 1,
    start: 4,
    end: 6,
    speaker: 'A',
    text: 'to germanic today',
    words: [word('to', 4, 0.9), word('germanic', 4.5, confidences[2]!), word('today', 5, 0.99)],
  },
];
const open = (confidences: Array<number | null>): TranscriptDetail =>
  transcriptDetail(segments(confidences), { duration: 10, speaking_duration: 6 });

function View() {
  useTransportKeys();
  return (
    <>
      <EditToolbar onFind={() => {}} />
      <TranscriptPane />
    </>
  );
}

beforeEach(() => {
  installFakeApi({});
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  const seek = vi.fn((seconds: number) => usePlayerStore.getState().reportTime(seconds));
  usePlayerStore.getState().attach({ play: vi.fn(), pause: vi.fn(), seek, setRate: vi.fn() });
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

const frame = () => act(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
const status = () => screen.getByTestId('uncertain-status').textContent;
const time = () => usePlayerStore.getState().currentTime;

describe('uncertain words', () => {
  it('are the words below one half: a 0.7 is no longer underlined', () => {
    useTranscriptStore.setState({ id: 't1', detail: open([0.7, 0.3, 0.1]), loading: false, error: null });
    render(<View />);
    expect(screen.getByText('report').className).toContain('word-low');
    expect(screen.getByText('germanic').className).toContain('word-low');
    expect(screen.getByText('the').className).not.toContain('word-low');
    expect(screen.getByText('send').className).not.toContain('word-low');
    expect(screen.getByText('Words with a dotted underline are more likely wrong than right.')).toBeTruthy();
    expect(status()).toBe('2 uncertain');
  });

  it('are visited in order with U and the button, from the playback position, then from the first again', async () => {
    useTranscriptStore.setState({ id: 't1', detail: open([0.7, 0.3, 0.1]), loading: false, error: null });
    render(<View />);
    act(() => usePlayerStore.getState().reportTime(0.2));
    fireEvent.keyDown(document.body, { key: 'u' });
    expect(time()).toBe(1);
    expect(status()).toBe('1 of 2 uncertain');
    await frame();
    expect(document.activeElement).toBe(screen.getByText('report'));

    fireEvent.keyDown(document.activeElement!, { key: 'u' });
    expect(time()).toBe(4.5);
    expect(status()).toBe('2 of 2 uncertain');
    await frame();
    expect(document.activeElement).toBe(screen.getByText('germanic'));

    fireEvent.click(screen.getByRole('button', { name: 'Next uncertain word' }));
    expect(time()).toBe(1);
    expect(status()).toBe('1 of 2 uncertain');
  });

  it('take the focus at once, so an Enter pressed right after U edits the word U went to', () => {
    useTranscriptStore.setState({ id: 't1', detail: open([0.7, 0.3, 0.1]), loading: false, error: null });
    render(<View />);
    act(() => usePlayerStore.getState().reportTime(0.2));
    fireEvent.keyDown(document.body, { key: 'u' });
    // No frame awaited: the word on the page is focused by the key press itself.
    expect(document.activeElement).toBe(screen.getByText('report'));
    fireEvent.keyDown(document.activeElement!, { key: 'u' });
    expect(document.activeElement).toBe(screen.getByText('germanic'));
  });

  it('leave the toolbar one tab stop: ←/→ move between its buttons, not playback', () => {
    const detail = open([0.7, 0.3, 0.1]);
    detail.document!.revision = 2;
    useTranscriptStore.setState({ id: 't1', detail, loading: false, error: null });
    render(<View />);
    const toolbar = screen.getByRole('toolbar');
    const find = screen.getByRole('button', { name: 'Find & replace' });
    const next = screen.getByRole('button', { name: 'Next uncertain word' });
    // Transcribe again… and History… are in the toolbar, where tools are looked for, and among its stops.
    const again = within(toolbar).getByRole('button', { name: 'Transcribe again…' });
    const history = within(toolbar).getByRole('button', { name: 'History…' });
    // Undo and Redo are disabled: Find & replace is the one stop.
    expect([...toolbar.querySelectorAll('button')].filter((b) => b.tabIndex === 0)).toEqual([find]);
    act(() => find.focus());
    fireEvent.keyDown(find, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(next);
    expect(time()).toBe(0);
    expect([...toolbar.querySelectorAll('button')].filter((b) => b.tabIndex === 0)).toEqual([next]);
    fireEvent.keyDown(next, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(again);
    fireEvent.keyDown(again, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(history);
    expect([...toolbar.querySelectorAll('button')].filter((b) => b.tabIndex === 0)).toEqual([history]);
    fireEvent.keyDown(history, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(find);
    fireEvent.keyDown(find, { key: 'End' });
    expect(document.activeElement).toBe(history);
  });

  it('say when there are none', () => {
    useTranscriptStore.setState({ id: 't1', detail: open([0.7, null, 0.5]), loading: false, error: null });
    render(<View />);
    expect(status()).toBe('No uncertain words');
    expect(screen.getByRole('button', { name: 'Next uncertain word' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(document.body, { key: 'u' });
    expect(time()).toBe(0);
  });
});
