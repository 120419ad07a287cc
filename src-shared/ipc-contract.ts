// The one IPC contract between the renderer and the main process. Every channel maps to its request
// (a TypeBox schema in ./ipc/requests.ts, which main validates against) and its response type;
// `IpcEvents` lists what main pushes to the renderer. Channel names are `domain:verb`. Errors cross
// as data (Electron keeps only the message of a thrown error). No electron, node or DOM imports here.
import type { AnalysisStatus, EmotionEntry, SummaryDetails, TranslatedSegment } from './analysis.js';
import type { TranscriptDocument } from './transcript-document.js';
import type { DecodedRequestOf, RequestOf, SubtitleExportOptions, UploadOptions } from './ipc/requests.js';
import type { CatalogueModel as ApiCatalogueModel, ModelDownload as ApiModelDownload } from './api/models.js';
import type { RevisionSource } from './api/revisions.js';
import type { ErrorReason } from './error-reasons.js';

// Request shapes are TypeBox schemas in ./ipc/requests.ts; these are their Static<> types.
export type {
  ExportOptions,
  SettingsPatch,
  SubtitleExportOptions,
  TranscriptFilter,
  UploadOptions,
  WordInput,
} from './ipc/requests.js';

// ---------- results ----------

/** A closed set: switches over it are exhaustive (end them with assertNever, src-shared/assert-never.ts). */
export type IpcErrorCode =
  | 'offline' // the server cannot be reached; cached data is still available
  | 'unauthorized' // the API key was refused
  | 'forbidden' // the key lacks a role (e.g. DELETE)
  | 'not-found'
  | 'validation' // the request was refused as invalid; `field` names the culprit when known
  | 'conflict' // state conflict, e.g. the transcription is not COMPLETED yet
  | 'too-large'
  | 'insufficient-storage' // the server has no room for it (e.g. a speech model download)
  | 'unsupported' // language or option the server's engines cannot honour
  | 'cancelled'
  | 'server' // the server failed (5xx) after retries
  | 'internal'; // a bug in the app

/**
 * A failure as it crosses IPC. It carries no words: the renderer says `reason` in the UI's language
 * (the catalogue's `error.<reason>`, with `params`), and shows `detail`, the server's own text, under
 * "Details" (decision 0068).
 */
export interface IpcError {
  code: IpcErrorCode;
  /** What to tell the user. Absent in errors stored by an older version: the renderer words `code` then. */
  reason?: ErrorReason;
  /** The reason's parameters ({name}, {host}…). */
  params?: Record<string, string | number>;
  /** The server's (or the system's) own words, untranslated, for the details. */
  detail?: string;
  /** What this failure wraps, said after it ("Your corrections could not be sent: …"). */
  cause?: IpcError;
  /** The request field that caused it, for showing the error next to that field. */
  field?: string;
  /** The server's error_id, for support. */
  errorId?: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---------- domain types ----------

// The API's statuses and models are the app's too.
import type {
  FailureCode,
  ModelErrorKind,
  TranscriptionModel,
  TranscriptionStage,
  TranscriptionStatus,
  TranscriptionWarningCode,
} from './api/vocabulary.js';
export {
  TRANSCRIPTION_MODELS,
  TRANSCRIPTION_STAGES,
  TRANSCRIPTION_STATUSES,
  type TranscriptionModel,
  type TranscriptionStage,
  type TranscriptionStatus,
} from './api/vocabulary.js';
export const UI_LANGUAGES = ['en', 'ja'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

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
  detail: IpcError | null;
  /** Transcriptions still CONVERTING or IN_PROGRESS, being polled. */
  pending: number;
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
  /**
   * Once done: when the server accepted the transcription's start, by the server's clock (its answer's
   * updated_at). A transcription record older than this was read before the start and says nothing of it.
   */
  startedAt: string | null;
}

/**
 * A microphone recording kept on this computer (decision 0027): written as it is recorded, then
 * uploaded like a dropped file, and removed only when discarded or once its transcription keeps its
 * own copy of the audio.
 */
export interface Recording {
  id: string;
  /** "Recording 2026-11-24 14.05.09.webm": the file's name, and the new transcription's. */
  fileName: string;
  size: number;
  createdAt: string;
  /** Its latest upload, if it was queued; null for a recording never queued (e.g. cut short by a crash). */
  upload: UploadJob | null;
}

/**
 * Live text of the recording being made (decision 0073): 'connecting' until the server's live session
 * is open, 'live' while text comes, 'paused' while the connection is down (main reconnects; the recording
 * goes on), 'unavailable' when this server offers no live text (the recording goes on).
 */
export type LiveTextState = 'connecting' | 'live' | 'paused' | 'unavailable';
/** A completed live turn: its text, and the team voice the server recognized in it (null: nobody known). */
export interface LiveTurnText {
  text: string;
  speaker: string | null;
}

export interface LiveText {
  /** The recording's id. */
  id: string;
  state: LiveTextState;
  /** Completed turns, in order. */
  finals: LiveTurnText[];
  /** Words of the turn being spoken, not final yet. */
  partial: string;
}

/** Why a file of an imported folder was not queued. */
export type FolderSkipReason =
  | 'not-media' // not audio or video (by its first bytes)
  | 'empty'
  | 'unreadable'
  | 'too-many'; // beyond the number of files one import queues

/**
 * What importing a folder did: the uploads it queued (media files only), and how many files it left
 * out, by reason and, for files that are not media, by what they look like. Never the names of the
 * files left out: the renderer is not shown a listing of the folder (decision 0046).
 */
export interface FolderImport {
  /** The folder's own name. */
  folder: string;
  jobs: UploadJob[];
  /** How many files were left out, per reason (reasons with none are absent). */
  skipped: Partial<Record<FolderSkipReason, number>>;
  /** Files that are not media, per what they look like ("pdf": 2, "text": 1). */
  notMedia: Record<string, number>;
  /** Subfolders nested too deep to be looked at. */
  foldersTooDeep: number;
}

/**
 * A file or folder the user chose in main's dialog or dropped on the window, as the renderer knows
 * it: an opaque handle main issued, and what to show. Main keeps the path (decision 0046); the
 * renderer hands the handle back to 'uploads:add', 'uploads:add-folder' or 'transcripts:rerun'.
 */
export interface FileOffer {
  handle: string;
  kind: 'file' | 'folder';
  /** The file's or folder's own name, without the folders above it. */
  name: string;
  /** Bytes, for a file; null for a folder. */
  size: number | null;
  /** A file's audio channels as ffprobe reads them; null for a folder or when unknown (decision 0061). */
  channels?: number | null;
}

export interface TranscriptionSummary {
  id: string;
  name: string;
  status: TranscriptionStatus;
  /** 0..1 while converting or transcribing; null otherwise. */
  progress: number | null;
  /** When the server began this attempt (ISO date-time); null while queued, or from servers that do not say. */
  processingStartedAt: string | null;
  /** What it is doing now, while converting or transcribing; null otherwise. */
  stage: TranscriptionStage | null;
  /** Audio length in seconds, once known. */
  duration: number | null;
  speakingDuration: number | null;
  speakers: number | null;
  languages: string[];
  model: string;
  userName: string | null;
  createdAt: string;
  updatedAt: string;
  /** Why it failed, in the server's words (English): shown under "Details". */
  failureReason: string | null;
  /** What the reader of the finished transcript should know (decision 0070); empty when nothing. */
  warnings: TranscriptWarning[];
  /** Why it failed, as the server's closed code: worded in the UI's language; null from servers without it. */
  failureCode: FailureCode | null;
  /** Audio kept on this machine: playable offline. */
  audioCached: boolean;
  /** The dictionary it was transcribed with; null: none (Apply dictionary… then has no "its own" to offer). */
  dictionaryId: string | null;
}

/**
 * A finished transcription's warning (decision 0070), as the app shows it: from its code, in the UI's
 * language. LANGUAGE_MISMATCH: the audio is most likely not in its language; `likelyLanguage` (ISO 639-1)
 * when the server could tell which.
 */
export interface TranscriptWarning {
  code: TranscriptionWarningCode;
  likelyLanguage: string | null;
}

/** What 'Transcribe again' starts from (decision 0020). */
export interface RerunPlan {
  /** The options the transcription was made with: as uploaded from this computer, else read from its record. */
  options: UploadOptions;
  /** True when the options are the ones chosen at upload here; false when rebuilt from the server's record (ad-hoc words are then lost). */
  optionsKnown: boolean;
  /** The recording is on this computer; without it, the file has to be chosen again. */
  audioCached: boolean;
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
  conflict: IpcError | null;
  /**
   * The segments of a conflict to settle one by one ('transcripts:settle-conflict'): edits made here
   * that met a teammate's change of the same segments on the server. Empty or absent when the conflict
   * is not about segments (a deleted transcript, a refusal, a server without revisions), which is
   * settled whole with 'transcripts:resolve-conflict'.
   */
  conflictSegments?: SegmentConflict[];
  /** How many edits can be undone and redone (kept across restarts of the app); absent where not known. */
  history?: EditHistoryCounts;
}

/** One side of a segment in conflict. */
export interface ConflictSide {
  text: string;
  speaker: string | null;
}

/** A segment changed both here (while the edits waited) and on the server since they were made. */
export interface SegmentConflict {
  segmentId: number;
  /** Seconds, as the segment is on the server now (as here when it was removed there). */
  start: number;
  end: number;
  /** As corrected on this computer; null: removed here (merged into another). */
  mine: ConflictSide | null;
  /** As on the server now; null: removed there. */
  theirs: ConflictSide | null;
  /** The names on the keys of those who changed it on the server since the edits here were made. */
  theirAuthors: string[];
}

export interface EditHistoryCounts {
  undo: number;
  redo: number;
}

/** One revision of a transcript on the server (decision 0052), for the History panel. */
export interface TranscriptRevision {
  revision: number;
  /** ISO 8601. */
  createdAt: string;
  /** Who made it: the name on their API key. */
  author: string;
  source: RevisionSource;
  /** A short line saying what changed, from the server, in English: not shown (History says it from the changes). */
  summary: string;
}

export interface TranscriptRevisions {
  /** The revision shown when nothing waits to be sent. */
  latest: number;
  /** Oldest first. */
  revisions: TranscriptRevision[];
}

/** A segment's words and speaker in one version of the transcript. */
export interface RevisionSegmentSide {
  text: string;
  /** The speaker label ("SPEAKER_1"), or null; shown by the user's name for it. */
  speaker: string | null;
}

/** A segment one revision changed: `before` null when the revision added it, `after` null when it removed it. */
export interface RevisionSegmentChange {
  segmentId: number;
  /** Seconds into the audio (the later version's, when there is one). */
  start: number;
  before: RevisionSegmentSide | null;
  after: RevisionSegmentSide | null;
}

/** What one revision changed against the one before it (History); nothing for revision 1, as recognized. */
export interface RevisionChanges {
  revision: number;
  /** The transcript's language: how its words are split for showing what changed. */
  language: string;
  /** In the order of the audio; at most MAX_REVISION_SEGMENT_CHANGES. */
  segments: RevisionSegmentChange[];
  /** Changed segments beyond those listed (a restore or a dictionary can touch thousands). */
  moreSegments: number;
  /** Speaker names set, changed or removed. */
  speakerNames: Array<{ speaker: string; before: string | null; after: string | null }>;
  /** Dictionary replacements this revision made: how many times each rule rewrote a word. */
  replacements: Array<{ pattern: string; replacement: string; count: number }>;
}

/** How many changed segments 'transcripts:revision-changes' lists. */
export const MAX_REVISION_SEGMENT_CHANGES = 200;

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

export interface ReplacementRule {
  id: string;
  pattern: string;
  replacement: string;
}

export interface DictionaryDetail extends DictionarySummary {
  words: DictionaryWord[];
  replacementRules: ReplacementRule[];
}

/** Why one pasted or CSV line cannot be imported: closed codes the renderer words (docs/decisions/0103). */
export const IMPORT_LINE_PROBLEMS = [
  /** Words: more than "word,reading". */
  'too-many-fields',
  'word-empty',
  'word-too-long',
  'reading-too-long',
  /** The shared reading rule (src-shared/word-reading.ts), the one the server applies. */
  'reading-unpronounceable',
  /** Replacement rules: neither "pattern => replacement" nor "pattern,replacement". */
  'rule-format',
  'pattern-empty',
  'pattern-too-long',
  'replacement-too-long',
] as const;
export type ImportLineProblemCode = (typeof IMPORT_LINE_PROBLEMS)[number];

/** One line that cannot be imported: its number (1-based, in the text as sent), its text and why. */
export interface ImportLineProblem {
  line: number;
  text: string;
  problem: ImportLineProblemCode;
}

/**
 * What a bulk import did (docs/decisions/0103-bulk-import-lines.md).
 * - `checked`: some lines cannot be imported, so nothing was sent; `problems` lists the first of them
 *   (at most IMPORT_PROBLEMS_LISTED), `badLines` counts them all, `goodLines` counts the others.
 * - `imported`: every good line was sent; `skippedLines` bad lines were left out at the user's word, and
 *   `duplicateLines` words already in the dictionary (or earlier in the text) were not sent (decision 0102).
 * - `partly-imported`: the server took lines 1 to `lastImportedLine` (`importedLines` of them) and then
 *   refused or could not be reached (`error`): lines `firstNotImportedLine` to the end were not sent.
 * `detail` is the dictionary as the server has it after the import (as last read when it cannot be reached).
 */
export type DictionaryImport =
  | { outcome: 'checked'; problems: ImportLineProblem[]; badLines: number; goodLines: number }
  | {
      outcome: 'imported';
      detail: DictionaryDetail;
      importedLines: number;
      skippedLines: number;
      duplicateLines: number;
    }
  | {
      outcome: 'partly-imported';
      detail: DictionaryDetail | null;
      importedLines: number;
      lastImportedLine: number;
      firstNotImportedLine: number;
      error: IpcError;
    };

/** How many bad lines a `checked` import lists (the rest are counted). */
export const IMPORT_PROBLEMS_LISTED = 100;

/** An enrolled voice of the team's voice library (decision 0075): what the app shows, never the prints. */
export interface VoiceSummary {
  id: string;
  name: string;
  sampleCount: number;
  /** Seconds of speech in all its samples. */
  speechSeconds: number;
  createdAt: string;
  updatedAt: string;
}

/** One part of a transcription a voice was learned from (never the audio itself; the server keeps only its print). */
export interface VoiceSample {
  id: string;
  transcriptionId: string;
  /** The transcription's name when it is in this library; null when it is not (another member's, or deleted). */
  transcriptionName: string | null;
  start: number;
  end: number;
  /** Seconds of speech the server found in the part. */
  speechSeconds: number;
  createdAt: string;
}

/** A voice with the parts of transcriptions it was learned from, as the server has it now. */
export interface VoiceDetail {
  voice: VoiceSummary;
  samples: VoiceSample[];
}

export interface VoiceList {
  voices: VoiceSummary[];
  /** The server could not be reached: the list is the one last seen, read-only. */
  offline: boolean;
  /** When the list was last had from the server; null: never. */
  listedAt: string | null;
}

/** "This is…": the voice enrolled or extended, and the transcript with the speaker named after it. */
export interface VoiceIdentified {
  voice: VoiceSummary;
  /** A new voice was enrolled (not an existing one extended). */
  enrolled: boolean;
  /** Seconds of this transcription sent as samples. */
  sampleSeconds: number;
  transcript: TranscriptDetail;
}

export const ANALYSIS_KINDS = ['summary', 'emotion', 'translation'] as const;
export type AnalysisKind = (typeof ANALYSIS_KINDS)[number];

export interface AnalysisView {
  kind: AnalysisKind;
  status: AnalysisStatus;
  language: string | null;
  /** Why it FAILED, in the server's words (English): shown under "Details". */
  error: string | null;
  /** Why it FAILED, as the server's closed code: worded in the UI's language. */
  errorCode: FailureCode | null;
  summary: (SummaryDetails & { text: string }) | null;
  emotions: EmotionEntry[] | null;
  translation: { text: string; language: string; segments: TranslatedSegment[] } | null;
  updatedAt: string;
  /**
   * True when the transcript changed after this result was made: the server says so (its revision is
   * older than the transcript's), or edits made on this computer have not reached the server yet.
   */
  outdated: boolean;
}

/** What a transcript can be translated into on the active server (decision 0087). */
export interface TranslationTargets {
  /** The transcript's language the targets are from. */
  source: string;
  /** ISO 639-1 targets the server translates on its own, without a network service. */
  offline: string[];
  /** Targets named by the server's LLM endpoint (beside any language when `llmAnyLanguage`). */
  llm: string[];
  /** A language-model endpoint is configured on the server: any other language goes through it. */
  llmAnyLanguage: boolean;
}

/**
 * The options new uploads start from: the upload form's last valid choice, remembered across restarts
 * (Settings → "Defaults for new uploads" edits the same values). Ad-hoc words are not remembered: they
 * make a temporary dictionary for one upload.
 */
export interface UploadDefaults {
  /** One ISO 639-1 code, several, or null (none chosen: detect where the engine can). */
  language: string | string[] | null;
  model: TranscriptionModel;
  /** "Exactly N" speakers; null with min/max null too: detect automatically. */
  numSpeakers: number | null;
  /** "Between min and max" speakers (either may be null). */
  minSpeakers: number | null;
  maxSpeakers: number | null;
  /** A dictionary of the active server; null: none. */
  dictionaryId: string | null;
}

/** A new profile's upload defaults: no language chosen, the standard model, speakers detected, no dictionary. */
export const DEFAULT_UPLOAD_DEFAULTS: Readonly<UploadDefaults> = {
  language: null,
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
};

export interface CollapsedPanels {
  uploads?: boolean;
  speechOffer?: boolean;
}

export interface Settings {
  activeProfileId: string;
  uiLanguage: UiLanguage;
  defaults: UploadDefaults;
  playbackRate: number;
  notifications: boolean;
  /**
   * Library panels the user collapsed (true) or opened (false); a panel absent here follows the window's
   * height (collapsed in a low window).
   */
  collapsedPanels?: CollapsedPanels;
  /** The subtitle options of the last SRT or WebVTT export; absent until the first. */
  subtitleExport?: SubtitleExportOptions;
}

// ---------- speech models (Settings → Speech recognition) ----------

// The HTTP contract's hints and statuses, as types only (the renderer bundles no TypeBox).
export type SpeechModelSpeed = ApiCatalogueModel['speed'];
export type SpeechModelAccuracy = ApiCatalogueModel['accuracy'];
export type SpeechModelPrecision = NonNullable<ApiCatalogueModel['precision']>;
/** The server's download statuses, and INSTALLING: main sending a model file the user chose to the server. */
export type SpeechModelDownloadStatus = ApiModelDownload['status'] | 'INSTALLING';

export interface SpeechModelDownload {
  model: string;
  status: SpeechModelDownloadStatus;
  receivedBytes: number;
  totalBytes: number;
  /** Why it FAILED, as the server words it (shown as a detail under the app's own message). */
  error: string | null;
  /** Why it FAILED, as the server's closed code: worded in the UI's language; null from servers without it. */
  errorCode: ModelErrorKind | null;
  /** Set when the app could not follow the download to its end (the server went away): why. */
  unfollowed?: IpcError;
}

export interface SpeechModel {
  name: string;
  /** The catalogue's file name ("ggml-small.bin"): what to choose when installing from a file. */
  file: string;
  bytes: number;
  /** The model this file is a build of ("small" for small.en-q5_1): the list groups files under it. */
  family: string;
  /** true: about 99 languages; false: English only. */
  multilingual: boolean;
  languages: string[];
  quantized: boolean;
  /** What the file keeps of its model's accuracy: full, near-full (8-bit), reduced (5-bit or fewer). */
  precision: SpeechModelPrecision;
  /** The model's (the full file's) speed and accuracy. */
  speed: SpeechModelSpeed;
  accuracy: SpeechModelAccuracy;
  installed: boolean;
  /** Installed, but the server cannot load it (engine auto skips it): delete it and download it again. */
  damaged: boolean;
  /** The latest download since the server started, or null. */
  download: SpeechModelDownload | null;
}

/** Which engine and model serve a transcription_model now. */
export interface SpeechEngineInUse {
  engine: string;
  model: string | null;
  detectsLanguage: boolean;
  languages: string[];
  usable: boolean;
  /** Why it is not usable, in the user's terms. */
  reason: string | null;
}

export interface SpeechModels {
  models: SpeechModel[];
  serving: Record<TranscriptionModel, SpeechEngineInUse>;
  /** The API key may download and delete models (OPERATOR role). */
  canManage: boolean;
  /** The server runs on this computer (the embedded one, or a loopback address): its memory is this machine's. */
  local: boolean;
  /** The model that suits this computer's memory, when the server is local; null otherwise. */
  recommended: string | null;
  /** Offer `recommended` once: nothing is installed, neither whisper nor a remote service transcribes, the key may download, and the offer was not dismissed. */
  offer: boolean;
}
/** What recognizes speech for one transcription model on the active server. */
export interface ServingEngine {
  /** e.g. "whisper", "pocketsphinx" (for details, not for the user). */
  engine: string;
  /** It can be left to detect the language. */
  detectsLanguage: boolean;
  /** ISO 639-1 codes it recognizes. */
  languages: string[];
}
export type ServingLanguages = Record<TranscriptionModel, ServingEngine>;

export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'json', 'docx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// ---------- channels ----------

/** Each channel's response. Its request is `IPC_REQUESTS[channel]` in ./ipc/requests.ts. */
export interface IpcResponses {
  'app:info': { version: string; platform: string; locale: string };

  'connection:status': ConnectionStatus;
  'profiles:list': ServerProfile[];
  'profiles:add': ServerProfile;
  'profiles:remove': void;
  'profiles:activate': ConnectionStatus;

  'settings:get': Settings;
  'settings:update': Settings;

  /**
   * What the active server's engines recognize, per transcription model (GET /api/v1/models);
   * null when the server does not say (an older server, or offline): the app then offers every
   * language and no detection.
   */
  'languages:serving': ServingLanguages | null;

  'transcripts:list': { items: TranscriptionSummary[]; total: number };
  'transcripts:get': TranscriptDetail;
  'transcripts:delete': void;
  /** Saves edited segment texts; word timing is kept where the words still match. */
  'transcripts:edit': TranscriptDetail;
  /** One edit (a word, find & replace, merge, split, a segment's speaker): a revision; queued offline. */
  'transcripts:edit-document': TranscriptDetail;
  'transcripts:undo': TranscriptDetail;
  'transcripts:redo': TranscriptDetail;
  'transcripts:rename-speaker': TranscriptDetail;
  /** A dictionary's forced replacements applied on the server to the finished transcript; answers it as rewritten. */
  'transcripts:apply-dictionary': TranscriptDetail;
  /** Settles a conflict: 'local' sends this computer's correction over the server's, 'server' drops it. */
  'transcripts:resolve-conflict': TranscriptDetail;
  /**
   * Settles a conflict segment by segment: each listed segment gets the text and speaker chosen (or merged);
   * conflicting segments not listed keep the server's version; a segment removed on the server (`theirs`
   * null) cannot be listed (refused with `field: segments.<i>`). The edits made here that met no conflict
   * are sent too. The transcript as shown afterwards; 'conflict' when someone changed those segments again
   * meanwhile (the detail then has the new `conflictSegments`).
   */
  'transcripts:settle-conflict': TranscriptDetail;
  /** The transcript's revisions on the server (History). */
  'transcripts:revisions': TranscriptRevisions;
  /** A new revision equal to an older one; the transcript as shown afterwards. */
  'transcripts:restore-revision': TranscriptDetail;
  /** What a revision changed against the one before it (History). */
  'transcripts:revision-changes': RevisionChanges;
  /**
   * null: the save dialog was cancelled. `subtitles` (SRT, WebVTT): how many cues, how many read faster than
   * `maxCps`, and which (`fast`, in order), so the export can list them with a jump to each.
   */
  'transcripts:export': { path: string; subtitles?: SubtitleReport } | null;
  'transcripts:refresh': ConnectionStatus;
  /**
   * The transcript open in a visible window (null: none), and whether the user is typing in one of its
   * editors: main checks it for a teammate's newer revision every few seconds, and shows it (through
   * 'transcripts:changed') once nothing is being typed or waits to be sent (decision 0056).
   */
  'transcripts:follow': void;
  /** The options and audio a new transcription of this one would start from. */
  'transcripts:rerun-plan': RerunPlan;
  /**
   * Transcribes again with `options` or the original ones. On a server that can (decision 0062), in place
   * from the server's audio: answers null, and the row itself shows the run. Otherwise (or with ad-hoc words,
   * or `file`, the handle of a file chosen again) a new upload of the audio on this computer; a FAILED
   * transcription is replaced: deleted once the new one has started and kept its own copy of the audio.
   * Answers the queued upload.
   */
  'transcripts:rerun': UploadJob | null;

  'search:query': SearchHit[];

  /** The system's file dialog: handles of the files chosen; [] when cancelled. */
  'uploads:pick': FileOffer[];
  'uploads:add': UploadJob[];
  /** The system's folder dialog: the chosen folder's handle; null when cancelled. */
  'uploads:pick-folder': FileOffer | null;
  /** Queues the audio and video files in a folder and its subfolders (src-main/uploads/folder-scan.ts), with one set of options. */
  'uploads:add-folder': FolderImport;
  'uploads:list': UploadJob[];
  'uploads:cancel': void;
  /** Removes finished (done and cancelled) uploads from the list; answers how many. Failed ones stay until retried or cleared by hand. */
  'uploads:clear-finished': number;
  /** Tries a failed, cancelled or waiting upload again now. */
  'uploads:retry': UploadJob;

  /** Opens a new recording file; chunks follow with 'recordings:append'. */
  'recordings:start': Recording;
  /** Appends one chunk at `offset` (the bytes already kept); answers the size kept. */
  'recordings:append': { size: number };
  /** 16 kHz PCM of the recording for live text (never kept: the recording itself is the appended chunks). */
  'recordings:live-audio': void;
  /** The recording is complete: it is queued for upload like a dropped file, with `options`. */
  'recordings:finish': UploadJob;
  /** Recordings on this computer (those still waiting for, or without, a finished upload). */
  'recordings:list': Recording[];
  /** Deletes a recording, cancelling and forgetting an upload of it that has not finished. */
  'recordings:discard': void;

  'audio:peaks': WaveformPeaks;
  /** A URL the renderer's <audio> can play, local when cached. */
  'audio:source': { url: string; local: boolean };

  'dictionaries:list': DictionarySummary[];
  'dictionaries:get': DictionaryDetail;
  'dictionaries:create': DictionaryDetail;
  'dictionaries:rename': DictionaryDetail;
  'dictionaries:delete': void;
  'dictionaries:add-words': DictionaryDetail;
  'dictionaries:remove-word': DictionaryDetail;
  'dictionaries:add-replacement-rules': DictionaryDetail;
  'dictionaries:remove-replacement-rule': DictionaryDetail;
  /**
   * CSV or pasted lines: "word,reading" for words, "pattern => replacement" or "pattern,replacement" with kind
   * 'replacement-rules'. Every line is checked first: with a bad line nothing is sent unless `skipBadLines`.
   */
  'dictionaries:import': DictionaryImport;

  /** The team's voices; offline, the list last seen (read-only). */
  'voices:list': VoiceList;
  /** "This is…": enrols a voice from a speaker's segments (or adds them to one), then names the speaker. */
  'voices:identify': VoiceIdentified;
  'voices:rename': VoiceSummary;
  /** Deletes the voice and its voice prints on the server. */
  'voices:delete': void;
  /** The parts of transcriptions a voice was learned from (online only). */
  'voices:samples': VoiceDetail;
  /** Forgets one part: its voice print is deleted on the server; the voice keeps the others. */
  'voices:remove-sample': VoiceDetail;

  'analysis:request': AnalysisView;
  'analysis:get': AnalysisView | null;
  /** What the transcript can be translated into, offline and through the server's LLM endpoint. */
  'analysis:translation-targets': TranslationTargets;

  /** The active server's speech models, what serves transcriptions now, and the first-run offer. */
  'models:list': SpeechModels;
  /** Starts a download on the server; progress arrives as 'models:changed'. */
  'models:download': SpeechModels;
  'models:cancel': SpeechModels;
  'models:delete': SpeechModels;
  /** Asks main's file dialog for the model's file and sends it to the server; progress arrives as 'models:changed'. */
  'models:install-file': SpeechModels;
  /** Never show the first-run offer again. */
  'models:dismiss-offer': SpeechModels;

  /**
   * Preload only (never on `window.kikitori`): the paths of files dropped on the window, which only the
   * preload can read from a File (webUtils.getPathForFile), registered as handles (decision 0046).
   */
  'files:offer-dropped': FileOffer[];
}

/** Every channel with its request and response: the requests derive from their schemas. */
export type IpcChannels = { [C in keyof IpcResponses]: { request: RequestOf<C>; response: IpcResponses[C] } };
export type IpcChannel = keyof IpcResponses;
export type IpcRequest<C extends IpcChannel> = IpcChannels[C]['request'];
/** The request as its handler receives it: validated and normalised (trimmed, lower-cased) in main. */
export type IpcValidRequest<C extends IpcChannel> = DecodedRequestOf<C>;
export type IpcResponse<C extends IpcChannel> = IpcChannels[C]['response'];

export interface IpcEvents {
  'uploads:changed': UploadJob;
  'transcripts:changed': { ids: string[] };
  'connection:changed': ConnectionStatus;
  'analysis:changed': { id: string; kind: AnalysisKind; language: string | null };
  /** A download's progress; on a final status (COMPLETED, FAILED, CANCELLED) the list has changed too. */
  'models:changed': SpeechModelDownload;
  /** The live text of the recording being made, whole each time. */
  'recordings:live': LiveText;
}
export type IpcEvent = keyof IpcEvents;

// Every channel's name at run time, for main's handler registry and the preload's API. The preload and
// the renderer bundle no TypeBox, so the names cannot come from IPC_REQUESTS; the compiler holds this
// object to exactly the keys of IpcResponses (a missing or extra channel does not compile), and
// IPC_REQUESTS is held to them the same way.
const CHANNEL_NAMES = {
  'app:info': true,
  'connection:status': true,
  'profiles:list': true,
  'profiles:add': true,
  'profiles:remove': true,
  'profiles:activate': true,
  'settings:get': true,
  'settings:update': true,
  'languages:serving': true,
  'transcripts:list': true,
  'transcripts:get': true,
  'transcripts:delete': true,
  'transcripts:edit': true,
  'transcripts:edit-document': true,
  'transcripts:undo': true,
  'transcripts:redo': true,
  'transcripts:rename-speaker': true,
  'transcripts:apply-dictionary': true,
  'transcripts:resolve-conflict': true,
  'transcripts:settle-conflict': true,
  'transcripts:revisions': true,
  'transcripts:restore-revision': true,
  'transcripts:revision-changes': true,
  'transcripts:export': true,
  'transcripts:refresh': true,
  'transcripts:follow': true,
  'transcripts:rerun-plan': true,
  'transcripts:rerun': true,
  'search:query': true,
  'uploads:pick': true,
  'uploads:add': true,
  'uploads:pick-folder': true,
  'uploads:add-folder': true,
  'uploads:list': true,
  'uploads:cancel': true,
  'uploads:clear-finished': true,
  'uploads:retry': true,
  'recordings:start': true,
  'recordings:append': true,
  'recordings:live-audio': true,
  'recordings:finish': true,
  'recordings:list': true,
  'recordings:discard': true,
  'audio:peaks': true,
  'audio:source': true,
  'dictionaries:list': true,
  'dictionaries:get': true,
  'dictionaries:create': true,
  'dictionaries:rename': true,
  'dictionaries:delete': true,
  'dictionaries:add-words': true,
  'dictionaries:remove-word': true,
  'dictionaries:add-replacement-rules': true,
  'dictionaries:remove-replacement-rule': true,
  'dictionaries:import': true,
  'voices:list': true,
  'voices:identify': true,
  'voices:rename': true,
  'voices:delete': true,
  'voices:samples': true,
  'voices:remove-sample': true,
  'analysis:request': true,
  'analysis:get': true,
  'analysis:translation-targets': true,
  'models:list': true,
  'models:download': true,
  'models:cancel': true,
  'models:delete': true,
  'models:install-file': true,
  'models:dismiss-offer': true,
  'files:offer-dropped': true,
} as const satisfies Record<IpcChannel, true>;
export const IPC_CHANNELS = Object.freeze(Object.keys(CHANNEL_NAMES)) as readonly IpcChannel[];

/** Channels only the preload calls: main serves them, the renderer's API does not have them. */
export const PRELOAD_CHANNELS = ['files:offer-dropped'] as const satisfies readonly IpcChannel[];
export type PreloadChannel = (typeof PRELOAD_CHANNELS)[number];
/** What the renderer may call. */
export type RendererChannel = Exclude<IpcChannel, PreloadChannel>;

const EVENT_NAMES = {
  'uploads:changed': true,
  'transcripts:changed': true,
  'connection:changed': true,
  'analysis:changed': true,
  'models:changed': true,
  'recordings:live': true,
} as const satisfies Record<IpcEvent, true>;
export const IPC_EVENTS = Object.freeze(Object.keys(EVENT_NAMES)) as readonly IpcEvent[];

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? V : never;
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

/**
 * The curated API the preload exposes as `window.kikitori`: one named method per channel, grouped by
 * domain (`kikitori.transcripts.list(...)` for 'transcripts:list'), never a generic invoke.
 */
export type KikitoriApi = {
  [D in DomainOf<RendererChannel>]: {
    [C in Extract<RendererChannel, `${D}:${string}`> as Camel<VerbOf<C>>]: (
      ...request: IpcRequest<C> extends void ? [] : [IpcRequest<C>]
    ) => Promise<IpcResult<IpcResponse<C>>>;
  };
} & {
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
  /** Not a channel: only the preload (or the test host's bridge) can turn a dropped File into a path. */
  files: FilesApi;
};

/**
 * With sandboxing and context isolation a dropped File carries no path, and the renderer never sees
 * one. The preload (Electron: webUtils.getPathForFile) or the test host's bridge (bytes staged on its
 * disk) reads the path and registers it with main ('files:offer-dropped'), which answers handles; the
 * renderer then calls `uploads.add({ files })` with them like any other caller. A page cannot make a
 * File that names a path of its choosing, so this is where a path enters main from a drop.
 */
export interface FilesApi {
  offer(files: File[]): Promise<IpcResult<FileOffer[]>>;
}

/** 'transcripts:rename-speaker' -> ['transcripts', 'renameSpeaker']: how the preload names each channel. */
export function apiPathOf(channel: IpcChannel): [domain: string, method: string] {
  const [domain, verb] = channel.split(':') as [string, string];
  return [domain, verb.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
}

/** A subtitle that reads too fast, as the export lists it. */
export interface FastSubtitle {
  /** Its number in the file, from 1. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  /** The cue's lines, as written (WebVTT voice tags and escapes removed). */
  text: string;
  /** Characters per second. */
  cps: number;
  /** The segment it shows (the first, when it joined two). */
  segmentId: number;
}

export interface SubtitleReport {
  cues: number;
  tooFast: number;
  maxCps: number;
  fast: FastSubtitle[];
}
