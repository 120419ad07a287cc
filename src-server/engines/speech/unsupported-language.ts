// The one way a speech engine says it cannot recognize a language: in the user's terms (the language
// by name, and what to do), with the engine, model and what it does recognize in the detail.
import { EngineError } from '../../domain/engine-error.js';
import { needsSpeechModelMessage, noSpeechModelMessage } from '../../../src-shared/languages.js';
import { WHISPER_LANGUAGES } from './whisper-engine.js';

/**
 * `languages` (ISO 639-1) cannot be recognized by `engine`. A language some downloadable speech model
 * knows gets "install one on the server (kikitori-server models download base)"; one that none knows is
 * said to be so.
 */
export function unsupportedLanguageError(languages: readonly string[], detail: string): EngineError {
  const unknown = languages.filter((l) => !WHISPER_LANGUAGES.includes(l.toLowerCase()));
  const message = unknown.length > 0 ? noSpeechModelMessage(unknown) : needsSpeechModelMessage(languages);
  return new EngineError('unsupported', message, { field: 'language', detail });
}

/** "pocketsphinx recognizes en; asked for ja": what the operator needs to know. */
export function recognizesDetail(engine: string, supported: readonly string[], asked: readonly string[]): string {
  const list =
    supported.length > 12
      ? `${supported.slice(0, 12).join(', ')}… (${supported.length})`
      : supported.join(', ') || 'nothing';
  return `speech engine "${engine}" recognizes ${list}; asked for ${asked.join(', ')}`;
}
