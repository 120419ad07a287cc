// The server's tables as Kysely sees them: one typed schema for SQLite and PostgreSQL alike.
// Timestamps are ISO-8601 text on both (sortable, and identical to what the API shows); JSON values are text;
// booleans are 0/1 integers (better-sqlite3 binds no booleans). `rowid` is SQLite's implicit row id; on
// PostgreSQL the tables listed in insertion order carry an identity column of that name, so one ORDER BY serves both.
import type { ColumnType, Generated, Kysely } from 'kysely';

export interface TeamTable {
  team_id: string;
  created_at: string;
  /** Bumped by triggers on any change a transcription list shows. */
  list_version: Generated<number>;
}

/** A team's own storage quota (migration 0006): bytes, or null for none; no row means the server's default. */
export interface TeamQuotaTable {
  team_id: string;
  /** A bigint on PostgreSQL, which pg returns as a string. */
  quota_bytes: ColumnType<number | string | null, number | null, number | null>;
  updated_at: string;
}

export interface UserTable {
  team_id: string;
  user_id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyTable {
  key_id: string;
  team_id: string;
  user_id: string;
  /** sha256 of the key; the key itself is never stored. */
  key_hash: string;
  key_prefix: string;
  /** JSON array, e.g. ["DELETE"]. */
  roles: string;
  created_at: string;
  revoked_at: string | null;
}

/** Never written: SQLite's implicit row id, or PostgreSQL's identity column of the same name. */
type RowId = ColumnType<number, never, never>;

export interface DictionaryTable {
  rowid: RowId;
  dictionary_id: string;
  team_id: string;
  name: string;
  is_temporary: number;
  created_at: string;
  updated_at: string;
}

export interface WordTable {
  rowid: RowId;
  word_id: string;
  dictionary_id: string;
  word: string;
  reading: string | null;
  created_at: string;
  updated_at: string;
}

export interface BlacklistWordTable {
  rowid: RowId;
  blacklist_word_id: string;
  dictionary_id: string;
  pattern: string;
  replacement: string;
  created_at: string;
  updated_at: string;
}

export interface TranscriptionTable {
  rowid: RowId;
  transcription_id: string;
  team_id: string;
  user_id: string;
  dictionary_id: string | null;
  name: string;
  /** JSON array of ISO 639-1 codes. */
  languages: string;
  transcription_model: string;
  num_speakers: number | null;
  min_speakers: number | null;
  max_speakers: number | null;
  /** 1: each channel transcribed as its own speaker (migration 0011). */
  multichannel: Generated<number>;
  /** 0: the upload opted out of recognizing the team's enrolled voices (migration 0012). */
  recognize_speakers: Generated<number>;
  status: string;
  /** PENDING | COMPLETED */
  upload_status: string;
  upload_expires_at: string;
  audio_key: string | null;
  audio_size: number | null;
  audio_content_type: string | null;
  /** Lowercase hex SHA-256 of the stored audio; null for audio stored before it was recorded. */
  audio_sha256: string | null;
  transcript_key: string | null;
  duration: number | null;
  speaking_duration: number | null;
  progress: number | null;
  processing_started_at: string | null;
  stage: string | null;
  failure_reason: string | null;
  /** A FailureCode (migration 0012); null when it did not fail, or failed before codes were kept. */
  failure_code: string | null;
  engine: string | null;
  /** JSON array of TranscriptionWarning (migration 0012); null: none. */
  warnings: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewTable {
  transcription_id: string;
  reviewed_text: string;
  created_at: string;
  updated_at: string;
}

export interface AnalysisTable {
  rowid: RowId;
  transcription_id: string;
  /** summary | emotion | translation */
  kind: string;
  /** Target language of a translation; '' otherwise. */
  language: string;
  /** IN_PROGRESS | COMPLETED | FAILED */
  status: string;
  /** JSON, once COMPLETED. */
  result: string | null;
  error: string | null;
  /** A FailureCode (migration 0012); null when it did not fail, or failed before codes were kept. */
  error_code: string | null;
  engine: string | null;
  /** The transcript revision it was computed from (migration 0010); null before revisions, or while running. */
  revision: number | null;
  created_at: string;
  updated_at: string;
}

/** SQLite only: the embedded job queue's table (on PostgreSQL the queue keeps pg-boss's own schema). */
export interface JobTable {
  job_id: string;
  name: string;
  payload: string;
  state: string;
  singleton_key: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  worker_id: string | null;
  heartbeat_at: string | null;
  last_error: string | null;
  output: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** What an open tus upload holds of its team's quota until it ends (migration 0008). */
export interface UploadReservationTable {
  upload_id: string;
  transcription_id: string;
  team_id: string;
  /** Its declared Upload-Length. */
  bytes: number;
  created_at: string;
}

/** A transcript's revisions (migration 0009, decision 0052). */
export interface TranscriptRevisionTable {
  transcription_id: string;
  revision: number;
  created_at: string;
  author_user_id: string;
  author_name: string;
  /** recognized | review | edit | dictionary | restore */
  source: string;
  summary: string;
  /** JSON RevisionChange against the revision before; null for the first. */
  change: string | null;
  /** JSON TranscriptDocument, on the first revision and every SNAPSHOT_EVERY-th. */
  snapshot: string | null;
}

/** A team's enrolled voice (migration 0012, decision 0065). */
export interface VoiceTable {
  rowid: RowId;
  voice_id: string;
  team_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** One sample of a voice: its print and where it came from, never audio. */
export interface VoicePrintTable {
  rowid: RowId;
  print_id: string;
  voice_id: string;
  transcription_id: string;
  start_seconds: number;
  end_seconds: number;
  speech_seconds: number;
  kind: string;
  /** JSON array of numbers. */
  print: string;
  created_at: string;
}

export interface Schema {
  teams: TeamTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  dictionaries: DictionaryTable;
  words: WordTable;
  blacklist_words: BlacklistWordTable;
  transcriptions: TranscriptionTable;
  reviews: ReviewTable;
  analyses: AnalysisTable;
  jobs: JobTable;
  team_quotas: TeamQuotaTable;
  upload_reservations: UploadReservationTable;
  transcript_revisions: TranscriptRevisionTable;
  voices: VoiceTable;
  voice_prints: VoicePrintTable;
}

export type Kdb = Kysely<Schema>;
