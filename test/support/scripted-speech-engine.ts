// A speech engine whose runs the test steps through: each recognition reports the progress the test
// tells it to, and ends when the test gives it the words that were recognized. For tests about what happens around
// recognition (progress, stages, the app following a running job), where real recognition would only
// make them slow and their states a matter of timing. It is plugged in through the server's engine seam
// (RuntimeOptions.engines); everything else (upload, decoding, queue, job runner, storage, HTTP) is real.
import { ConfiguredEngineRegistry, type EngineRegistry } from '../../src-server/engines/engine-registry.js';
import type {
  RecognizedSegment,
  RecognizeRequest,
  RecognizeResult,
  SpeechEngine,
} from '../../src-server/engines/speech/speech-engine.js';

/** One phrase of the scripted transcript, spread evenly over its seconds. */
export interface ScriptedPhrase {
  text: string;
  start: number;
  end: number;
}

/** A recognition in progress, held until the test finishes it. */
export interface ScriptedRun {
  readonly request: RecognizeRequest;
  /** Reports `fraction` (0..1) of the recognition done, as an engine does while it works. */
  progress(fraction: number): void;
  /** Ends the recognition: these phrases are what was recognized. */
  finish(phrases: readonly ScriptedPhrase[]): void;
}

export class ScriptedSpeechEngine implements SpeechEngine {
  readonly name = 'scripted';
  readonly capabilities = {
    languages: ['en'],
    wordTimestamps: true,
    customVocabulary: false,
    speakerSeparation: false,
  } as const;
  private readonly waiting: Array<(run: ScriptedRun) => void> = [];
  private readonly started: ScriptedRun[] = [];

  /** The next recognition the server starts (one already started and not yet taken, if any). */
  nextRun(): Promise<ScriptedRun> {
    const run = this.started.shift();
    if (run) return Promise.resolve(run);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  recognize(request: RecognizeRequest): Promise<RecognizeResult> {
    return new Promise((resolve, reject) => {
      const { signal } = request;
      // Cancelled or shut down: the recognition ends with the signal's reason, as a real engine's does.
      const abort = () => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      const run: ScriptedRun = {
        request,
        progress: (fraction) => request.onProgress?.(fraction),
        finish: (phrases) => resolve(this.result(phrases)),
      };
      const waiter = this.waiting.shift();
      if (waiter) waiter(run);
      else this.started.push(run);
    });
  }

  private result(phrases: readonly ScriptedPhrase[]): RecognizeResult {
    const segments: RecognizedSegment[] = phrases.map(({ text, start, end }) => {
      const words = text.split(/\s+/).filter(Boolean);
      const each = (end - start) / words.length;
      return {
        start,
        end,
        words: words.map((word, i) => ({
          word,
          start: start + i * each,
          end: start + (i + 1) * each,
          confidence: 0.9,
        })),
      };
    });
    const speakingDuration = phrases.reduce((sum, { start, end }) => sum + (end - start), 0);
    return { segments, speakingDuration, model: this.name };
  }
}

/** The engine for every transcription model, and no speaker separation. */
export function scriptedEngineRegistry(engine: ScriptedSpeechEngine): EngineRegistry {
  return new ConfiguredEngineRegistry([engine], { default: engine.name, 'diarization-high': engine.name });
}
