// The speaker-separation (diarization) capability: who spoke when, over the speech regions the VAD
// found. The transcription pipeline runs it after recognition and labels the recognized segments
// with assignSpeakers().
import type { SeparationQuality } from '../../domain/transcription-pipeline.js';
import type { SpeechSegment } from '../vad/vad.js';

export type { SeparationQuality };

export interface SpeakerTurn {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  /** "SPEAKER_1", "SPEAKER_2", ... numbered in order of first appearance. */
  speaker: string;
}

export interface SeparateOptions {
  /** Default "standard" (decision 0057). */
  quality?: SeparationQuality;
  /** Exactly this many speakers (when the audio has enough speech for them). */
  numSpeakers?: number;
  /** Bounds for the automatic choice of the number of speakers. */
  minSpeakers?: number;
  maxSpeakers?: number;
  signal: AbortSignal;
  /** 0..1 as the separation advances. */
  onProgress?: (fraction: number) => void;
}

export interface SpeakerSeparationEngine {
  readonly name: string;
  /**
   * Speaker turns of a 16 kHz mono s16le PCM file, inside the given speech regions (sorted,
   * non-overlapping; usually the VAD's). Turns are sorted and do not overlap.
   */
  separate(pcmPath: string, speech: SpeechSegment[], options: SeparateOptions): Promise<SpeakerTurn[]>;
}

/** "SPEAKER_<n>" for the n-th speaker (1-based) in order of first appearance. */
export function speakerLabel(index: number): string {
  return `SPEAKER_${index + 1}`;
}
