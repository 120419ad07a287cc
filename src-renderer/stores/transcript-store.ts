// The transcription open in the transcript view: its document, edits, speaker names and export.
import { speakerOrder } from '../../src-shared/speaker-names';
import { create } from 'zustand';
import type {
  EditHistoryCounts,
  ExportOptions,
  IpcError,
  IpcRequest,
  IpcResponse,
  IpcResult,
  TranscriptDetail,
  VoiceSummary,
} from '../../src-shared/ipc-contract';
import type { EditOperation } from '../../src-shared/transcript-editing';
import type { TranscriptSegment } from '../../src-shared/transcript-document';
import { useVoicesStore } from './voices-store';
import { api, split } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';

export type SettledSegment = IpcRequest<'transcripts:settle-conflict'>['segments'][number];
type ExportReport = NonNullable<NonNullable<IpcResponse<'transcripts:export'>>['subtitles']>;

interface TranscriptState {
  id: string | null;
  detail: TranscriptDetail | null;
  loading: boolean;
  error: IpcError | null;
  open: (id: string) => Promise<void>;
  reload: () => Promise<void>;
  close: () => void;
  saveSegment: (segmentId: number, text: string) => Promise<IpcError | null>;
  /** One edit of the document: a word, find & replace, merge, split, a segment's speaker. */
  editDocument: (operation: EditOperation) => Promise<IpcError | null>;
  undo: () => Promise<IpcError | null>;
  redo: () => Promise<IpcError | null>;
  renameSpeaker: (speaker: string, name: string) => Promise<IpcError | null>;
  /** "This is…": the speaker's voice enrolled as a new voice or added to one, then the speaker named after it. */
  /** The voice as learned (null: refused, `error` says why). */
  identifySpeaker: (
    speaker: string,
    voice: { id: string } | { name: string },
  ) => Promise<{ error: IpcError | null; voice: VoiceSummary | null }>;
  /** A dictionary's forced replacements applied to this transcript (null: its own dictionary). */
  applyDictionary: (dictionaryId: string | null) => Promise<IpcError | null>;
  /** Settles a correction that could not be sent: keep this computer's text, or take the server's. */
  resolveConflict: (keep: 'local' | 'server') => Promise<IpcError | null>;
  /** Settles a conflict segment by segment: the text and speaker chosen (or merged) for each. */
  settleConflict: (segments: SettledSegment[]) => Promise<IpcError | null>;
  /** Brings back an older revision from the server's history as a new one. */
  restoreRevision: (revision: number) => Promise<IpcError | null>;
  /** `report`: for SRT and WebVTT, how many cues there are and which read too fast. */
  exportAs: (options: ExportOptions) => Promise<{ path: string | null; error: IpcError | null; report?: ExportReport }>;
  remove: () => Promise<IpcError | null>;
  /** Reloads the open transcript when main says it changed; returns the unsubscribe. */
  init: () => () => void;
}

export const useTranscriptStore = create<TranscriptState>()((set, get) => {
  const loads = createRequestTracker<TranscriptState>(set, { busy: 'loading', error: 'error' });
  /** Answers that do not say how many edits can be undone keep what was known. */
  const withHistory = (detail: TranscriptDetail): TranscriptDetail => {
    const known = get().detail?.history;
    return detail.history || !known ? detail : { ...detail, history: known };
  };
  const settle = async (id: string, answer: Promise<IpcResult<TranscriptDetail>>) => {
    const [detail, error] = split(await answer);
    if (detail && get().id === id) set({ detail: withHistory(detail) });
    return error;
  };
  return {
    id: null,
    detail: null,
    loading: false,
    error: null,
    async open(id) {
      if (get().id === id && get().detail) return;
      set({ id, detail: null, loading: true, error: null });
      await get().reload();
    },
    async reload() {
      const id = get().id;
      if (!id) return;
      // A background reload keeps the transcript on screen; a failed one keeps it too, with the error.
      await loads.run(
        () => api().transcripts.get({ id }),
        (detail) => ({ detail }),
        { markBusy: false },
      );
    },
    close() {
      loads.renew();
      set({ id: null, detail: null, error: null, loading: false });
    },
    async saveSegment(segmentId, text) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.edit({ id, segments: [{ id: segmentId, text }] }));
    },
    async editDocument(operation) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.editDocument({ id, operation }));
    },
    async undo() {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.undo({ id }));
    },
    async redo() {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.redo({ id }));
    },
    async renameSpeaker(speaker, name) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.renameSpeaker({ id, speaker, name }));
    },
    async identifySpeaker(speaker, voice) {
      const id = get().id;
      if (!id) return { error: null, voice: null };
      const answer = await api().voices.identify({ id, speaker, voice });
      if (answer.ok) useVoicesStore.getState().keep(answer.value.voice);
      const error = await settle(
        id,
        Promise.resolve(answer.ok ? { ok: true, value: answer.value.transcript } : answer),
      );
      return { error, voice: answer.ok ? answer.value.voice : null };
    },
    async applyDictionary(dictionaryId) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.applyDictionary({ id, dictionaryId }));
    },
    async resolveConflict(keep) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.resolveConflict({ id, keep }));
    },
    async settleConflict(segments) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.settleConflict({ id, segments }));
    },
    async restoreRevision(revision) {
      const id = get().id;
      if (!id) return null;
      return settle(id, api().transcripts.restoreRevision({ id, revision }));
    },
    async exportAs(options) {
      const id = get().id;
      if (!id) return { path: null, error: null };
      const [value, error] = split(await api().transcripts.export({ id, options }));
      return value?.subtitles
        ? { path: value.path, error, report: value.subtitles }
        : { path: value?.path ?? null, error };
    },
    async remove() {
      const id = get().id;
      if (!id) return null;
      const [, error] = split(await api().transcripts.delete({ id }));
      if (!error) get().close();
      return error;
    },
    init() {
      return api().on('transcripts:changed', ({ ids }) => {
        const id = get().id;
        if (id && ids.includes(id)) void get().reload();
      });
    },
  };
});

export const selectSegments = (state: TranscriptState): TranscriptSegment[] =>
  state.detail?.document?.segments ?? EMPTY;
export const selectSpeakerNames = (state: TranscriptState) => state.detail?.speakerNames ?? NO_NAMES;
export const selectHistory = (state: TranscriptState): EditHistoryCounts => state.detail?.history ?? NO_HISTORY;
const NO_HISTORY: EditHistoryCounts = { undo: 0, redo: 0 };
const EMPTY: TranscriptSegment[] = [];
const NO_NAMES: Record<string, string> = {};

/** Speakers in order of first appearance. */
export function speakersOf(segments: TranscriptSegment[]): string[] {
  return speakerOrder(segments);
}

/** Where a time falls: [segment index, word index], -1 when between words or segments. */
export function locateTime(segments: TranscriptSegment[], time: number): [number, number] {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const segment = segments[mid]!;
    if (time < segment.start) hi = mid - 1;
    else if (time >= segment.end) lo = mid + 1;
    else {
      const words = segment.words;
      let wlo = 0;
      let whi = words.length - 1;
      while (wlo <= whi) {
        const wmid = (wlo + whi) >> 1;
        const word = words[wmid]!;
        if (time < word.start) whi = wmid - 1;
        else if (time >= word.end) wlo = wmid + 1;
        else return [mid, wmid];
      }
      return [mid, -1];
    }
  }
  return [-1, -1];
}
