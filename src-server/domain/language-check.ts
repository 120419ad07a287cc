// No silent wrong language (decision 0070): after recognition, whether the audio is most likely in the
// language it was transcribed as. The recognizer judges (the built-in English recognizer's calibrated
// fit, engines/speech/pocketsphinx-language-fit.ts); when it doubts, a language identifier (whisper's
// detection, when a multilingual model is installed) names the language or clears the doubt. The rule
// that turns them into the Transcription's `warnings` lives here, once.
import type { TranscriptionWarning } from '../../src-shared/api/vocabulary.js';
import { languageName } from '../../src-shared/languages.js';

/** Names the language of speech (whisper's detection); the pipeline asks it when it is configured. */
export interface LanguageIdentifier {
  /** The ISO 639-1 code of the speech inside `regions` of the PCM file, or null when it cannot tell. */
  identify(request: {
    pcmPath: string;
    regions: ReadonlyArray<{ start: number; end: number }>;
    signal: AbortSignal;
  }): Promise<string | null>;
}

/** What the recognizer itself concluded (RecognizeResult.languageCheck). */
export interface RecognizerLanguageCheck {
  mismatch: boolean;
  likelyLanguage: string | null;
}

const base = (code: string) => code.toLowerCase().split(/[-_]/)[0]!;

/**
 * The warnings a transcription in `requested` gets. `identified`: what the identifier heard (it decides
 * when it answered: it tells languages apart, the recognizer's fit only tells "not this one");
 * `recognizer`: the engine's judgement. "auto" and translations get none: the language was not a choice.
 */
export function languageWarnings(
  requested: string,
  evidence: { identified: string | null; recognizer: RecognizerLanguageCheck | null },
): TranscriptionWarning[] {
  if (requested === 'auto') return [];
  const { identified, recognizer } = evidence;
  if (identified !== null) {
    return base(identified) === base(requested) ? [] : [languageMismatch(requested, base(identified))];
  }
  if (recognizer?.mismatch) return [languageMismatch(requested, recognizer.likelyLanguage)];
  return [];
}

export function languageMismatch(requested: string, likely: string | null): TranscriptionWarning {
  const asked = languageName(base(requested));
  return {
    code: 'LANGUAGE_MISMATCH',
    message:
      likely === null
        ? `This recording may not be in ${asked}. If it is in another language, transcribe it again with that language.`
        : `This recording may not be in ${asked}: it sounds like ${languageName(likely)}. Transcribe it again as ${languageName(likely)}.`,
    likely_language: likely,
  };
}
