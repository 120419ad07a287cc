// Maps a transcription request (model, languages, speaker options) to the engines that serve it,
// and says plainly when nothing configured can honour it.
import type { TranscriptionModel } from '../domain/records.js';
import type { SpeakerOptions } from '../domain/transcription-pipeline.js';
import type { SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { SpeakerSeparationEngine } from './speakers/speaker-separation.js';
import type { SpeechEngine } from './speech/speech-engine.js';
import { recognizesDetail, unsupportedLanguageError } from './speech/unsupported-language.js';

export interface TranscriptionOptions {
  model: TranscriptionModel;
  languages: string[];
  wantsSpeakers: boolean;
}

export interface EngineRegistry {
  readonly speechEngines: ReadonlyMap<string, SpeechEngine>;
  /** Who spoke when, for engines that do not separate speakers themselves; null when none is configured. */
  readonly speakers: SpeakerSeparationEngine | null;
  /** The speech engine for a transcription model. */
  speechFor(model: TranscriptionModel): SpeechEngine;
  /**
   * Null when the request can be served; otherwise a message in the user's terms saying what is
   * unsupported and what to do, and a detail for the log naming the engine and what it serves.
   */
  unsupportedReason(
    options: TranscriptionOptions,
  ): { code: 'language' | 'option'; message: string; detail?: string } | null;
}

/** Whether an engine can run on this machine; `reason` says why not, `detail` what it would use. */
export interface EngineStatus {
  usable: boolean;
  reason: string | null;
  detail: string | null;
}

/**
 * Engines that accept language "auto" (and then report the detected language as an extra
 * `language` property on their RecognizeResult) say so with `detectsLanguage = true`.
 */
export function detectsLanguage(engine: SpeechEngine): boolean {
  return (engine as SpeechEngine & { detectsLanguage?: boolean }).detectsLanguage === true;
}

export class ConfiguredEngineRegistry implements EngineRegistry {
  readonly speechEngines: ReadonlyMap<string, SpeechEngine>;

  constructor(
    engines: SpeechEngine[],
    private readonly modelToEngine: Record<TranscriptionModel, string>,
    readonly speakers: SpeakerSeparationEngine | null = null,
    /** Names that pick an engine each time they are asked (`auto`: what is installed now). */
    private readonly choosers: Readonly<Record<string, () => SpeechEngine>> = {},
  ) {
    this.speechEngines = new Map(engines.map((e) => [e.name, e]));
    for (const [model, name] of Object.entries(modelToEngine)) {
      if (!this.speechEngines.has(name) && !(name in choosers))
        throw new Error(`transcription model "${model}" maps to unknown speech engine "${name}"`);
    }
  }

  speechFor(model: TranscriptionModel): SpeechEngine {
    const name = this.modelToEngine[model];
    const choose = this.choosers[name];
    return choose ? choose() : this.speechEngines.get(name)!;
  }

  unsupportedReason(options: TranscriptionOptions) {
    const engine = this.speechFor(options.model);
    const missing = options.languages.filter((l) => !engine.capabilities.languages.includes(l));
    if (missing.length > 0) {
      const error = unsupportedLanguageError(
        missing,
        `transcription_model "${options.model}": ${recognizesDetail(engine.name, engine.capabilities.languages, missing)}`,
      );
      return { code: 'language' as const, message: error.message, detail: error.detail };
    }
    if (wantsSpeakers(options) && !engine.capabilities.speakerSeparation && !this.speakers) {
      return {
        code: 'option' as const,
        message:
          `Speaker separation (transcription_model "diarization-high" or a speaker count) is not available: ` +
          `the engine "${engine.name}" configured for "${options.model}" does not separate speakers and no ` +
          `speaker-separation engine is configured (KIKITORI_SPEAKER_ENGINE). Use transcription_model "default" without speaker counts.`,
      };
    }
    return null;
  }
}

/**
 * Speaker labels asked for explicitly: "diarization-high" or a speaker count. A server that cannot separate
 * refuses these (unsupportedReason); every other transcription is separated where the server can (separationFor).
 */
export function wantsSpeakers(options: { model: TranscriptionModel; wantsSpeakers: boolean }): boolean {
  return options.wantsSpeakers || options.model === 'diarization-high';
}

/**
 * The speaker separation a transcription gets (decision 0057): every transcription where the server can
 * separate (the speech engine itself, or the speaker-separation engine), with an automatic count unless
 * counts are given; "enhanced" for "diarization-high". Null where the server cannot.
 */
export function separationFor(
  registry: Pick<EngineRegistry, 'speakers'>,
  engine: SpeechEngine,
  model: TranscriptionModel,
  counts: SpeakerCounts | null,
): SpeakerOptions | null {
  if (!engine.capabilities.speakerSeparation && !registry.speakers) return null;
  const given = Object.entries(counts ?? {}).filter(([, n]) => n !== null) as [keyof SpeakerCounts, number][];
  return { ...Object.fromEntries(given), quality: model === 'diarization-high' ? 'enhanced' : 'standard' };
}
