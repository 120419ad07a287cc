// @vitest-environment happy-dom
// What the app asks main for first (issue 27 item 9, decision 0079): main answers one request at a time,
// so what the user waits for goes first: the library's first page when the app starts, the waveform's
// peaks and the recording before a long transcript when one is opened.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../../src-renderer/app';
import { TranscriptView } from '../../../../src-renderer/features/transcript/transcript-view';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, transcriptDetail, type FakeApi } from '../fake-api';

const TOTAL = 10_000;
let fake: FakeApi;
beforeEach(() => {
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set() }, true);
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  useNavigationStore.setState({ route: { name: 'library' } });
  fake = installFakeApi({
    'transcripts:list': ({ offset = 0, limit = 100 }) => ({
      items: Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) =>
        summary(`t${offset + i}`, offset + i === 3 ? { status: 'FAILED', failureReason: 'No speech' } : {}),
      ),
      total: TOTAL,
    }),
    'transcripts:get': () =>
      transcriptDetail([
        {
          id: 0,
          start: 0,
          end: 1,
          speaker: null,
          text: 'hello',
          words: [{ word: 'hello', start: 0, end: 1, confidence: 0.9 }],
        },
      ]),
  });
});
afterEach(cleanup);

const channels = () => fake.calls.map((call) => call.channel);

describe('the first requests', () => {
  it('asks for the library first when the app starts, and shows its rows of 10,000', async () => {
    render(<App />);
    expect(channels()[0]).toBe('transcripts:list');
    expect(fake.calls[0]!.request).toMatchObject({ offset: 0, limit: 100 });
    // The other stores still load, after it.
    expect(channels().slice(1)).toEqual(expect.arrayContaining(['settings:get', 'uploads:list']));
    expect(await screen.findByRole('button', { name: 'Open t0.wav' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open t3.wav' }).dataset.status).toBe('FAILED');
    expect(screen.getByRole('list', { name: 'Transcriptions' }).querySelector('li')!.getAttribute('aria-setsize')).toBe(
      String(TOTAL),
    );
    // Only one request for the first page, though the library also asks for what is on screen.
    expect(
      fake.calls.filter((c) => c.channel === 'transcripts:list' && (c.request as { offset: number }).offset === 0),
    ).toHaveLength(1);
  });

  it('asks for the waveform and the recording before the transcript of the one opened', async () => {
    render(<TranscriptView id="t1" />);
    const order = channels();
    expect(order).toEqual(expect.arrayContaining(['audio:peaks', 'audio:source', 'transcripts:get']));
    expect(order.indexOf('audio:peaks')).toBeLessThan(order.indexOf('transcripts:get'));
    expect(order.indexOf('audio:source')).toBeLessThan(order.indexOf('transcripts:get'));
    // Both still arrive: the transcript shows under the player.
    expect((await screen.findAllByText('hello')).length).toBeGreaterThan(0);
    expect(screen.getByRole('region', { name: 'Player' })).toBeTruthy();
  });
});
