// The library: transcriptions from main's cache, paged on demand for a virtualized list, plus
// full-text search whose hits point at moments in the audio.
import { create } from 'zustand';
import type {
  IpcError,
  RerunPlan,
  SearchHit,
  TranscriptFilter,
  TranscriptionSummary,
  UploadOptions,
} from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';

export const PAGE_SIZE = 100;

/** A re-run of one transcription (decision 0020): being sent, queued (the row waits to be replaced), or refused. */
export type RerunState =
  { state: 'sending' } | { state: 'queued'; jobId: string } | { state: 'refused'; error: IpcError };

interface LibraryState {
  filter: TranscriptFilter;
  /** Sparse by position: rows not fetched yet are undefined. */
  rows: Array<TranscriptionSummary | undefined>;
  total: number;
  /** True until the first page of the current filter arrives. */
  loading: boolean;
  error: IpcError | null;
  requestedPages: Set<number>;
  /** The rows last asked for by the list: a reload refreshes them too, not only the first page. */
  visibleRange: [number, number];

  query: string;
  hits: SearchHit[];
  searching: boolean;
  searchError: IpcError | null;

  setFilter: (patch: Partial<TranscriptFilter>) => Promise<void>;
  reload: () => Promise<void>;
  /** Makes sure rows [from, to) are loaded (the list calls it for what is on screen). */
  ensureRange: (from: number, to: number) => Promise<void>;
  search: (query: string) => Promise<void>;
  /** Follows 'transcripts:changed'; returns the unsubscribe. */
  init: () => () => void;

  /** Re-runs started from the list, by transcription id. */
  reruns: Record<string, RerunState>;
  /** What a re-run of `id` starts from: its options and whether its audio is here. */
  rerunPlan: (id: string) => Promise<[RerunPlan, null] | [null, IpcError]>;
  /**
   * Transcribes `id` again with `options` (or the original ones). With `chooseFile`, the system picker
   * asks for the recording first (its audio is not on this computer). Answers whether a re-run was queued.
   */
  rerun: (id: string, options?: UploadOptions, chooseFile?: boolean) => Promise<boolean>;
  /** Forgets a re-run's refusal (the user dismissed it or is about to try otherwise). */
  clearRerun: (id: string) => void;
}

export const useLibraryStore = create<LibraryState>()((set, get) => {
  // Pages of one filter load side by side; a reload (new filter, or a change in main) drops them all.
  const pages = createRequestTracker<LibraryState>(set, { busy: 'loading', error: 'error' });
  const searches = createRequestTracker<LibraryState>(set, { busy: 'searching', error: 'searchError' });

  async function fetchPage(page: number) {
    const result = await pages.run(
      () => api().transcripts.list({ filter: get().filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
      (value) => {
        const rows = get().rows.slice(0, value.total);
        rows.length = value.total;
        value.items.forEach((item, index) => (rows[page * PAGE_SIZE + index] = item));
        return { rows, total: value.total };
      },
      // The first page's loading flag stays up until it arrives; refreshes keep the rows on screen.
      { supersede: false, markBusy: false },
    );
    if (result && !result.ok) get().requestedPages.delete(page);
  }

  return {
    filter: {},
    rows: [],
    total: 0,
    loading: true,
    error: null,
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
      pages.renew();
      // Keep the rows on screen while refreshing, so a background change does not blank the list.
      set({ requestedPages: new Set([0]) });
      await fetchPage(0);
      const [from, to] = get().visibleRange;
      if (to > PAGE_SIZE) await get().ensureRange(from, to);
    },
    async ensureRange(from, to) {
      set({ visibleRange: [from, to] });
      const { requestedPages, total } = get();
      const last = Math.min(to, Math.max(total, 1)) - 1;
      const pending: Promise<void>[] = [];
      for (
        let page = Math.floor(Math.max(0, from) / PAGE_SIZE);
        page <= Math.floor(Math.max(0, last) / PAGE_SIZE);
        page++
      ) {
        if (requestedPages.has(page)) continue;
        requestedPages.add(page);
        pending.push(fetchPage(page));
      }
      await Promise.all(pending);
    },
    async search(query) {
      set({ query });
      const text = query.trim();
      if (!text) {
        searches.renew();
        set({ hits: [], searching: false, searchError: null });
        return;
      }
      const result = await searches.run(
        () => api().search.query({ text, limit: 200 }),
        (hits) => ({ hits }),
      );
      if (result && !result.ok) set({ hits: [] });
    },
    reruns: {},
    async rerunPlan(id) {
      return split(await api().transcripts.rerunPlan({ id }));
    },
    async rerun(id, options, chooseFile = false) {
      const mark = (state: RerunState | null) => {
        const reruns = { ...get().reruns };
        if (state) reruns[id] = state;
        else delete reruns[id];
        set({ reruns });
      };
      let file: string | undefined;
      if (chooseFile) {
        const [offers, error] = split(await api().uploads.pick());
        if (error) {
          mark({ state: 'refused', error });
          return false;
        }
        if (offers.length === 0) return false;
        file = offers[0]!.handle;
      }
      mark({ state: 'sending' });
      const [job, error] = split(
        await api().transcripts.rerun({ id, ...(options ? { options } : {}), ...(file ? { file } : {}) }),
      );
      // No job: the server transcribes it again in place (decision 0062), and the row shows the run itself.
      mark(error ? { state: 'refused', error } : job ? { state: 'queued', jobId: job.id } : null);
      return !error;
    },
    clearRerun(id) {
      const reruns = { ...get().reruns };
      delete reruns[id];
      set({ reruns });
    },
    init() {
      let timer: ReturnType<typeof setTimeout> | null = null;
      // A re-run whose upload the server refused (or the user cancelled): the failed row offers its actions again.
      const offUploads = api().on('uploads:changed', (job) => {
        if (job.state !== 'failed' && job.state !== 'cancelled') return;
        const entry = Object.entries(get().reruns).find(
          ([, rerun]) => rerun.state === 'queued' && rerun.jobId === job.id,
        );
        if (!entry) return;
        const reruns = { ...get().reruns };
        if (job.state === 'failed' && job.error) reruns[entry[0]] = { state: 'refused', error: job.error };
        else delete reruns[entry[0]];
        set({ reruns });
      });
      const offTranscripts = api().on('transcripts:changed', () => {
        // Progress events arrive in bursts; one list refresh per burst is enough.
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          void get().reload();
          if (get().query.trim()) void get().search(get().query);
        }, 150);
      });
      return () => {
        offUploads();
        offTranscripts();
      };
    },
  };
});

export const selectRerun = (id: string) => (state: LibraryState) => state.reruns[id];
export const selectRowAt = (index: number) => (state: LibraryState) => state.rows[index];
export const selectIsSearching = (state: LibraryState) => state.query.trim().length > 0;
