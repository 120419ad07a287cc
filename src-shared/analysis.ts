// Analysis results (summary, emotion, translation) as the API returns them. Shared by the server,
// which produces them, and the desktop app, which renders them linked to the audio.

/** Status of an analysis: one vocabulary for all three (docs/decisions/0006-analyses.md). */
export type AnalysisStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** A pointer back into the transcript: which segment, and when in the audio. */
export interface TranscriptAnchor {
  segment_id: number;
  start: number;
  end: number;
}

export interface SummaryItem extends TranscriptAnchor {
  text: string;
}

export interface ActionItem extends SummaryItem {
  /** Who is to do it, when the sentence says so. */
  owner: string | null;
  /** When it is due, as said ("by Friday"), when the sentence says so. */
  due: string | null;
}

export interface SummaryDetails {
  overview: string;
  key_points: SummaryItem[];
  action_items: ActionItem[];
  decisions: SummaryItem[];
  /** Dates and times mentioned, with where. */
  dates: SummaryItem[];
}

export const EMOTION_LABELS = ['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise'] as const;
export type EmotionLabel = (typeof EMOTION_LABELS)[number];
export type EmotionScores = Record<EmotionLabel, number>;

/** One entry per segment, and one for the whole transcript (segment_id null). */
export interface EmotionEntry {
  segment_id: number | null;
  start: number;
  end: number;
  speaker: string | null;
  label: EmotionLabel;
  score: number;
  scores: EmotionScores;
}

export interface TranslatedSegment extends TranscriptAnchor {
  text: string;
}
