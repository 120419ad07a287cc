// Voice activity detection: where in a recording someone is speaking. The speech engines decode
// only these regions, and their total length is the transcript's speaking_duration.

export interface SpeechSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

export interface VadOptions {
  signal?: AbortSignal;
  /** 0..1 as the file is analysed. */
  onProgress?: (fraction: number) => void;
}

export interface VoiceActivityDetector {
  readonly name: string;
  /** Speech regions of a 16 kHz mono s16le PCM file, sorted and non-overlapping. */
  detect(pcmPath: string, options?: VadOptions): Promise<SpeechSegment[]>;
}

/** Total seconds covered by the segments. */
export function speechSeconds(segments: readonly SpeechSegment[]): number {
  return segments.reduce((sum, s) => sum + (s.end - s.start), 0);
}
