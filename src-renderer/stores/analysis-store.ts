// Summary, emotion and translation of transcriptions. Requests start durable jobs in main/server;
// 'analysis:changed' says when a result moved, and the store fetches it again.
import { create } from 'zustand';
import type { AnalysisKind, AnalysisView, IpcError, TranslationTargets } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';

/** One slot per transcription, kind and (for translations) target language; '' = the latest. */
export function analysisKey(id: string, kind: AnalysisKind, language?: string | null): string {
  return `${id}|${kind}|${language ?? ''}`;
}

export interface AnalysisSlot {
  /** undefined: never fetched; null: never requested on the server. */
  view: AnalysisView | null | undefined;
  loading: boolean;
  requesting: boolean;
  error: IpcError | null;
}

const EMPTY_SLOT: AnalysisSlot = { view: undefined, loading: false, requesting: false, error: null };

/** What a transcript can be translated into; undefined while loading. */
export interface TargetsSlot {
  targets: TranslationTargets | undefined;
  error: IpcError | null;
}

const NO_TARGETS: TargetsSlot = { targets: undefined, error: null };

interface AnalysisState {
  slots: Record<string, AnalysisSlot>;
  load: (id: string, kind: AnalysisKind, language?: string) => Promise<void>;
  request: (id: string, kind: AnalysisKind, language?: string) => Promise<IpcError | null>;
  /** Reads every result of the transcription shown so far again (its transcript changed: are they outdated?). */
  reloadShown: (id: string) => Promise<void>;
  targets: Record<string, TargetsSlot>;
  /** Asks the server what the transcript can be translated into (offline, and through its LLM). */
  loadTargets: (id: string) => Promise<void>;
  init: () => () => void;
}

export const useAnalysisStore = create<AnalysisState>()((set, get) => {
  function patch(key: string, value: Partial<AnalysisSlot>) {
    set({ slots: { ...get().slots, [key]: { ...(get().slots[key] ?? EMPTY_SLOT), ...value } } });
  }
  return {
    slots: {},
    async load(id, kind, language) {
      const key = analysisKey(id, kind, language);
      patch(key, { loading: true });
      const [view, error] = split(await api().analysis.get(language ? { id, kind, language } : { id, kind }));
      patch(key, error ? { loading: false, error } : { loading: false, error: null, view });
    },
    async reloadShown(id) {
      const shown = Object.keys(get().slots).filter((key) => key.startsWith(`${id}|`));
      await Promise.all(
        shown.map((key) => {
          const [, kind, language] = key.split('|') as [string, AnalysisKind, string];
          return get().load(id, kind, language || undefined);
        }),
      );
    },
    async request(id, kind, language) {
      // A translation's own slot and the latest-translation slot (what the panel shows) follow the
      // newest request together: its progress, its result and its refusal.
      const keys = [...new Set([analysisKey(id, kind, language), analysisKey(id, kind)])];
      for (const key of keys) patch(key, { requesting: true, error: null });
      const [view, error] = split(await api().analysis.request(language ? { id, kind, language } : { id, kind }));
      for (const key of keys) patch(key, error ? { requesting: false, error } : { requesting: false, view });
      return error;
    },
    targets: {},
    async loadTargets(id) {
      const [targets, error] = split(await api().analysis.translationTargets({ id }));
      set({ targets: { ...get().targets, [id]: error ? { targets: undefined, error } : { targets, error: null } } });
    },
    init() {
      return api().on('analysis:changed', ({ id, kind, language }) => {
        const slots = get().slots;
        for (const key of new Set([analysisKey(id, kind), analysisKey(id, kind, language)])) {
          if (slots[key]) void get().load(id, kind, key.endsWith('|') ? undefined : (language ?? undefined));
        }
      });
    },
  };
});

export const selectSlot = (key: string) => (state: AnalysisState) => state.slots[key] ?? EMPTY_SLOT;
export const selectTargets = (id: string) => (state: AnalysisState) => state.targets[id] ?? NO_TARGETS;
