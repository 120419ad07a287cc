// @vitest-environment happy-dom
// Reading and moving around a transcript: one tab stop with ↑/↓ between segments, following playback
// until the user scrolls, speaker-turn keys and the shortcut sheet.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { ShortcutSheet } from '../../../../src-renderer/features/transcript/shortcut-sheet';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { useTransportKeys } from '../../../../src-renderer/features/transcript/use-transport-keys';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, transcriptDetail } from '../fake-api';

const segment = (id: number, start: number, speaker: string, text: string) => ({
  id,
  start,
  end: start + 3,
  speaker,
  text,
  words: text
    .split(' ')
    .map((word, i) => ({ word, start: start + i * 0.5, end: start + i * 0.5 + 0.4, confidence: 0.95 })),
});
const detail: TranscriptDetail = transcriptDetail(
  [
    segment(0, 0, 'A', 'good morning all'),
    segment(1, 4, 'A', 'the agenda first'),
    segment(2, 9, 'B', 'thanks for coming'),
    segment(3, 20, 'A', 'next item'),
  ],
  { duration: 40, speaking_duration: 20 },
);

let seek: Mock<(seconds: number) => void>;
let scrolled: Mock<(arg?: boolean | ScrollIntoViewOptions) => void>;
beforeEach(() => {
  installFakeApi({});
  useTranscriptStore.setState({ id: 't1', detail, loading: false, error: null });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  seek = vi.fn<(seconds: number) => void>((seconds) => usePlayerStore.getState().reportTime(seconds));
  usePlayerStore.getState().attach({ play: vi.fn(), pause: vi.fn(), seek, setRate: vi.fn() });
  // happy-dom has no layout: scrolling into view is a no-op we can count.
  scrolled = vi.fn<(arg?: boolean | ScrollIntoViewOptions) => void>();
  Element.prototype.scrollIntoView = scrolled;
});
afterEach(cleanup);

const timestamps = () => screen.getAllByRole('button', { name: /^Play from / });

describe('transcript navigation', () => {
  it('is one tab stop, and ↑/↓ move between segments', () => {
    render(<TranscriptPane />);
    expect(timestamps().map((b) => b.tabIndex)).toEqual([0, -1, -1, -1]);
    timestamps()[0]!.focus();
    fireEvent.keyDown(timestamps()[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(timestamps()[1]);
    expect(timestamps().map((b) => b.tabIndex)).toEqual([-1, 0, -1, -1]);
    fireEvent.keyDown(timestamps()[1]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(timestamps()[0]);
    // The edit buttons of other segments are out of the tab order too.
    expect(screen.getAllByRole('button', { name: /^Edit segment/ }).map((b) => b.tabIndex)).toEqual([0, -1, -1, -1]);
  });

  /** happy-dom has no layout: the scroller's content is `content` px high in a 400 px box. */
  const scrollerOf = (content: number) => {
    const scroller = screen.getByTestId('scroller');
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 400 });
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: content });
    return scroller;
  };

  it('follows playback until the user scrolls, and resumes on request', () => {
    render(
      <div style={{ overflowY: 'auto' }} data-testid="scroller">
        <TranscriptPane />
      </div>,
    );
    scrollerOf(1200);
    act(() => {
      usePlayerStore.getState().reportPlaying(true);
      usePlayerStore.getState().reportTime(9.2);
    });
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Follow playback' })).toBeNull();

    fireEvent.wheel(screen.getByTestId('scroller'));
    act(() => usePlayerStore.getState().reportTime(20.5));
    expect(scrolled).toHaveBeenCalledTimes(1); // did not follow to segment 3

    fireEvent.click(screen.getByRole('button', { name: 'Follow playback' }));
    expect(scrolled).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('button', { name: 'Follow playback' })).toBeNull();
  });

  it('offers no "Follow playback" when the transcript fits and there is nothing to scroll', () => {
    render(
      <div style={{ overflowY: 'auto' }} data-testid="scroller">
        <TranscriptPane />
      </div>,
    );
    const scroller = scrollerOf(400);
    act(() => {
      usePlayerStore.getState().reportPlaying(true);
      usePlayerStore.getState().reportTime(9.2);
    });
    fireEvent.wheel(scroller);
    fireEvent.keyDown(scroller, { key: 'PageDown' });
    expect(screen.queryByRole('button', { name: 'Follow playback' })).toBeNull();
    act(() => usePlayerStore.getState().reportTime(20.5));
    expect(scrolled).toHaveBeenCalledTimes(2); // still following, to segment 3
  });

  it('takes "Follow playback" away and follows again when the window grows until the transcript fits', () => {
    // happy-dom never lays out, so never resizes: the browser's size changes are played through here.
    const observers: Array<{ callback: ResizeObserverCallback; targets: Element[] }> = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        private readonly entry: { callback: ResizeObserverCallback; targets: Element[] };
        constructor(callback: ResizeObserverCallback) {
          this.entry = { callback, targets: [] };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.targets.push(target);
        }
        unobserve() {}
        disconnect() {
          this.entry.targets = [];
        }
      },
    );
    try {
      render(
        <div style={{ overflowY: 'auto' }} data-testid="scroller">
          <TranscriptPane />
        </div>,
      );
      const scroller = scrollerOf(1200);
      act(() => {
        usePlayerStore.getState().reportPlaying(true);
        usePlayerStore.getState().reportTime(1);
      });
      fireEvent.wheel(scroller);
      expect(screen.getByRole('button', { name: 'Follow playback' })).toBeTruthy();

      // The window grows: the box is now taller than the transcript.
      Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 1400 });
      act(() =>
        observers
          .filter(({ targets }) => targets.includes(scroller))
          .forEach(({ callback }) => callback([], {} as ResizeObserver)),
      );
      expect(screen.queryByRole('button', { name: 'Follow playback' })).toBeNull();
      const before = scrolled.mock.calls.length;
      act(() => usePlayerStore.getState().reportTime(20.5));
      expect(scrolled.mock.calls.length).toBe(before + 1); // following again, to segment 3
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('jumps between speaker turns with Shift+←/→, and ? opens the shortcut sheet', () => {
    function Harness() {
      const [open, setOpen] = useState(false);
      useTransportKeys(() => setOpen(true));
      return open ? <ShortcutSheet onClose={() => setOpen(false)} /> : null;
    }
    render(<Harness />);
    act(() => usePlayerStore.getState().reportTime(1));
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    expect(seek).toHaveBeenLastCalledWith(9);
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    expect(seek).toHaveBeenLastCalledWith(20);
    fireEvent.keyDown(window, { key: 'ArrowLeft', shiftKey: true });
    expect(seek).toHaveBeenLastCalledWith(9);

    fireEvent.keyDown(window, { key: '?' });
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(sheet.textContent).toContain('Previous or next speaker turn');
    fireEvent.keyDown(sheet, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
