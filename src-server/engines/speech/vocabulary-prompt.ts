// A dictionary's words as the text prompt of whisper-style engines (whisper.cpp's initial_prompt, the
// `prompt` field of OpenAI-compatible /audio/transcriptions). The prompt reads as text spoken before
// the audio, so it biases the decoder towards the dictionary's spellings, and its style (script,
// punctuation) towards the transcript's:
//   ja:      "用語: 聞き取り（ききとり）、Zintrix。"   kana readings in full-width brackets
//   others:  "Zintrix, Kikitori."                      readings there are respellings ("zin tricks")
//                                                       that would only teach whisper to write them
//
// Whisper keeps only the LAST 224 tokens of a prompt (n_text_ctx / 2; OpenAI documents the same
// limit), so an over-long prompt would lose its beginning, label included. The prompt is therefore
// capped by a conservative token estimate, keeping whole entries in the dictionary's order.
import type { VocabularyWord } from './speech-engine.js';

/** Whisper's prompt limit is 224 tokens; the estimate below is conservative, the margin covers the label. */
export const MAX_PROMPT_TOKENS = 200;

const KANA_READING = /^[\p{Script=Hiragana}\p{Script=Katakana}ー・゛゜\s]+$/u;
const JAPANESE_SCRIPT = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/**
 * Upper bound of the tokens whisper's byte-level BPE needs for `text`: a run of ASCII letters or
 * digits costs at most one token per two characters (common words are one token), any other ASCII
 * character one, and a non-ASCII character two (common kana and kanji are one token, rare kanji
 * split into their UTF-8 bytes take two or three: the 200-token cap leaves room for those).
 */
export function estimatePromptTokens(text: string): number {
  let tokens = 0;
  for (const run of text.match(/[A-Za-z0-9]+|[\x00-\x7f]|[^\x00-\x7f]/gu) ?? []) {
    if (/^[A-Za-z0-9]+$/.test(run)) tokens += Math.ceil(run.length / 2);
    else if (run.charCodeAt(0) < 0x80) tokens += 1;
    else tokens += 2;
  }
  return tokens;
}

/** Japanese style for "ja", and for detected language ("auto") when most dictionary words are Japanese. */
function japaneseStyle(words: readonly VocabularyWord[], language: string): boolean {
  const code = language.toLowerCase().split(/[-_]/)[0]!;
  if (code === 'ja') return true;
  if (code !== 'auto') return false;
  const japanese = words.filter((w) => JAPANESE_SCRIPT.test(w.word)).length;
  return japanese * 2 > words.length;
}

/**
 * The prompt for `vocabulary` in `language` (ISO 639-1 or "auto"), or "" when there is nothing to
 * say. Duplicate words are dropped (the first reading wins); an entry that does not fit is left out
 * and the following, shorter ones still get their chance.
 */
export function vocabularyPrompt(
  vocabulary: readonly VocabularyWord[],
  language: string,
  maxTokens = MAX_PROMPT_TOKENS,
): string {
  const seen = new Set<string>();
  const unique: VocabularyWord[] = [];
  for (const v of vocabulary) {
    const word = v.word.trim().replace(/\s+/g, ' ');
    if (!word || seen.has(word)) continue;
    seen.add(word);
    unique.push({ word, reading: v.reading?.trim() || null });
  }
  if (unique.length === 0) return '';

  const ja = japaneseStyle(unique, language);
  const label = ja ? '用語: ' : '';
  const separator = ja ? '、' : ', ';
  const end = ja ? '。' : '.';
  const entry = (v: VocabularyWord): string =>
    ja && v.reading && v.reading !== v.word && KANA_READING.test(v.reading)
      ? `${v.word}（${v.reading.replace(/\s+/g, '')}）`
      : v.word;

  const budget = maxTokens - estimatePromptTokens(label) - estimatePromptTokens(end);
  const kept: string[] = [];
  let used = 0;
  for (const v of unique) {
    const text = entry(v);
    const cost = estimatePromptTokens(text) + (kept.length > 0 ? estimatePromptTokens(separator) : 0);
    if (used + cost > budget) continue;
    kept.push(text);
    used += cost;
  }
  return kept.length > 0 ? `${label}${kept.join(separator)}${end}` : '';
}
