// The checks a transcription's options must pass before any work is done for them (speaker counts, the
// engine's languages and speakers, the caller's dictionary): one place for an upload ticket and for
// transcribing again (decision 0062). Answers the languages to record, the default applied.
import type { SpeakerCountField, SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { AppContext } from '../app-context.js';
import { EngineError } from '../domain/engine-error.js';
import type { Caller, TranscriptionModel } from '../domain/records.js';
import { ticketLanguages } from '../domain/speech-language.js';
import { engineErrorToAppError } from './engine-errors.js';
import { errors } from './errors.js';
import { findDictionary } from './lookups.js';
import { asksForSpeakers, assertSpeakerCounts, SPEAKER_FIELD } from './speaker-counts.js';

export interface TranscriptionOptions {
  dictionaryId: string | null;
  /** ISO 639-1 codes, lower case, each once; none: the default (decision 0050). */
  languages: string[];
  model: TranscriptionModel;
  speakers: SpeakerCounts;
}

export async function checkTranscriptionOptions(
  ctx: AppContext,
  caller: Caller,
  options: TranscriptionOptions,
): Promise<string[]> {
  const { model, speakers } = options;
  assertSpeakerCounts(speakers);
  // No language: engines that detect it are left to (the record gets the detected one); others use their first.
  const languages = ticketLanguages(ctx.engines.speechFor(model), options.languages);
  const unsupported = ctx.engines.unsupportedReason({ model, languages, wantsSpeakers: asksForSpeakers(speakers) });
  if (unsupported?.code === 'language') {
    throw engineErrorToAppError(
      new EngineError('unsupported', unsupported.message, { field: 'language', detail: unsupported.detail }),
    );
  }
  if (unsupported) {
    const speakerField = (Object.keys(SPEAKER_FIELD) as SpeakerCountField[]).find((f) => speakers[f] !== null);
    throw errors.unsupportedOption(
      unsupported.message,
      speakerField ? SPEAKER_FIELD[speakerField] : 'transcription_model',
    );
  }
  if (options.dictionaryId) await findDictionary(ctx, caller, options.dictionaryId);
  return languages;
}
