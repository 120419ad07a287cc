// The team voice library's engine side as the domain sees it (decision 0065): a voice print is numbers
// that describe how someone sounds, computed from speech and never a copy of it; `kind` says how they were
// computed, so that prints of another kind (a future neural embedding) are never compared with these.

export interface VoicePrint {
  kind: string;
  values: number[];
}

/** A voice of the team's library with its prints, as recognition needs it. */
export interface EnrolledVoice {
  speakerId: string;
  name: string;
  prints: readonly VoicePrint[];
  /**
   * Printed from a request's short reference clip (known_speaker_references[], 2-10 s) rather than enrolled:
   * judged with the stricter settings calibrated for clips (decision 0092).
   */
  fromReference?: boolean;
}

/** An enrolled voice a separated speaker was recognized as. */
export interface RecognizedVoice {
  speakerId: string;
  name: string;
  /** 0.5 at the acceptance threshold, 1 for prints that match exactly; not a probability. */
  confidence: number;
}

export interface TimeRange {
  start: number;
  end: number;
}

export interface VoicePrinter {
  /** The kind of the prints it makes and compares. */
  readonly kind: string;
  /** The print of the speech inside `ranges` of a 16 kHz mono s16le PCM file, and how many seconds of speech it holds. */
  print(
    pcmPath: string,
    ranges: readonly TimeRange[],
    signal: AbortSignal,
  ): Promise<{ print: VoicePrint; speechSeconds: number }>;
  /**
   * A print of each part of a stored recording (any format the decoder takes), each part decoded on its own
   * into `workDir` and removed at once.
   */
  printParts(
    audioPath: string,
    parts: readonly TimeRange[],
    workDir: string,
    signal: AbortSignal,
  ): Promise<Array<{ print: VoicePrint; speechSeconds: number }>>;
}

/**
 * The pipeline's voice stage: after speaker separation, each separated speaker's speech is printed and
 * compared with the team's enrolled voices. Answers the labels recognized (a voice goes to one label at most).
 */
export interface VoiceRecognitionStage {
  readonly name: string;
  recognize(
    pcmPath: string,
    segments: ReadonlyArray<TimeRange & { speaker: string | null }>,
    voices: readonly EnrolledVoice[],
    signal: AbortSignal,
  ): Promise<Map<string, RecognizedVoice>>;
}
