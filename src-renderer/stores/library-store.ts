// The library: transcriptions from main's cache, paged on demand for a virtualized list, plus
// full-text search whose hits point at moments in the audio.
import { create } from 'zustand';
import type { IpcError, SearchHit, TranscriptFilter, TranscriptionSummary } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';

export const PAGE_SIZE = 100;

interface LibraryState {
  filter: TranscriptFilter;
  /** Sparse by position: rows not fetched yet are undefined. */
  rows: Array<TranscriptionSummary | undefined>;
  total: number;
  /** True until the first page of the current filter arrives. */
  loading: boolean;
  error: IpcError | null;
  /** Bumped on every reload so answers for an older filter are dropped. */
  generation: number;
  requestedPages: Set<number>;
  /** The rows last asked for by the list: a reload refreshes them too, not only the first page. */
  visibleRange: [number, number];

  query: string;
  hits: SearchHit[];
  searching: boolean;
  searchError: IpcError | null;

  setFilter(patch: Partial<TranscriptFilter>): Promise<void>;
  reload(): Promise<void>;
  /** Makes sure rows [from, to) are loaded (the list calls it for what is on screen). */
  ensureRange(from: number, to: number): Promise<void>;
  search(query: string): Promise<void>;
  /** Follows 'transcripts:changed'; returns the unsubscribe. */
  init(): () => void;
}

export const useLibraryStore = create<LibraryState>()((set, get) => {
  async function fetchPage(page: number, generation: number) {
    const [value, error] = split(await api().transcripts.list({ filter: get().filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE }));
    if (generation !== get().generation) return;
    if (!value) {
      get().requestedPages.delete(page);
      set({ error, loading: false });
      return;
    }
    const rows = get().rows.slice(0, value.total);
    rows.length = value.total;
    value.items.forEach((item, index) => (rows[page * PAGE_SIZE + index] = item));
    set({ rows, total: value.total, loading: false, error: null });
  }

  return {
    filter: {},
    rows: [],
    total: 0,
    loading: true,
    error: null,
    generation: 0,
    requestedPages: new Set(),
    visibleRange: [0, 0],
    query: '',
    hits: [],
    searching: false,
    searchError: null,

    async setFilter(patch) {
      set({ filter: { ...get().filter, ...patch } });
      await get().reload();
    },
    async reload() {
      const generation = get().generation + 1;
      // Keep the rows on screen while refreshing, so a background change does not blank the list.
      set({ generation, requestedPages: new Set([0]) });
      await fetchPage(0, generation);
      const [from, to] = get().visibleRange;
      if (to > PAGE_SIZE) await get().ensureRange(from, to);
    },
    async ensureRange(from, to) {
      set({ visibleRange: [from, to] });
      const { requestedPages, generation, total } = get();
      const last = Math.min(to, Math.max(total, 1)) - 1;
      const pending: Promise<void>[] = [];
      for (let page = Math.floor(Math.max(0, from) / PAGE_SIZE); page <= Math.floor(Math.max(0, last) / PAGE_SIZE); page++) {
        if (requestedPages.has(page)) continue;
        requestedPages.add(page);
        pending.push(fetchPage(page, generation));
      }
      await Promise.all(pending);
    },
    async search(query) {
      set({ query });
      const text = query.trim();
      if (!text) {
        set({ hits: [], searching: false, searchError: null });
        return;
      }
      set({ searching: true });
      const [hits, error] = split(await api().search.query({ text, limit: 200 }));
      if (get().query !== query) return;
      set({ hits: hits ?? [], searching: false, searchError: error });
    },
    init() {
      let timer: ReturnType<typeof setTimeout> | null = null;
      return api().on('transcripts:changed', () => {
        // Progress events arrive in bursts; one list refresh per burst is enough.
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          void get().reload();
          if (get().query.trim()) void get().search(get().query);
        }, 150);
      });
    },
  };
});

export const selectRowCount = (state: LibraryState) => state.total;
export const selectRowAt = (index: number) => (state: LibraryState) => state.rows[index];
export const selectIsSearching = (state: LibraryState) => state.query.trim().length > 0;
