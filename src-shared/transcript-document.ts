// The JSON document served behind `transcription_path`. Shared by the server, which writes it,
// and the desktop app, which caches and renders it.

export interface TranscriptWord {
  word: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  /**
   * 0..1, when the engine gives one: the probability that the word is right (pocketsphinx's is calibrated,
   * decision 0086; whisper's is its mean token probability). Words below UNCERTAIN_BELOW are underlined.
   */
  confidence: number | null;
  /**
   * Set when the dictionary wrote this word: a forced replacement (the rule's pattern), or the vocabulary
   * stage (`source: 'vocabulary'`, pattern = the dictionary word it sounded like); `original` is what the
   * engine heard.
   */
  replaced?: { pattern: string; original: string; source?: 'vocabulary' };
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  /** Stable speaker label such as "SPEAKER_1", or null when speakers were not separated. */
  speaker: string | null;
  /** Extension: the channel (1, 2, ...) it was heard on, when each channel was transcribed as a speaker (multichannel). */
  channel?: number;
  /**
   * Extension: the team's enrolled voice this speaker was recognized as (decision 0065), with its name then
   * and how close the match was (0.5 at the acceptance threshold, 1 for an exact match; not a probability).
   * Absent for voices that are not enrolled or not recognized with confidence; `speaker` stays the label.
   */
  speaker_id?: string;
  speaker_name?: string;
  speaker_confidence?: number;
  text: string;
  words: TranscriptWord[];
}

export interface AppliedReplacement {
  pattern: string;
  replacement: string;
  /** How many times the pattern was rewritten across the transcript. */
  count: number;
  /** Ids of the segments where it was rewritten. */
  segment_ids: number[];
}

export interface TranscriptDocument {
  transcription_id: string;
  text: string;
  language: string;
  /** Length of the audio file in seconds. */
  duration: number;
  /** Seconds of detected speech. */
  speaking_duration: number;
  segments: TranscriptSegment[];
  replacements: AppliedReplacement[];
  /** What ran: speech engine and model, the requested transcription_model, and the speaker-separation engine if any. */
  engine: { name: string; model: string; transcription_model: string; speakers?: string };
  created_at: string;
  /**
   * Which revision of the transcript this is (1: as recognized; each review, edit, dictionary re-apply or
   * restore makes the next). Absent in documents stored before revisions (decision 0052).
   */
  revision?: number;
  /** Names given to speaker labels ("SPEAKER_1" -> "Alice"), shared by the team; absent or {} for none. */
  speaker_names?: Record<string, string>;
}
