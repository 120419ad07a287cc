// The one IPC contract between the renderer and the main process. Every channel maps to its request
// and response types; `IpcEvents` lists what main pushes to the renderer. Channel names are
// `domain:verb`. Errors cross as data (Electron keeps only the message of a thrown error).
// No electron, node or DOM imports here.
import type { AnalysisStatus, EmotionEntry, SummaryDetails, TranslatedSegment } from './analysis.js';
import type { TranscriptDocument } from './transcript-document.js';

// ---------- results ----------

/** A closed set: switches over it are exhaustive. */
export type IpcErrorCode =
  | 'offline' // the server cannot be reached; cached data is still available
  | 'unauthorized' // the API key was refused
  | 'forbidden' // the key lacks a role (e.g. DELETE)
  | 'not-found'
  | 'validation' // the request was refused as invalid; `field` names the culprit when known
  | 'conflict' // state conflict, e.g. the transcription is not COMPLETED yet
  | 'too-large'
  | 'unsupported' // language or option the server's engines cannot honour
  | 'cancelled'
  | 'server' // the server failed (5xx) after retries
  | 'internal'; // a bug in the app

export interface IpcError {
  code: IpcErrorCode;
  /** Ready to show to the user: what happened and what to do. */
  message: string;
  /** The request field that caused it, for showing the error next to that field. */
  field?: string;
  /** The server's error_id, for support. */
  errorId?: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---------- domain types ----------

export type TranscriptionStatus = 'IN_PROGRESS' | 'CONVERTING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export type TranscriptionModel = 'default' | 'diarization-high';

export interface ServerProfile {
  id: string;
  name: string;
  /** 'embedded' is the kikitori-server the app starts on loopback. */
  kind: 'embedded' | 'remote';
  baseUrl: string;
}

export interface ConnectionStatus {
  activeProfileId: string;
  online: boolean;
  /** Why offline, when it is. */
  detail: string | null;
  /** Transcriptions still CONVERTING or IN_PROGRESS, being polled. */
  pending: number;
}

export interface UploadOptions {
  language: string | null;
  model: TranscriptionModel;
  numSpeakers: number | null;
  minSpeakers: number | null;
  maxSpeakers: number | null;
  dictionaryId: string | null;
  /** Ad-hoc words: sent as upload `words`, which makes a temporary dictionary. */
  words: Array<{ word: string; reading?: string }>;
}

export type UploadState = 'queued' | 'uploading' | 'starting' | 'done' | 'failed' | 'cancelled';

export interface UploadJob {
  id: string;
  filePath: string;
  fileName: string;
  size: number;
  sentBytes: number;
  state: UploadState;
  /** Set once the server issued a ticket. */
  transcriptionId: string | null;
  error: IpcError | null;
  createdAt: string;
}

export interface TranscriptionSummary {
  id: string;
  name: string;
  status: TranscriptionStatus;
  /** 0..1 while converting or transcribing; null otherwise. */
  progress: number | null;
  /** Audio length in seconds, once known. */
  duration: number | null;
  speakingDuration: number | null;
  speakers: number | null;
  languages: string[];
  model: string;
  userName: string | null;
  createdAt: string;
  updatedAt: string;
  failureReason: string | null;
  /** Audio kept on this machine: playable offline. */
  audioCached: boolean;
}

export interface TranscriptFilter {
  status?: TranscriptionStatus[];
  language?: string;
  /** Full-text query over transcripts, summaries and translations. */
  text?: string;
}

export interface TranscriptDetail {
  summary: TranscriptionSummary;
  /** The transcript document, with local edits and speaker names applied; null until COMPLETED. */
  document: TranscriptDocument | null;
  /** Speaker label -> display name chosen by the user. */
  speakerNames: Record<string, string>;
  /** True when local edits have not reached the server yet. */
  unsyncedEdits: boolean;
  /**
   * Why the queued correction was not sent (someone else corrected it on the server meanwhile, or the
   * server refused it), ready to show; null when there is no conflict. Settle it with
   * 'transcripts:resolve-conflict'.
   */
  conflict: string | null;
}

export interface SearchHit {
  transcriptionId: string;
  transcriptionName: string;
  kind: 'transcript' | 'summary' | 'translation';
  segmentId: number | null;
  /** Seconds into the audio, when the hit is in a segment. */
  start: number | null;
  /** Text around the hit, with the matched terms wrapped in [[ and ]]. */
  snippet: string;
}

export interface WaveformPeaks {
  /** Min/max pairs per bucket, normalised to -1..1, one array per channel (mono: one). */
  peaks: number[][];
  duration: number;
  /** Buckets per second of audio. */
  resolution: number;
}

export interface DictionarySummary {
  id: string;
  name: string;
  isTemporary: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DictionaryWord {
  id: string;
  word: string;
  reading: string | null;
}

export interface DictionaryReplacement {
  id: string;
  pattern: string;
  replacement: string;
}

export interface DictionaryDetail extends DictionarySummary {
  words: DictionaryWord[];
  replacements: DictionaryReplacement[];
}

export type AnalysisKind = 'summary' | 'emotion' | 'translation';

export interface AnalysisView {
  kind: AnalysisKind;
  status: AnalysisStatus;
  language: string | null;
  error: string | null;
  summary: (SummaryDetails & { text: string }) | null;
  emotions: EmotionEntry[] | null;
  translation: { text: string; language: string; segments: TranslatedSegment[] } | null;
  updatedAt: string;
}

export interface Settings {
  activeProfileId: string;
  uiLanguage: 'en' | 'ja';
  defaults: { language: string | null; model: TranscriptionModel; numSpeakers: number | null };
  playbackRate: number;
  notifications: boolean;
}

export type ExportFormat = 'txt' | 'srt' | 'vtt' | 'json' | 'docx';
export interface ExportOptions {
  format: ExportFormat;
  speakers: boolean;
  timestamps: boolean;
}

// ---------- channels ----------

export interface IpcChannels {
  'app:info': { request: void; response: { version: string; platform: string; locale: string } };

  'connection:status': { request: void; response: ConnectionStatus };
  'profiles:list': { request: void; response: ServerProfile[] };
  'profiles:add': { request: { name: string; baseUrl: string; apiKey: string }; response: ServerProfile };
  'profiles:remove': { request: { id: string }; response: void };
  'profiles:activate': { request: { id: string }; response: ConnectionStatus };

  'settings:get': { request: void; response: Settings };
  'settings:update': { request: Partial<Omit<Settings, 'activeProfileId'>>; response: Settings };

  'transcripts:list': { request: { filter?: TranscriptFilter; offset?: number; limit?: number }; response: { items: TranscriptionSummary[]; total: number } };
  'transcripts:get': { request: { id: string }; response: TranscriptDetail };
  'transcripts:delete': { request: { id: string }; response: void };
  /** Saves edited segment texts; word timing is kept where the words still match. */
  'transcripts:edit': { request: { id: string; segments: Array<{ id: number; text: string }> }; response: TranscriptDetail };
  'transcripts:rename-speaker': { request: { id: string; speaker: string; name: string }; response: TranscriptDetail };
  /** Settles a conflict: 'local' sends this computer's correction over the server's, 'server' drops it. */
  'transcripts:resolve-conflict': { request: { id: string; keep: 'local' | 'server' }; response: TranscriptDetail };
  'transcripts:export': { request: { id: string; options: ExportOptions }; response: { path: string } | null };
  'transcripts:refresh': { request: void; response: ConnectionStatus };

  'search:query': { request: { text: string; limit?: number }; response: SearchHit[] };

  'uploads:pick': { request: void; response: string[] };
  'uploads:add': { request: { paths: string[]; options: UploadOptions }; response: UploadJob[] };
  'uploads:list': { request: void; response: UploadJob[] };
  'uploads:cancel': { request: { id: string }; response: void };

  'audio:peaks': { request: { id: string }; response: WaveformPeaks };
  /** A URL the renderer's <audio> can play, local when cached. */
  'audio:source': { request: { id: string }; response: { url: string; local: boolean } };

  'dictionaries:list': { request: void; response: DictionarySummary[] };
  'dictionaries:get': { request: { id: string }; response: DictionaryDetail };
  'dictionaries:create': { request: { name: string; words?: Array<{ word: string; reading?: string }> }; response: DictionaryDetail };
  'dictionaries:rename': { request: { id: string; name: string }; response: DictionaryDetail };
  'dictionaries:delete': { request: { id: string }; response: void };
  'dictionaries:add-words': { request: { id: string; words: Array<{ word: string; reading?: string }> }; response: DictionaryDetail };
  'dictionaries:remove-word': { request: { id: string; wordId: string }; response: DictionaryDetail };
  'dictionaries:add-replacements': { request: { id: string; replacements: Array<{ pattern: string; replacement: string }> }; response: DictionaryDetail };
  'dictionaries:remove-replacement': { request: { id: string; replacementId: string }; response: DictionaryDetail };
  /** CSV or pasted lines: "word,reading" for words, "pattern => replacement" or "pattern,replacement" with kind 'replacements'. */
  'dictionaries:import': { request: { id: string; text: string; kind: 'words' | 'replacements' }; response: DictionaryDetail };

  'analysis:request': { request: { id: string; kind: AnalysisKind; language?: string }; response: AnalysisView };
  'analysis:get': { request: { id: string; kind: AnalysisKind; language?: string }; response: AnalysisView | null };
}

export type IpcChannel = keyof IpcChannels;
export type IpcRequest<C extends IpcChannel> = IpcChannels[C]['request'];
export type IpcResponse<C extends IpcChannel> = IpcChannels[C]['response'];

export interface IpcEvents {
  'uploads:changed': UploadJob;
  'transcripts:changed': { ids: string[] };
  'connection:changed': ConnectionStatus;
  'analysis:changed': { id: string; kind: AnalysisKind; language: string | null };
}
export type IpcEvent = keyof IpcEvents;

export const IPC_CHANNELS = [
  'app:info',
  'connection:status',
  'profiles:list',
  'profiles:add',
  'profiles:remove',
  'profiles:activate',
  'settings:get',
  'settings:update',
  'transcripts:list',
  'transcripts:get',
  'transcripts:delete',
  'transcripts:edit',
  'transcripts:rename-speaker',
  'transcripts:resolve-conflict',
  'transcripts:export',
  'transcripts:refresh',
  'search:query',
  'uploads:pick',
  'uploads:add',
  'uploads:list',
  'uploads:cancel',
  'audio:peaks',
  'audio:source',
  'dictionaries:list',
  'dictionaries:get',
  'dictionaries:create',
  'dictionaries:rename',
  'dictionaries:delete',
  'dictionaries:add-words',
  'dictionaries:remove-word',
  'dictionaries:add-replacements',
  'dictionaries:remove-replacement',
  'dictionaries:import',
  'analysis:request',
  'analysis:get',
] as const satisfies readonly IpcChannel[];

export const IPC_EVENTS = ['uploads:changed', 'transcripts:changed', 'connection:changed', 'analysis:changed'] as const satisfies readonly IpcEvent[];

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? V : never;
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

/**
 * The curated API the preload exposes as `window.kikitori`: one named method per channel, grouped by
 * domain (`kikitori.transcripts.list(...)` for 'transcripts:list'), never a generic invoke.
 */
export type KikitoriApi = {
  [D in DomainOf<IpcChannel>]: {
    [C in Extract<IpcChannel, `${D}:${string}`> as Camel<VerbOf<C>>]: (
      ...request: IpcRequest<C> extends void ? [] : [IpcRequest<C>]
    ) => Promise<IpcResult<IpcResponse<C>>>;
  };
} & {
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
  /** Not a channel: only the preload (or the test host's bridge) can turn a dropped File into a path. */
  files: FilesApi;
};

/**
 * With sandboxing and context isolation a dropped File carries no path. The preload (Electron:
 * webUtils.getPathForFile) or the test host's bridge (bytes staged on its disk) returns a path the
 * handlers can read; the renderer then calls `uploads.add({ paths })` like any other caller.
 */
export interface FilesApi {
  localPath(file: File): Promise<IpcResult<string>>;
}

/** 'transcripts:rename-speaker' -> ['transcripts', 'renameSpeaker']: how the preload names each channel. */
export function apiPathOf(channel: IpcChannel): [domain: string, method: string] {
  const [domain, verb] = channel.split(':') as [string, string];
  return [domain, verb.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
}
