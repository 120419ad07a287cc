// Translation through an OpenAI-compatible chat model, into any language, segment by segment so the
// translation stays aligned with the audio.
import type { TranslatedSegment } from '../../../src-shared/analysis.js';
import type { TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, TranslationEngine, TranslationResult } from '../../domain/analysis-engines.js';
import { isSpaceless } from '../../../src-shared/word-text.js';
import { askJson, batches, formatTime, idRange, languageName, LlmBatchEngine } from './llm-batching.js';
import { unusableAnswer } from './openai-chat-client.js';

const TRANSLATION_SYSTEM =
  'You are a professional translator of transcripts. Translate faithfully, keep names and numbers, do not add or omit content. ' +
  'Transcripts may come from speech recognition: lowercase, no punctuation, misheard words; translate the intended meaning with normal punctuation. ' +
  'Reply with a JSON object only.';

const joinSegments = (texts: string[], language: string) =>
  texts.filter(Boolean).join(isSpaceless(language) ? '' : ' ');

export class LlmTranslationEngine extends LlmBatchEngine implements TranslationEngine {
  readonly offline = false;

  targets(): 'any' {
    return 'any';
  }

  async translate(input: AnalysisInput, target: string): Promise<TranslationResult> {
    const { document, signal, language } = input;
    const translated = new Map<number, string>();
    const spoken = document.segments.filter((s) => s.text.trim());
    for (const batch of batches(spoken, this.maxSegments, this.maxChars)) {
      signal.throwIfAborted();
      let pending = batch;
      for (let round = 0; round < 2 && pending.length; round++) {
        const found = await this.translateBatch(pending, language, target, signal);
        for (const [id, text] of found) translated.set(id, text);
        pending = pending.filter((s) => !translated.has(s.id));
      }
      if (pending.length) {
        throw unusableAnswer(
          `The LLM (model "${this.client.model}") returned no translation for segment${pending.length > 1 ? 's' : ''} ${pending.map((s) => s.id).join(', ')}.`,
        );
      }
    }
    const segments: TranslatedSegment[] = document.segments.map((s) => ({
      segment_id: s.id,
      start: s.start,
      end: s.end,
      text: translated.get(s.id) ?? '',
    }));
    return {
      translatedText: joinSegments(
        segments.map((s) => s.text),
        target,
      ),
      segments,
    };
  }

  private translateBatch(
    segments: TranscriptSegment[],
    source: string,
    target: string,
    signal: AbortSignal,
  ): Promise<Map<number, string>> {
    const wanted = new Set(segments.map((s) => s.id));
    const lines = segments.map((s) => ({
      id: s.id,
      start: formatTime(s.start),
      end: formatTime(s.end),
      text: s.text.replace(/\s+/g, ' ').trim(),
    }));
    const prompt =
      `Translate these numbered transcript lines from ${languageName(source)} into ${languageName(target)}. ` +
      'They are consecutive utterances of one conversation, with their times. Translate each line on its own: ' +
      'one translation per id, never merge or split lines, never move words between lines.\n\n' +
      'Reply with a JSON object of this shape, with every id listed:\n' +
      `{"translations": [{"id": ${segments[0]!.id}, "text": "the translation"}]}\n\n` +
      `Lines:\n${JSON.stringify({ lines }, null, 0)}`;
    return askJson(
      this.client,
      [
        { role: 'system', content: TRANSLATION_SYSTEM },
        { role: 'user', content: prompt },
      ],
      signal,
      `the translation of ${idRange(segments)}`,
      (value) => {
        const out = new Map<number, string>();
        const list = value.translations ?? value.lines;
        if (Array.isArray(list)) {
          for (const raw of list) {
            if (!raw || typeof raw !== 'object') continue;
            const item = raw as Record<string, unknown>;
            const id = Number(item.id ?? item.segment_id);
            if (wanted.has(id) && typeof item.text === 'string') out.set(id, item.text.trim());
          }
        } else if (list && typeof list === 'object') {
          // {"translations": {"12": "…"}}
          for (const [key, text] of Object.entries(list as Record<string, unknown>)) {
            if (wanted.has(Number(key)) && typeof text === 'string') out.set(Number(key), text.trim());
          }
        } else {
          throw new TypeError('"translations" is missing or not a list');
        }
        if (out.size === 0 && wanted.size > 0) throw new TypeError('no translation names an id that was asked for');
        return out;
      },
    );
  }
}
