// Records as the domain sees them, independent of the storage engine.
import { randomUUID } from 'node:crypto';

import type { ReplacementRule } from './replacements.js';

import {
  FINAL_TRANSCRIPTION_STATUSES,
  type FailureCode,
  type TranscriptionModel,
  type TranscriptionStage,
  type TranscriptionStatus,
  type TranscriptionWarning,
} from '../../src-shared/api/vocabulary.js';

export type { TranscriptionModel, TranscriptionStage, TranscriptionStatus };
export const ENDED_STATUSES = FINAL_TRANSCRIPTION_STATUSES;
export type UploadStatus = 'PENDING' | 'COMPLETED';

/** Who is calling: resolved from the API key. */
export interface Caller {
  teamId: string;
  userId: string;
  userName: string;
  roles: readonly string[];
  keyId: string;
}

export interface DictionaryRecord {
  dictionaryId: string;
  teamId: string;
  name: string;
  isTemporary: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface WordRecord {
  wordId: string;
  dictionaryId: string;
  word: string;
  reading: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A dictionary's replacement rule: `blacklist_words` on the wire and in the database (the spec's name). */
export interface ReplacementRuleRecord extends ReplacementRule {
  replacementRuleId: string;
  dictionaryId: string;
  createdAt: string;
  updatedAt: string;
}

export interface TranscriptionRecord {
  transcriptionId: string;
  teamId: string;
  userId: string;
  userName: string;
  dictionaryId: string | null;
  name: string;
  languages: string[];
  transcriptionModel: TranscriptionModel;
  numSpeakers: number | null;
  minSpeakers: number | null;
  maxSpeakers: number | null;
  /** Each channel transcribed on its own and labelled as its own speaker (decision 0061). */
  multichannel: boolean;
  /** Whether its speakers are matched against the team's enrolled voices (decision 0065). */
  recognizeSpeakers: boolean;
  status: TranscriptionStatus;
  uploadStatus: UploadStatus;
  uploadExpiresAt: string;
  audioKey: string | null;
  audioSize: number | null;
  audioContentType: string | null;
  /** Lowercase hex SHA-256 of the stored audio; null for audio stored before it was recorded. */
  audioSha256: string | null;
  transcriptKey: string | null;
  duration: number | null;
  speakingDuration: number | null;
  progress: number | null;
  /** When this attempt's processing began; null while queued. */
  processingStartedAt: string | null;
  /** What it is doing now; null while queued and once it ended. */
  stage: TranscriptionStage | null;
  failureReason: string | null;
  /** Why it FAILED (or was CANCELLED) as a closed code; null otherwise, and for failures before codes were kept. */
  failureCode: FailureCode | null;
  engine: string | null;
  /** What the reader of the finished transcript should know (decision 0070); empty when nothing. */
  warnings: TranscriptionWarning[];
  createdAt: string;
  updatedAt: string;
}

/** A voice of the team voice library (decision 0065). */
export interface VoiceRecord {
  voiceId: string;
  teamId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** One sample of a voice: where it came from and what its print holds; never audio. */
export interface VoiceSampleRecord {
  sampleId: string;
  voiceId: string;
  transcriptionId: string;
  start: number;
  end: number;
  speechSeconds: number;
  createdAt: string;
}

export const newId = (): string => randomUUID();
export const nowIso = (): string => new Date().toISOString();
