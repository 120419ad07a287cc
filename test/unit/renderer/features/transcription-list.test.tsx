// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LibraryToolbar } from '../../../../src-renderer/features/library/library-toolbar';
import { TranscriptionList } from '../../../../src-renderer/features/library/transcription-list';
import { SearchResults } from '../../../../src-renderer/features/library/search-results';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { installFakeApi, setUiLanguage, summary } from '../fake-api';

beforeEach(() => {
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set() }, true);
  useNavigationStore.setState({ route: { name: 'library' } });
  installFakeApi({
    'transcripts:list': ({ offset = 0, limit = 50 }) => ({
      items: Array.from({ length: Math.min(limit, 10_000 - offset) }, (_, i) =>
        summary(`t${offset + i}`, offset + i === 1 ? { status: 'IN_PROGRESS', progress: 0.4, audioCached: false } : {}),
      ),
      total: 10_000,
    }),
  });
});
afterEach(() => {
  cleanup();
  setUiLanguage('en');
});

describe('TranscriptionList', () => {
  it('renders only the rows on screen for 10,000 transcriptions, each labelled and openable', async () => {
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    const rows = screen.getAllByTestId('transcription-row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(
      screen.getByRole('list', { name: 'Transcriptions' }).querySelectorAll('li')[0]!.getAttribute('aria-setsize'),
    ).toBe('10000');
    expect(screen.getByRole('button', { name: 'Open t1.wav' }).dataset.status).toBe('IN_PROGRESS');
    // A running row says how far it is, in numbers as well as the bar (a server without stages: the status).
    expect(screen.getByRole('button', { name: 'Open t1.wav' }).textContent).toContain('Transcribing · 40%');
    expect(screen.getAllByText('Available offline').length).toBeGreaterThan(0);

    fireEvent.click(screen.getByRole('button', { name: 'Open t0.wav' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'transcript', id: 't0' });
  });

  it('says the stage of a running row, and the time left once the measured speed tells', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    let progress = 0.3;
    installFakeApi({
      'transcripts:list': () => ({
        items: [
          summary('a', {
            status: 'IN_PROGRESS',
            progress,
            stage: 'recognizing',
            processingStartedAt: new Date(start - 60_000).toISOString(),
          }),
          summary('b', {
            status: 'CONVERTING',
            progress: 0.02,
            stage: 'converting',
            processingStartedAt: new Date(start - 2_000).toISOString(),
          }),
        ],
        total: 2,
      }),
    });
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    const a = screen.getByRole('button', { name: 'Open a.wav' });
    expect(a.querySelector('.status')!.textContent).toBe('Recognizing speech · 30%');
    // One look is no speed yet.
    expect(a.querySelector('.progress-eta')).toBeNull();
    // 10% in 20 s: the other 60% takes two minutes.
    vi.setSystemTime(start + 20_000);
    progress = 0.4;
    await act(() => useLibraryStore.getState().reload());
    expect(a.querySelector('.status')!.textContent).toBe('Recognizing speech · 40%');
    expect(a.querySelector('.progress-eta')!.textContent).toBe('about 2 min left');
    vi.useRealTimers();
    expect(screen.getByRole('progressbar', { name: 'Progress of a.wav' })).toBeTruthy();
    const b = screen.getByRole('button', { name: 'Open b.wav' });
    expect(b.querySelector('.status')!.textContent).toBe('Converting audio · 2%');
    expect(b.querySelector('.progress-eta')).toBeNull();
  });

  it('says a row started on the server but not picked up yet is waiting to start, with no percent or bar', async () => {
    installFakeApi({
      'transcripts:list': () => ({
        items: [summary('q', { status: 'CONVERTING', progress: 0, stage: 'queued', processingStartedAt: null })],
        total: 1,
      }),
    });
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    const row = screen.getByRole('button', { name: 'Open q.wav' });
    expect(row.querySelector('.status')!.textContent).toBe('Waiting to start');
    expect(screen.queryByRole('progressbar', { name: 'Progress of q.wav' })).toBeNull();
  });

  it('names the languages in the UI language, not by their codes', async () => {
    installFakeApi({
      'transcripts:list': () => ({
        items: [
          summary('e', { languages: ['en'] }),
          summary('m', { languages: ['ja', 'en'] }),
          summary('n', { languages: [], status: 'IN_PROGRESS', progress: 0.2, stage: 'recognizing' }),
        ],
        total: 3,
      }),
    });
    await act(() => useLibraryStore.getState().reload());
    const { unmount } = render(<TranscriptionList />);
    const language = (name: string) => screen.getByRole('button', { name }).querySelector('.cell-language')!;
    expect(language('Open e.wav').textContent).toBe('English');
    expect(language('Open m.wav').textContent).toBe('Japanese and English');
    // None chosen at upload: said so until the server names the one it detected.
    expect(language('Open n.wav').textContent).toBe('Not chosen');
    expect(language('Open n.wav').getAttribute('title')).toBe(
      'No language chosen: the server shows the one it detects once it is done.',
    );
    unmount();
    setUiLanguage('ja');
    render(<TranscriptionList />);
    expect(language('e.wav を開く').textContent).toBe('英語');
    expect(language('m.wav を開く').textContent).toBe('日本語、英語');
    expect(language('n.wav を開く').textContent).toBe('未選択');
  });

  it('names the Language filter’s choices as the column does, and filters by the code', async () => {
    const { unmount } = render(<LibraryToolbar />);
    const choices = (label: string) =>
      [...screen.getByRole<HTMLSelectElement>('combobox', { name: label }).options].map((o) => o.textContent);
    expect(choices('Language').slice(1, 3)).toEqual(['English', 'Japanese']);
    await act(async () =>
      fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'ja' } }),
    );
    expect(useLibraryStore.getState().filter.language).toBe('ja');
    unmount();
    setUiLanguage('ja');
    render(<LibraryToolbar />);
    expect(choices('言語').slice(1, 3)).toEqual(['英語', '日本語']);
  });

  it('does not call a failed row "Available offline": it has no transcript, only its kept recording', async () => {
    installFakeApi({
      'transcripts:list': () => ({
        items: [
          summary('f', { status: 'FAILED', failureReason: 'Not an audio file', audioCached: true }),
          summary('d', { audioCached: true }),
          summary('w', { status: 'CONVERTING', progress: 0, stage: 'queued', audioCached: true }),
        ],
        total: 3,
      }),
    });
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    const failed = screen.getByRole('button', { name: 'Open f.wav' });
    expect(failed.textContent).not.toContain('Available offline');
    const kept = failed.querySelector<HTMLElement>('[data-testid="row-cached"]')!;
    expect(kept.getAttribute('title')).toBe('Recording kept on this computer');
    const done = screen.getByRole('button', { name: 'Open d.wav' });
    expect(done.textContent).toContain('Available offline');
    // Nor does it show the done row's green check beside "Failed": a muted mark of its recording instead.
    const offline = done.querySelector<HTMLElement>('[data-testid="row-cached"]')!;
    expect(kept.dataset.kind).toBe('recording');
    expect(offline.dataset.kind).toBe('transcript');
    expect(kept.querySelector('svg')!.innerHTML).not.toBe(offline.querySelector('svg')!.innerHTML);
    // A row still waiting has no transcript yet either.
    const waiting = screen.getByRole('button', { name: 'Open w.wav' });
    expect(waiting.querySelector<HTMLElement>('[data-testid="row-cached"]')!.dataset.kind).toBe('recording');
    expect(waiting.textContent).not.toContain('Available offline');
    // A name cut to the column's width is whole on hover.
    expect(done.querySelector('.name-text')!.getAttribute('title')).toBe('d.wav');
  });

  describe('End before the last page is here', () => {
    // The last page is slow: End scrolls there and waits for its rows before it can focus the last one.
    let arrive: () => void;
    // The list's own waits, counted where they subscribe (rendering subscribes through React, not here).
    let waiting: number;
    beforeEach(() => {
      arrive = () => {};
      waiting = 0;
      installFakeApi({
        'transcripts:list': async ({ offset = 0, limit = 50 }) => {
          if (offset >= 9_900) await new Promise<void>((resolve) => (arrive = resolve));
          return {
            items: Array.from({ length: Math.min(limit, 10_000 - offset) }, (_, i) => summary(`t${offset + i}`)),
            total: 10_000,
          };
        },
      });
      const subscribe = useLibraryStore.subscribe;
      vi.spyOn(useLibraryStore, 'subscribe').mockImplementation((listener) => {
        waiting++;
        const off = subscribe(listener);
        let on = true;
        return () => {
          if (on) waiting--;
          on = false;
          off();
        };
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
      arrive();
    });
    const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

    it('waits once however often it is pressed, and a later key press drops the wait', async () => {
      await act(() => useLibraryStore.getState().reload());
      render(<TranscriptionList />);
      const first = screen.getByRole('button', { name: 'Open t0.wav' });
      first.focus();
      for (let press = 0; press < 3; press++) fireEvent.keyDown(first, { key: 'End' });
      expect(waiting).toBe(1);
      fireEvent.keyDown(first, { key: 'Home' });
      expect(waiting).toBe(0);
      await nextFrame();
      expect(document.activeElement).toBe(first);

      // Pressed again and left to wait, End lands on the last row once its page is here.
      fireEvent.keyDown(first, { key: 'End' });
      expect(waiting).toBe(1);
      await act(async () => fireEvent.scroll(screen.getByTestId('transcription-list')));
      expect(useLibraryStore.getState().rows[9_999]).toBeUndefined();
      await act(async () => arrive());
      expect(waiting).toBe(0);
      await nextFrame();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open t9999.wav' }));
    });

    it('stops waiting when the list goes', async () => {
      await act(() => useLibraryStore.getState().reload());
      const { unmount } = render(<TranscriptionList />);
      fireEvent.keyDown(screen.getByRole('button', { name: 'Open t0.wav' }), { key: 'End' });
      expect(waiting).toBe(1);
      unmount();
      expect(waiting).toBe(0);
    });
  });

  it('shows the empty state when there is nothing', async () => {
    installFakeApi({ 'transcripts:list': () => ({ items: [], total: 0 }) });
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    expect(screen.getByText(/No transcriptions yet/)).toBeTruthy();
  });
});

describe('SearchResults', () => {
  it('marks the matched words and opens the transcription at the moment of the hit', () => {
    useLibraryStore.setState({
      query: 'budget',
      hits: [
        {
          transcriptionId: 't9',
          transcriptionName: 'Weekly.wav',
          kind: 'transcript',
          segmentId: 4,
          start: 75,
          snippet: 'the [[budget]] is fine',
        },
      ],
    });
    render(<SearchResults />);
    expect(screen.getByText('budget').tagName).toBe('MARK');
    fireEvent.click(screen.getByRole('button', { name: 'Open Weekly.wav at 1:15' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'transcript', id: 't9', at: 75 });
  });
});
