// Dictionaries on the active server: words with readings and forced replacements. Every action
// answers the IpcError (or null) so a form can show it next to the field that caused it.
import { create } from 'zustand';
import type { DictionaryDetail, DictionaryImport, DictionarySummary, IpcError } from '../../src-shared/ipc-contract';
import type { IpcResult } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';

type Word = { word: string; reading?: string };

interface DictionariesState {
  list: DictionarySummary[];
  selectedId: string | null;
  detail: DictionaryDetail | null;
  loading: boolean;
  error: IpcError | null;
  load: () => Promise<void>;
  select: (id: string | null) => Promise<void>;
  create: (name: string) => Promise<IpcError | null>;
  rename: (name: string) => Promise<IpcError | null>;
  remove: () => Promise<IpcError | null>;
  addWords: (words: Word[]) => Promise<IpcError | null>;
  removeWord: (wordId: string) => Promise<IpcError | null>;
  addReplacementRules: (replacementRules: Array<{ pattern: string; replacement: string }>) => Promise<IpcError | null>;
  removeReplacementRule: (replacementRuleId: string) => Promise<IpcError | null>;
  /** Checks the lines, and imports them when all are good (or, with `skipBadLines`, the good ones). */
  importText: (
    text: string,
    kind: 'words' | 'replacement-rules',
    skipBadLines?: boolean,
  ) => Promise<[DictionaryImport, null] | [null, IpcError]>;
}

export const useDictionariesStore = create<DictionariesState>()((set, get) => {
  const lists = createRequestTracker<DictionariesState>(set, { busy: 'loading', error: 'error' });
  const details = createRequestTracker<DictionariesState>(set, { error: 'error' });

  // Changes go to main one after another, so their answers arrive in order: a word added while the one
  // before is still saving is never overwritten by the earlier answer, which lacks it.
  let queue: Promise<unknown> = Promise.resolve();
  function inTurn<T>(call: () => Promise<T>): Promise<T> {
    const answer = queue.then(call);
    queue = answer.catch(() => undefined);
    return answer;
  }
  /** Runs a call that answers the new detail of the selected dictionary. */
  async function change(call: (id: string) => Promise<IpcResult<DictionaryDetail>>): Promise<IpcError | null> {
    const id = get().selectedId;
    if (!id) return null;
    const [detail, error] = split(await inTurn(() => call(id)));
    if (detail) show(id, detail);
    return error;
  }
  /** The dictionary `id` as main now has it, when it is still the one shown. */
  function show(id: string, detail: DictionaryDetail) {
    if (get().selectedId !== id) return;
    // A read of this dictionary still under way (it was just opened) holds less than this answer.
    details.renew();
    set({ detail, list: get().list.map((item) => (item.id === id ? summaryOf(detail) : item)) });
  }
  return {
    list: [],
    selectedId: null,
    detail: null,
    loading: false,
    error: null,
    async load() {
      const result = await lists.run(
        () => api().dictionaries.list(),
        (list) => ({ list }),
      );
      const selected = get().selectedId;
      if (selected && result?.ok && !result.value.some((item) => item.id === selected))
        set({ selectedId: null, detail: null });
    },
    async select(id) {
      details.renew();
      set({ selectedId: id, detail: null, error: null });
      if (id)
        await details.run(
          () => api().dictionaries.get({ id }),
          (detail) => ({ detail }),
        );
    },
    async create(name) {
      const [detail, error] = split(await api().dictionaries.create({ name }));
      if (!detail) return error;
      set({ list: [...get().list, summaryOf(detail)], selectedId: detail.id, detail });
      return null;
    },
    rename: (name) => change((id) => api().dictionaries.rename({ id, name })),
    async remove() {
      const id = get().selectedId;
      if (!id) return null;
      const [, error] = split(await api().dictionaries.delete({ id }));
      if (!error) set({ list: get().list.filter((item) => item.id !== id), selectedId: null, detail: null });
      return error;
    },
    addWords: (words) => change((id) => api().dictionaries.addWords({ id, words })),
    removeWord: (wordId) => change((id) => api().dictionaries.removeWord({ id, wordId })),
    addReplacementRules: (replacementRules) =>
      change((id) => api().dictionaries.addReplacementRules({ id, replacementRules })),
    removeReplacementRule: (replacementRuleId) =>
      change((id) => api().dictionaries.removeReplacementRule({ id, replacementRuleId })),
    async importText(text, kind, skipBadLines = false) {
      const id = get().selectedId;
      if (!id) return [null, { code: 'not-found', reason: 'app.not-found-dictionary' }];
      const result = await inTurn(() =>
        api().dictionaries.import({ id, text, kind, ...(skipBadLines ? { skipBadLines } : {}) }),
      );
      if (!result.ok) return [null, result.error];
      if (result.value.outcome !== 'checked' && result.value.detail) show(id, result.value.detail);
      return [result.value, null];
    },
  };
});

function summaryOf(detail: DictionaryDetail): DictionarySummary {
  return {
    id: detail.id,
    name: detail.name,
    isTemporary: detail.isTemporary,
    createdAt: detail.createdAt,
    updatedAt: detail.updatedAt,
  };
}
