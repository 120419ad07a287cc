// The speech-recognition capability. The transcription pipeline only sees this interface;
// configuration picks the engine by name.

export interface VocabularyWord {
  word: string;
  /** Phonetic respelling ("zin tricks") or, for Japanese, kana. */
  reading?: string | null;
}

export interface RecognizeRequest {
  /** Path to raw 16 kHz mono signed 16-bit little-endian PCM (what the CONVERTING stage writes). */
  pcmPath: string;
  /** ISO 639-1 code. */
  language: string;
  vocabulary: VocabularyWord[];
  signal: AbortSignal;
  /** Called with 0..1 as recognition advances. */
  onProgress?: (fraction: number) => void;
  /**
   * Called when the engine moves between its passes: engines that find the speech first (a VAD pass)
   * report 'detecting-speech' and then 'recognizing'; the caller assumes 'recognizing' otherwise.
   */
  onStage?: (stage: 'detecting-speech' | 'recognizing') => void;
  /**
   * "translate": English text of speech in any of `languages` (OpenAI's /v1/audio/translations); only
   * for engines whose capabilities say `translatesToEnglish`. Default "transcribe".
   */
  task?: 'transcribe' | 'translate';
}

export interface RecognizedWord {
  word: string;
  start: number;
  end: number;
  confidence: number | null;
}

export interface RecognizedSegment {
  start: number;
  end: number;
  words: RecognizedWord[];
}

export interface RecognizeResult {
  segments: RecognizedSegment[];
  /** Seconds of detected speech (voice activity), not the file length. */
  speakingDuration: number;
  /** Model identifier, for the transcript document. */
  model: string;
  /**
   * The voice-activity regions the engine recognized, when its segments do not follow them (whisper's
   * segments span pauses): speaker separation runs inside these. Absent: inside the segments.
   */
  speechRegions?: { start: number; end: number }[];
  /** Milliseconds spent in the engine's own stages (e.g. vad, decoder, whisper), for the job's timing log. */
  timings?: Record<string, number>;
  /** Whether the speech sounded like the requested language, when the engine can tell (decision 0070). */
  languageCheck?: LanguageCheck;
}

/** An engine's judgement of the language it was asked to recognize (decision 0070). */
export interface LanguageCheck {
  /** The speech is most likely not in the requested language. */
  mismatch: boolean;
  /** ISO 639-1 code of what it heard instead, when the engine can tell; null when it cannot. */
  likelyLanguage: string | null;
  /** What the judgement was made from (for the benchmark and logs). */
  evidence?: Readonly<Record<string, number>>;
}

export interface SpeechEngineCapabilities {
  languages: readonly string[];
  wordTimestamps: boolean;
  customVocabulary: boolean;
  speakerSeparation: boolean;
  /** Can recognize speech into English text (task "translate"). Absent means no. */
  translatesToEnglish?: boolean;
}

export interface SpeechEngine {
  readonly name: string;
  readonly capabilities: SpeechEngineCapabilities;
  /** Throws UnusableEngineError-like errors when the engine cannot run on this machine. */
  recognize(request: RecognizeRequest): Promise<RecognizeResult>;
}
