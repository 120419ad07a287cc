// The live speech-recognition capability, beside the batch one (speech-engine.ts): audio arrives in
// pieces while someone speaks, a partial hypothesis can be read at any time, and the end of an utterance
// gives its final words with times. Live sessions (application/live-transcription.ts) only see this
// interface. A saved transcription is still produced by the batch pipeline alone.
import type { RecognizedWord, SpeechEngine, VocabularyWord } from './speech-engine.js';

export interface StreamOptions {
  /** ISO 639-1 code. */
  language: string;
  /** Words to recognize (a dictionary's, the prompt's, ad-hoc ones), spelled as the user wrote them. */
  vocabulary: VocabularyWord[];
}

/** One live stream: holds a decoder from open until close. Calls must not overlap (await each one). */
export interface RecognitionStream {
  /** Starts an utterance; its words are timed from `offsetSeconds` (where it begins in the session's audio). */
  startUtterance(offsetSeconds: number): void;
  /** 16 kHz mono signed 16-bit samples of the open utterance, in order. */
  feed(samples: Int16Array): Promise<void>;
  /** The best guess so far of the open utterance's words (may still change); [] when none. */
  partial(): string[];
  /** Ends the open utterance: its final words with times in the session's audio. */
  endUtterance(): Promise<RecognizedWord[]>;
  /** Ends an open utterance unheard and gives the decoder back. */
  close(): Promise<void>;
}

export interface StreamingRecognizer {
  readonly name: string;
  /** Languages it recognizes live. */
  readonly liveLanguages: readonly string[];
  /** Model identifier, as in batch results. */
  readonly liveModel: string;
  /** Takes a decoder (warm when one is idle) with the vocabulary installed. */
  openStream(options: StreamOptions): Promise<RecognitionStream>;
}

export function isStreamingRecognizer(engine: SpeechEngine): engine is SpeechEngine & StreamingRecognizer {
  return typeof (engine as Partial<StreamingRecognizer>).openStream === 'function';
}
