// Uploads run in main (they survive reloads and report progress); this mirrors them and holds the
// options the next upload will use.
import { create } from 'zustand';
import {
  DEFAULT_UPLOAD_DEFAULTS,
  type FileOffer,
  type FolderImport,
  type IpcError,
  type UploadDefaults,
  type UploadJob,
  type UploadOptions,
} from '../../src-shared/ipc-contract';
import { checkSpeakerCounts } from '../../src-shared/speaker-count';
import { api, split } from '../lib/api';
import { useSettingsStore } from './settings-store';

export const DEFAULT_UPLOAD_OPTIONS: UploadOptions = { ...DEFAULT_UPLOAD_DEFAULTS, words: [] };

interface UploadsState {
  jobs: UploadJob[];
  options: UploadOptions;
  /** One slot for what is not about one file (a refused option, a dialog that failed). */
  error: IpcError | null;
  /**
   * Files and folders main refused, each with its reason, kept until the user dismisses it: a later
   * good drop does not wipe them (the user may not have read them yet).
   */
  refusals: Refusal[];
  dismissRefusal: (key: number) => void;
  /**
   * Files dropped again while an upload of the same file (same name and size) is listed and not failed
   * or cancelled: held with a question instead of transcribing them twice without a word.
   */
  duplicates: Duplicate[];
  /** Uploads a held duplicate after all (the user wants it transcribed again). */
  addDuplicate: (handle: string) => Promise<void>;
  dismissDuplicate: (handle: string) => void;
  init: () => Promise<() => void>;
  /** Changes the options; a valid choice is remembered in the settings as the defaults of new uploads. */
  setOptions: (patch: Partial<UploadOptions>) => void;
  /** Starts from the remembered defaults (at start), without writing them back. */
  restoreOptions: (defaults: UploadDefaults) => void;
  /** Opens the system file picker (main's dialog), then uploads what was chosen. */
  pick: () => Promise<void>;
  /** Files and folders dropped on the page (folders are imported whole); main says which is which. */
  addFiles: (dropped: File[]) => Promise<void>;
  /** Opens the system folder picker (main's dialog), then imports the folder. */
  pickFolder: () => Promise<void>;
  /** Imports a folder main offered (its handle, decision 0046). */
  addFolder: (handle: string) => Promise<void>;
  /** What the last folder import queued and skipped, until dismissed. */
  folderImport: FolderImport | null;
  dismissFolderImport: () => void;
  /** Queues files main offered (their handles). */
  addHandles: (handles: string[]) => Promise<void>;
  /**
   * Files of two or more channels, offered but not queued yet: the form asks whether each channel is a
   * speaker before they go (decision 0061). Files of one channel are queued at once.
   */
  held: FileOffer[];
  /** The form's "Each channel is a speaker" for the held files. */
  multichannel: boolean;
  setMultichannel: (multichannel: boolean) => void;
  /** Queues the held files, each channel a speaker when so chosen. */
  uploadHeld: () => Promise<void>;
  /** Forgets the held files without uploading them. */
  dropHeld: () => void;
  cancel: (id: string) => Promise<void>;
  /** Tries a failed, cancelled or waiting upload again now. */
  retry: (id: string) => Promise<void>;
  /** Shows a job main queued through another path (a recording). */
  upsert: (job: UploadJob) => void;
  /** Drops a job main has forgotten (a discarded recording's). */
  forget: (id: string) => void;
  /** Removes done and cancelled uploads from the panel. */
  clearFinished: () => Promise<void>;
  /**
   * Opened for this session (a folder's files arriving), over the panel's kept state
   * (use-collapsed-panel.ts); null: as kept.
   */
  collapsed: boolean | null;
  setCollapsed: (collapsed: boolean | null) => void;
  dismissError: () => void;
}

export interface Refusal {
  key: number;
  error: IpcError;
}

let nextRefusal = 1;

export interface Duplicate {
  offer: FileOffer;
  /** The earlier upload's transcription, to open; null while it is still on its way. */
  transcriptionId: string | null;
}

/** Failed and cancelled uploads did not put the file in the library: dropping it again is no duplicate. */
const GONE: ReadonlyArray<UploadJob['state']> = ['failed', 'cancelled'];

const FINISHED: ReadonlyArray<UploadJob['state']> = ['done', 'cancelled'];

export const useUploadsStore = create<UploadsState>()((set, get) => {
  function upsert(job: UploadJob) {
    const jobs = get().jobs.filter((existing) => existing.id !== job.id);
    jobs.push(job);
    jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    set({ jobs });
  }
  /**
   * A job as a reply (add, import, retry, list) gave it. Main sends every change as an event before it
   * replies, and a fast upload can move on (even finish) before the reply arrives: the reply's snapshot
   * only fills in a job no event has brought yet, so it never puts a finished upload back to "Waiting".
   */
  function remember(job: UploadJob) {
    if (!get().jobs.some((existing) => existing.id === job.id)) upsert(job);
  }
  /** An error about the options refuses every file alike: it goes to its field; any other names one file. */
  function refuse(error: IpcError) {
    if (error.field?.startsWith('options.')) set({ error });
    else set({ refusals: [...get().refusals, { key: nextRefusal++, error }] });
  }
  /**
   * Queues each file on its own, so one bad file does not refuse the good ones dropped with it. Answers
   * the handles main took (none once the options are refused: they would refuse every other file too).
   */
  async function queue(handles: string[], options: UploadOptions): Promise<string[]> {
    const taken: string[] = [];
    for (const handle of handles) {
      const [jobs, error] = split(await api().uploads.add({ files: [handle], options }));
      if (error) {
        refuse(error);
        if (error.field?.startsWith('options.')) break;
        continue;
      }
      jobs.forEach(remember);
      taken.push(handle);
    }
    return taken;
  }
  /** Offered files: one channel (or unknown) queued now, two or more held for the form's question. */
  async function addOffered(given: FileOffer[]) {
    const earlier = (offer: FileOffer) =>
      get().jobs.find((job) => job.fileName === offer.name && job.size === offer.size && !GONE.includes(job.state));
    const repeated = given.filter((offer) => earlier(offer));
    if (repeated.length) {
      const duplicates = repeated.map((offer) => ({ offer, transcriptionId: earlier(offer)!.transcriptionId }));
      set({ duplicates: [...get().duplicates, ...duplicates] });
    }
    await queueOffered(given.filter((offer) => !repeated.includes(offer)));
  }
  async function queueOffered(offers: FileOffer[]) {
    const several = offers.filter((offer) => (offer.channels ?? 0) >= 2);
    const now = offers.filter((offer) => !several.includes(offer)).map((offer) => offer.handle);
    if (several.length) set({ held: [...get().held, ...several] });
    if (now.length) await get().addHandles(now);
  }
  return {
    jobs: [],
    options: DEFAULT_UPLOAD_OPTIONS,
    error: null,
    refusals: [],
    duplicates: [],
    collapsed: null,
    folderImport: null,
    held: [],
    multichannel: false,
    async init() {
      const off = api().on('uploads:changed', upsert);
      const [jobs] = split(await api().uploads.list());
      if (jobs) jobs.forEach(remember);
      return off;
    },
    setOptions(patch) {
      // A refusal of the options is settled once the user changes them.
      const error = get().error;
      const options = { ...get().options, ...patch };
      set({ options, error: error?.field?.startsWith('options.') ? null : error });
      // Counts that cannot hold are shown next to their field, and not remembered.
      if (
        !checkSpeakerCounts(options) &&
        !sameDefaults(defaultsOf(options), useSettingsStore.getState().settings?.defaults)
      ) {
        void useSettingsStore.getState().update({ defaults: defaultsOf(options) });
      }
    },
    restoreOptions(defaults) {
      set({ options: { ...get().options, ...defaultsOf(defaults) } });
    },
    async pick() {
      const [offers, error] = split(await api().uploads.pick());
      if (error) return set({ error });
      await addOffered(offers);
    },
    async addFiles(dropped) {
      if (dropped.length === 0) return;
      const [offers, error] = split(await api().files.offer(dropped));
      if (error) return set({ error });
      await addOffered(offers.filter((offer) => offer.kind === 'file'));
      for (const folder of offers.filter((offer) => offer.kind === 'folder')) await get().addFolder(folder.handle);
    },
    async pickFolder() {
      const [offer, error] = split(await api().uploads.pickFolder());
      if (error) return set({ error });
      if (offer) await get().addFolder(offer.handle);
    },
    async addFolder(handle) {
      const [imported, error] = split(await api().uploads.addFolder({ folder: handle, options: get().options }));
      if (error) return refuse(error);
      imported.jobs.forEach(remember);
      set({ folderImport: imported, collapsed: false });
    },
    dismissFolderImport() {
      set({ folderImport: null });
    },
    async addHandles(handles) {
      const taken = await queue(handles, get().options);
      if (taken.length && !get().error?.field?.startsWith('options.')) set({ error: null });
    },
    setMultichannel(multichannel) {
      set({ multichannel });
    },
    async uploadHeld() {
      const { held, multichannel, options } = get();
      if (held.length === 0) return;
      const handles = held.map((offer) => offer.handle);
      const taken = await queue(handles, multichannel ? { ...options, multichannel: true } : options);
      // A refused file is named among the refusals; the held ones left are those the options refused.
      const optionsRefused = get().error?.field?.startsWith('options.') ?? false;
      if (!optionsRefused) return set({ error: null, held: [], multichannel: false });
      set({ held: held.filter((offer) => !taken.includes(offer.handle)) });
    },
    dropHeld() {
      set({ held: [], multichannel: false });
    },
    async cancel(id) {
      const [, error] = split(await api().uploads.cancel({ id }));
      if (error) set({ error });
    },
    async retry(id) {
      const [job, error] = split(await api().uploads.retry({ id }));
      if (error) return set({ error });
      remember(job);
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
    async addDuplicate(handle) {
      const duplicate = get().duplicates.find((held) => held.offer.handle === handle);
      if (!duplicate) return;
      get().dismissDuplicate(handle);
      await queueOffered([duplicate.offer]);
    },
    dismissDuplicate(handle) {
      set({ duplicates: get().duplicates.filter((held) => held.offer.handle !== handle) });
    },
    dismissRefusal(key) {
      set({ refusals: get().refusals.filter((refusal) => refusal.key !== key) });
    },
  };
});

/** The part of the options that is remembered (not the ad-hoc words). */
function defaultsOf({
  language,
  model,
  numSpeakers,
  minSpeakers,
  maxSpeakers,
  dictionaryId,
}: UploadDefaults): UploadDefaults {
  return { language, model, numSpeakers, minSpeakers, maxSpeakers, dictionaryId };
}

function sameDefaults(a: UploadDefaults, b: UploadDefaults | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(defaultsOf(b));
}

export const selectFinishedCount = (state: UploadsState) =>
  state.jobs.filter((job) => FINISHED.includes(job.state)).length;
