// Wire types of the Transcription and Dictionary API (../shared/spec/transcription-service-api.md,
// revision 1.9.0 plus the 1.2.0 review operations), as the desktop app reads them. Field names are the
// spec's. Fields marked "extension" are kikitori-server's (docs/decisions/0002-http-conventions.md):
// optional here, because the app may talk to another server implementing the same spec.
// No electron, node or DOM imports here.
import type { AnalysisStatus, EmotionEntry, SummaryDetails, TranslatedSegment } from './analysis.js';
import type { ErrorBody } from './error-codes.js';

export type ApiErrorBody = ErrorBody;

export type ApiTranscriptionStatus = 'IN_PROGRESS' | 'CONVERTING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** The statuses a transcription never leaves (docs/decisions/0001-transcription-states.md). */
export const FINAL_TRANSCRIPTION_STATUSES: readonly ApiTranscriptionStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export interface ApiUser {
  user_id: string;
  name: string;
}

/** 2.1 Transcription. */
export interface ApiTranscription {
  transcription_id: string;
  dictionary_id: string | null;
  team_id: string;
  name: string;
  user?: ApiUser;
  /** Signed, expiring URL of the transcript document; null until COMPLETED. */
  transcription_path: string | null;
  /** Signed, expiring URL of the audio; null until uploaded. */
  audio_path: string | null;
  /** kikitori-server: the requested model until the engine ran, then the engine/model that ran. */
  transcription_model?: string;
  status: ApiTranscriptionStatus;
  speaking_duration: number | null;
  created_at: string;
  updated_at: string;
  // extensions
  /** The transcription_model asked for at upload. */
  requested_model?: string;
  language?: string[];
  upload_status?: 'PENDING' | 'COMPLETED';
  upload_expires_at?: string;
  progress?: number | null;
  duration?: number | null;
  failure_reason?: string | null;
  engine?: string | null;
  num_speakers?: number | null;
  min_speakers?: number | null;
  max_speakers?: number | null;
}

/** 2.4 WordCreateRequest. */
export interface ApiWordCreate {
  word: string;
  reading?: string;
}

/** 4.1.1 Upload request body. */
export interface ApiUploadRequest {
  filename: string;
  dictionary_id?: string;
  language?: string | string[];
  transcription_model?: 'default' | 'diarization-high';
  num_speakers?: number | string;
  min_speakers?: number | string;
  max_speakers?: number | string;
  words?: ApiWordCreate[];
}

/** 2.2 Upload ticket. */
export interface ApiUploadTicket {
  transcription_id: string;
  dictionary_id: string | null;
  team_id: string;
  audio_upload_url: string;
  transcription_model?: string;
  // extensions
  audio_upload_expires_at?: string;
  max_upload_bytes?: number;
}

/** 2.4 Word. */
export interface ApiWord {
  word_id: string;
  dictionary_id: string;
  word: string;
  reading?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiBlacklistWordCreate {
  pattern: string;
  replacement: string;
}

/** 2.5 Forced-replacement (blacklist) word. */
export interface ApiBlacklistWord {
  blacklist_word_id: string;
  dictionary_id: string;
  pattern: string;
  replacement: string;
  created_at: string;
  updated_at: string;
}

/** 2.3 Dictionary list item. */
export interface ApiDictionaryListItem {
  dictionary_id: string;
  team_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** 2.3 Dictionary. */
export interface ApiDictionary extends ApiDictionaryListItem {
  words: ApiWord[];
  is_temporary: boolean;
  /** Extension: the spec has no operation listing blacklist words. */
  blacklist_words?: ApiBlacklistWord[];
}

export interface ApiDictionaryCreate {
  name: string;
  words?: ApiWordCreate[];
  is_temporary?: boolean;
}

export interface ApiDictionaryUpdate {
  name?: string;
  is_temporary?: boolean;
}

/** 2.9 Asynchronous acknowledgment. */
export interface ApiAsyncAck {
  transcription_id: string;
  is_async: boolean;
  status_url: string;
}

interface ApiAnalysisCommon {
  transcription_id: string;
  status: AnalysisStatus;
  // extensions
  engine?: string | null;
  error?: string | null;
  requested_at?: string;
  updated_at?: string;
}

/** 2.6 Summary result, with kikitori-server's anchored details. */
export interface ApiSummaryResult extends ApiAnalysisCommon, Partial<SummaryDetails> {
  summarized_text: string;
}

/** 2.7 Emotion result. */
export interface ApiEmotionResult extends ApiAnalysisCommon {
  emotions: EmotionEntry[];
}

/** 2.8 Translation result. */
export interface ApiTranslationResult extends ApiAnalysisCommon {
  translated_text: string;
  // extensions
  language?: string;
  source_language?: string | null;
  segments?: TranslatedSegment[];
}

/** 4.1.2 Review (revision 1.2.0). */
export interface ApiReview {
  transcription_id: string;
  reviewed_text: string;
}

/** Formats a transcript document can be downloaded in (`transcription_path` + `&format=`). */
export type ApiTranscriptFormat = 'json' | 'srt' | 'vtt' | 'txt';
