// "No language given", decided once for every entry point (the upload ticket, the transcribe job, the
// OpenAI route): an engine that detects languages is asked to ("auto"); any other runs in its first
// language. Decision 0050.

/** What the rule reads of a speech engine (engines/speech/speech-engine.ts implements it). */
export interface LanguageCapableEngine {
  /** Takes language "auto" and reports the language it heard. */
  readonly detectsLanguage?: boolean;
  readonly capabilities: { readonly languages: readonly string[] };
}

/** The language an engine is asked for when it should detect it. */
export const DETECT_LANGUAGE = 'auto';

/** The language `engine` recognizes in when the caller named none: "auto" where it detects, else its first. */
export function defaultLanguage(engine: LanguageCapableEngine): string {
  return engine.detectsLanguage === true ? DETECT_LANGUAGE : (engine.capabilities.languages[0] ?? 'en');
}

/** The languages a ticket records: those asked for, else the default; none where the engine will detect it. */
export function ticketLanguages(engine: LanguageCapableEngine, requested: readonly string[]): string[] {
  if (requested.length > 0) return [...requested];
  const language = defaultLanguage(engine);
  return language === DETECT_LANGUAGE ? [] : [language];
}
