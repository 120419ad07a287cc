// Uploads run in main (they survive reloads and report progress); this mirrors them and holds the
// options the next upload will use.
import { create } from 'zustand';
import type { IpcError, UploadJob, UploadOptions } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';

export const DEFAULT_UPLOAD_OPTIONS: UploadOptions = {
  language: null,
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

interface UploadsState {
  jobs: UploadJob[];
  options: UploadOptions;
  error: IpcError | null;
  init: () => Promise<() => void>;
  setOptions: (patch: Partial<UploadOptions>) => void;
  /** Opens the system file picker (main's dialog), then uploads what was chosen. */
  pick: () => Promise<void>;
  /** Files dropped on the page. */
  addFiles: (files: File[]) => Promise<void>;
  addPaths: (paths: string[]) => Promise<void>;
  cancel: (id: string) => Promise<void>;
  /** Tries a failed, cancelled or waiting upload again now. */
  retry: (id: string) => Promise<void>;
  /** Shows a job main queued through another path (a recording). */
  upsert: (job: UploadJob) => void;
  /** Drops a job main has forgotten (a discarded recording's). */
  forget: (id: string) => void;
  /** Removes done and cancelled uploads from the panel. */
  clearFinished: () => Promise<void>;
  /** The uploads panel shows only its summary line. */
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  dismissError: () => void;
}

const ACTIVE: ReadonlyArray<UploadJob['state']> = ['queued', 'uploading', 'starting'];
const FINISHED: ReadonlyArray<UploadJob['state']> = ['done', 'cancelled'];

export const useUploadsStore = create<UploadsState>()((set, get) => {
  function upsert(job: UploadJob) {
    const jobs = get().jobs.filter((existing) => existing.id !== job.id);
    jobs.push(job);
    jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    set({ jobs });
  }
  return {
    jobs: [],
    options: DEFAULT_UPLOAD_OPTIONS,
    error: null,
    collapsed: false,
    async init() {
      const off = api().on('uploads:changed', upsert);
      const [jobs] = split(await api().uploads.list());
      if (jobs) jobs.forEach(upsert);
      return off;
    },
    setOptions(patch) {
      // A refusal of the options is settled once the user changes them.
      const error = get().error;
      set({ options: { ...get().options, ...patch }, error: error?.field?.startsWith('options.') ? null : error });
    },
    async pick() {
      const [paths, error] = split(await api().uploads.pick());
      if (error) return set({ error });
      if (paths.length) await get().addPaths(paths);
    },
    async addFiles(files) {
      const paths: string[] = [];
      for (const file of files) {
        const [path, error] = split(await api().files.localPath(file));
        if (error) set({ error });
        else paths.push(path);
      }
      if (paths.length) await get().addPaths(paths);
    },
    async addPaths(paths) {
      const [jobs, error] = split(await api().uploads.add({ paths, options: get().options }));
      if (error) return set({ error });
      jobs.forEach(upsert);
      set({ error: null });
    },
    async cancel(id) {
      const [, error] = split(await api().uploads.cancel({ id }));
      if (error) set({ error });
    },
    async retry(id) {
      const [job, error] = split(await api().uploads.retry({ id }));
      if (error) return set({ error });
      upsert(job);
    },
    upsert,
    forget(id) {
      set({ jobs: get().jobs.filter((job) => job.id !== id) });
    },
    async clearFinished() {
      const [, error] = split(await api().uploads.clearFinished());
      if (error) return set({ error });
      set({ jobs: get().jobs.filter((job) => !FINISHED.includes(job.state)) });
    },
    setCollapsed(collapsed) {
      set({ collapsed });
    },
    dismissError() {
      set({ error: null });
    },
  };
});

export const selectFinishedCount = (state: UploadsState) => state.jobs.filter((job) => FINISHED.includes(job.state)).length;
export const selectActiveJobs = (state: UploadsState) => state.jobs.filter((job) => ACTIVE.includes(job.state));
export const selectRecentJobs = (state: UploadsState) => state.jobs;
