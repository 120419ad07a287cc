// A window.kikitori for renderer tests: the real API builder over fake handlers, so stores and
// components see exactly the shape the preload exposes.
import type {
  FileOffer,
  IpcChannel,
  IpcEvent,
  IpcEvents,
  IpcRequest,
  IpcResponse,
  IpcResult,
} from '../../../src-shared/ipc-contract';
import { buildKikitoriApi, type RendererApi } from '../../../src-preload/build-api';
import { useSettingsStore } from '../../../src-renderer/stores/settings-store';
import { DEFAULT_UPLOAD_DEFAULTS, type Settings, type UiLanguage } from '../../../src-shared/ipc-contract';

export type FakeHandlers = {
  [C in IpcChannel]?: (
    request: IpcRequest<C>,
  ) => IpcResponse<C> | IpcResult<IpcResponse<C>> | Promise<IpcResponse<C> | IpcResult<IpcResponse<C>>>;
};

export interface FakeApi {
  api: RendererApi;
  calls: Array<{ channel: IpcChannel; request: unknown }>;
  emit<E extends IpcEvent>(event: E, payload: IpcEvents[E]): void;
  handlers: FakeHandlers;
}

function isResult(value: unknown): value is IpcResult<unknown> {
  return typeof value === 'object' && value !== null && 'ok' in value && typeof value.ok === 'boolean';
}

/** What main answers for a dropped File (the preload registers its path): a handle naming the file. */
export const offerOf = (file: File): FileOffer => ({
  handle: `handle of ${file.name}`,
  kind: 'file',
  name: file.name,
  size: file.size,
});

export function installFakeApi(handlers: FakeHandlers = {}, offered: (file: File) => FileOffer = offerOf): FakeApi {
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  const calls: FakeApi['calls'] = [];
  const api = buildKikitoriApi(
    async (channel, request) => {
      calls.push({ channel, request });
      const handler = handlers[channel] as ((request: unknown) => unknown) | undefined;
      if (!handler) return { ok: false, error: { code: 'internal', message: `no fake for ${channel}` } };
      const value = await handler(request);
      return isResult(value) ? value : { ok: true, value };
    },
    (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    { offer: async (files) => ({ ok: true, value: files.map(offered) }) },
  );
  window.kikitori = api;
  return {
    api,
    calls,
    handlers,
    emit(event, payload) {
      listeners.get(event)?.forEach((listener) => listener(payload));
    },
  };
}

export function summary(
  id: string,
  patch: Partial<import('../../../src-shared/ipc-contract').TranscriptionSummary> = {},
) {
  return {
    id,
    name: `${id}.wav`,
    status: 'COMPLETED' as const,
    progress: null,
    processingStartedAt: null,
    stage: null,
    duration: 65,
    speakingDuration: 60,
    speakers: 2,
    languages: ['en'],
    model: 'default',
    userName: 'alice',
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:05.000Z',
    failureReason: null,
    warnings: [],
    failureCode: null,
    audioCached: true,
    dictionaryId: null,
    ...patch,
  };
}

/** A transcript detail for 't1' with these segments; the rest of the document is filled in plainly. */
export function transcriptDetail(
  segments: import('../../../src-shared/transcript-document').TranscriptSegment[],
  document: Partial<import('../../../src-shared/transcript-document').TranscriptDocument> = {},
): import('../../../src-shared/ipc-contract').TranscriptDetail {
  const duration = segments.at(-1)?.end ?? 0;
  return {
    summary: summary('t1'),
    speakerNames: {},
    unsyncedEdits: false,
    conflict: null,
    document: {
      transcription_id: 't1',
      text: '',
      language: 'en',
      duration,
      speaking_duration: duration,
      segments,
      replacements: [],
      engine: { name: 'test', model: 'test', transcription_model: 'default' },
      created_at: '2026-01-01T00:00:00Z',
      ...document,
    },
  };
}

/** A fresh profile's settings, with `patch` over them. */
export const freshSettings = (patch: Partial<Settings> = {}): Settings => ({
  activeProfileId: 'embedded',
  uiLanguage: 'en',
  defaults: { ...DEFAULT_UPLOAD_DEFAULTS },
  playbackRate: 1,
  notifications: true,
  ...patch,
});

/** The settings of a fresh profile, with the interface in `uiLanguage`. */
export function setUiLanguage(uiLanguage: UiLanguage) {
  useSettingsStore.setState({ settings: freshSettings({ uiLanguage }) });
}

/** Runs `body` with happy-dom's window at `size` (a low window, say), and gives the old size back after. */
export async function withViewport(size: { width: number; height: number }, body: () => Promise<void> | void) {
  const happy = (window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } })
    .happyDOM;
  const before = { width: window.innerWidth, height: window.innerHeight };
  happy.setViewport(size);
  try {
    await body();
  } finally {
    happy.setViewport(before);
  }
}
