// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { PAGE_SIZE, useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { installFakeApi, summary } from '../fake-api';

const TOTAL = 10_000;

function library() {
  return installFakeApi({
    'transcripts:list': ({ offset = 0, limit = 50, filter }) => {
      const total = filter?.language === 'ja' ? 3 : TOTAL;
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
        summary(`t${offset + i}`),
      );
      return { items, total };
    },
    'search:query': ({ text }) => [
      {
        transcriptionId: 't1',
        transcriptionName: 't1.wav',
        kind: 'transcript' as const,
        segmentId: 3,
        start: 12.5,
        snippet: `a [[${text}]] b`,
      },
    ],
  });
}

beforeEach(() => {
  useLibraryStore.setState(useLibraryStore.getInitialState(), true);
  useLibraryStore.setState({ requestedPages: new Set() });
});

describe('library store', () => {
  it('loads the first page and fetches further pages only for the range asked for', async () => {
    const fake = library();
    await useLibraryStore.getState().reload();
    let state = useLibraryStore.getState();
    expect(state.total).toBe(TOTAL);
    expect(state.rows[0]?.id).toBe('t0');
    expect(state.rows[PAGE_SIZE]).toBeUndefined();

    await useLibraryStore.getState().ensureRange(5_030, 5_060);
    state = useLibraryStore.getState();
    expect(state.rows[5_050]?.id).toBe('t5050');
    // Page 50 only: 5000..5099.
    expect(
      fake.calls
        .filter((call) => call.channel === 'transcripts:list')
        .map((call) => (call.request as { offset: number }).offset),
    ).toEqual([0, 5_000]);

    await useLibraryStore.getState().ensureRange(5_000, 5_010);
    expect(fake.calls.length).toBe(2);
  });

  it('reloads with the filter and drops rows beyond the new total', async () => {
    const fake = library();
    await useLibraryStore.getState().reload();
    await useLibraryStore.getState().setFilter({ language: 'ja' });
    const state = useLibraryStore.getState();
    expect(state.total).toBe(3);
    expect(state.rows.length).toBe(3);
    expect((fake.calls.at(-1)!.request as { filter: unknown }).filter).toEqual({ language: 'ja' });
  });

  it('searches and clears hits for an empty query', async () => {
    library();
    await useLibraryStore.getState().search('budget');
    expect(useLibraryStore.getState().hits[0]).toMatchObject({ start: 12.5, snippet: 'a [[budget]] b' });
    await useLibraryStore.getState().search('  ');
    expect(useLibraryStore.getState().hits).toEqual([]);
  });

  it('refreshes once for a burst of transcripts:changed events', async () => {
    const fake = library();
    const off = useLibraryStore.getState().init();
    for (let i = 0; i < 5; i++) fake.emit('transcripts:changed', { ids: [`t${i}`] });
    await expect.poll(() => fake.calls.filter((call) => call.channel === 'transcripts:list').length).toBe(1);
    off();
  });
});

describe('library store refresh', () => {
  it('refreshes the rows on screen, not only the first page', async () => {
    const fake = library();
    await useLibraryStore.getState().reload();
    await useLibraryStore.getState().ensureRange(5_030, 5_060);
    fake.calls.length = 0;
    await useLibraryStore.getState().reload();
    expect(fake.calls.map((call) => (call.request as { offset: number }).offset)).toEqual([0, 5_000]);
  });
});
