// Summary, emotion and translation through an OpenAI-compatible chat model. Every prompt lists the
// transcript's segments with their ids and times, and every answer is JSON that points back at
// segment ids, so results stay linked to the audio. Answers are validated; a malformed one is asked
// for again once, then reported as an error that says what was wrong.
import ISO6391 from 'iso-639-1';
import {
  EMOTION_LABELS,
  type ActionItem,
  type EmotionEntry,
  type EmotionLabel,
  type EmotionScores,
  type SummaryDetails,
  type SummaryItem,
  type TranslatedSegment,
} from '../../../src-shared/analysis.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type {
  AnalysisInput,
  EmotionEngine,
  SummaryEngine,
  SummaryResult,
  TranslationEngine,
  TranslationResult,
} from '../analysis/analysis-engines.js';
import { isSpaceless } from '../speech/word-text.js';
import { formatSummaryText } from '../summary/extractive-summary.js';
import { LlmError, parseJsonObject, type ChatMessage, type OpenAiChatClient } from './openai-chat-client.js';

export interface LlmEngineOptions {
  client: OpenAiChatClient;
  /** The engine's name in configuration and results (default "llm"). */
  name?: string;
  /** Most segments in one request (emotion and translation; default 40). */
  maxSegmentsPerRequest?: number;
  /** Most characters of transcript in one request (default 12,000 for emotion and translation, 40,000 for summary). */
  maxCharsPerRequest?: number;
}

// ---------------------------------------------------------------------------------------------
// Shared

function formatTime(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = (s % 60).toFixed(1).padStart(4, '0');
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec}`;
}

/** "[12] 00:01:05.2-00:01:09.8 SPEAKER_1: text": how a segment appears in a prompt. */
export function segmentLine(segment: TranscriptSegment): string {
  const who = segment.speaker ? ` ${segment.speaker}:` : '';
  return `[${segment.id}] ${formatTime(segment.start)}-${formatTime(segment.end)}${who} ${segment.text.replace(/\s+/g, ' ').trim()}`;
}

function languageName(code: string): string {
  const base = code.toLowerCase().split(/[-_]/)[0] ?? code;
  const name = ISO6391.getName(base);
  return name ? `${name} (${code})` : code;
}

/** Cuts segments into batches of at most `maxSegments` and about `maxChars` characters. */
function batches(segments: TranscriptSegment[], maxSegments: number, maxChars: number): TranscriptSegment[][] {
  const out: TranscriptSegment[][] = [];
  let current: TranscriptSegment[] = [];
  let size = 0;
  for (const s of segments) {
    const length = s.text.length + 40;
    if (current.length > 0 && (current.length >= maxSegments || size + length > maxChars)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(s);
    size += length;
  }
  if (current.length) out.push(current);
  return out;
}

const idRange = (segments: TranscriptSegment[]) =>
  segments.length === 1 ? `segment ${segments[0]!.id}` : `segments ${segments[0]!.id}–${segments[segments.length - 1]!.id}`;

/**
 * One chat request whose answer must be a JSON object that `read` accepts. A malformed answer is asked
 * for again once, with the problem stated; a second failure is an LlmError naming the problem.
 */
async function askJson<T>(
  client: OpenAiChatClient,
  messages: ChatMessage[],
  signal: AbortSignal,
  what: string,
  read: (value: Record<string, unknown>) => T,
): Promise<T> {
  let problem = '';
  let malformed = true;
  for (let attempt = 0; attempt < 2; attempt++) {
    const conversation = attempt === 0 ? messages : [...messages, { role: 'user' as const, content: `Your previous answer could not be used: ${problem}. Reply again with only the JSON object described above.` }];
    const answer = await client.complete(conversation, { json: true, signal });
    try {
      return read(parseJsonObject(answer.content));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof TypeError)) throw error;
      malformed = error instanceof SyntaxError;
      problem = error.message + (answer.finishReason === 'length' ? ' (the answer was cut off at the token limit)' : '');
    }
  }
  const said = malformed ? 'malformed JSON' : 'JSON of the wrong shape';
  throw new LlmError(`The LLM (model "${client.model}") returned ${said} for ${what}: ${problem}.`, 'invalid_response');
}

/** The segment an item points at, by id (accepting "12" and 12.0); undefined when there is none. */
function segmentOf(value: unknown, byId: Map<number, TranscriptSegment>): TranscriptSegment | undefined {
  const id = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) ? byId.get(id) : undefined;
}

function optionalText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return !text || /^(?:null|none|n\/a|unknown|unspecified|-|tbd)$/i.test(text) ? null : text;
}

// ---------------------------------------------------------------------------------------------
// Summary

const SUMMARY_SYSTEM =
  'You summarise meeting and conversation transcripts faithfully. Use only what the transcript says. ' +
  'Transcripts may come from speech recognition: lowercase, no punctuation, misheard words. Reply with a JSON object only.';

const SUMMARY_SCHEMA = `{
  "overview": "a paragraph of 2 to 4 sentences: what the conversation was about and what came out of it",
  "key_points": [{"text": "one important point, as a sentence", "segment_id": 12}],
  "action_items": [{"text": "the task, as a sentence", "owner": "who will do it, as named in the transcript, or null", "due": "when, as said (e.g. \\"by Friday\\"), or null", "segment_id": 12}],
  "decisions": [{"text": "what was decided", "segment_id": 12}],
  "dates": [{"text": "a date or time mentioned, as said", "segment_id": 12}]
}`;

interface PartialSummary extends SummaryDetails {}

export class LlmSummaryEngine implements SummaryEngine {
  readonly name: string;
  readonly languages = 'any' as const;
  private readonly client: OpenAiChatClient;
  private readonly maxChars: number;

  constructor(options: LlmEngineOptions) {
    this.client = options.client;
    this.name = options.name ?? 'llm';
    this.maxChars = options.maxCharsPerRequest ?? 40_000;
  }

  async summarize(input: AnalysisInput): Promise<SummaryResult> {
    const { document, signal, language } = input;
    const byId = new Map(document.segments.map((s) => [s.id, s]));
    const spoken = document.segments.filter((s) => s.text.trim());
    if (spoken.length === 0) {
      const details: SummaryDetails = { overview: 'Nothing was said in this recording.', key_points: [], action_items: [], decisions: [], dates: [] };
      return { summarizedText: formatSummaryText(details), details };
    }
    const parts = batches(spoken, Number.MAX_SAFE_INTEGER, this.maxChars);
    const partials: PartialSummary[] = [];
    for (const [i, part] of parts.entries()) {
      signal.throwIfAborted();
      partials.push(await this.summarizePart(part, i, parts.length, language, byId, signal));
    }
    const details = partials.length === 1 ? partials[0]! : await this.combine(partials, language, byId, signal);
    return { summarizedText: formatSummaryText(details), details };
  }

  private summarizePart(
    segments: TranscriptSegment[],
    index: number,
    count: number,
    language: string,
    byId: Map<number, TranscriptSegment>,
    signal: AbortSignal,
  ): Promise<PartialSummary> {
    const part = count > 1 ? `This is part ${index + 1} of ${count} of a longer transcript; summarise this part.\n` : '';
    const prompt =
      `Summarise this transcript. It is in ${languageName(language)}; write the summary in the same language.\n` +
      part +
      'Each line is one segment: [segment id] start-end (hours:minutes:seconds) optional speaker: text.\n' +
      'Every item must give the segment_id of the segment it comes from, so it can be linked to the audio. ' +
      'Action items are tasks someone is to do after the meeting; decisions are what was agreed or decided. ' +
      'Use empty lists when there are none. Do not invent owners or dates.\n\n' +
      `Reply with a JSON object of this shape:\n${SUMMARY_SCHEMA}\n\nTranscript:\n${segments.map(segmentLine).join('\n')}`;
    return askJson(
      this.client,
      [
        { role: 'system', content: SUMMARY_SYSTEM },
        { role: 'user', content: prompt },
      ],
      signal,
      `the summary of ${idRange(segments)}`,
      (value) => readSummary(value, byId),
    );
  }

  /** Several parts: their action items, decisions and dates add up; the overview and key points are asked for again over the parts. */
  private async combine(partials: PartialSummary[], language: string, byId: Map<number, TranscriptSegment>, signal: AbortSignal): Promise<SummaryDetails> {
    signal.throwIfAborted();
    const candidates = partials.flatMap((p) => p.key_points);
    const prompt =
      `These are summaries of consecutive parts of one transcript in ${languageName(language)}. ` +
      'Write one overview for the whole conversation (2 to 4 sentences, same language) and choose the up to 8 most important key points ' +
      'from the candidates, keeping their segment_id.\n\n' +
      `Part overviews:\n${partials.map((p, i) => `${i + 1}. ${p.overview}`).join('\n')}\n\n` +
      `Candidate key points:\n${candidates.map((k) => `[${k.segment_id}] ${formatTime(k.start)} ${k.text}`).join('\n')}\n\n` +
      'Reply with a JSON object: {"overview": "...", "key_points": [{"text": "...", "segment_id": 12}]}';
    const combined = await askJson(
      this.client,
      [
        { role: 'system', content: SUMMARY_SYSTEM },
        { role: 'user', content: prompt },
      ],
      signal,
      'the combined summary',
      (value) => {
        if (typeof value.overview !== 'string' || !value.overview.trim()) throw new TypeError('"overview" is missing or not a string');
        return { overview: value.overview.trim(), key_points: readItems(value.key_points, 'key_points', byId) };
      },
    );
    return {
      overview: combined.overview,
      key_points: combined.key_points,
      action_items: partials.flatMap((p) => p.action_items),
      decisions: partials.flatMap((p) => p.decisions),
      dates: partials.flatMap((p) => p.dates),
    };
  }
}

function readItems(value: unknown, field: string, byId: Map<number, TranscriptSegment>): SummaryItem[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new TypeError(`"${field}" is not a list`);
  const items: SummaryItem[] = [];
  for (const raw of value) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const text = optionalText(item.text);
    const segment = segmentOf(item.segment_id ?? item.segment ?? item.id, byId);
    // An item that names no segment of this transcript cannot be linked to the audio: left out.
    if (!text || !segment) continue;
    items.push({ segment_id: segment.id, start: segment.start, end: segment.end, text });
  }
  return items;
}

function readSummary(value: Record<string, unknown>, byId: Map<number, TranscriptSegment>): PartialSummary {
  if (typeof value.overview !== 'string' || !value.overview.trim()) throw new TypeError('"overview" is missing or not a string');
  const actions: ActionItem[] = [];
  const rawActions = value.action_items;
  if (rawActions !== undefined && rawActions !== null && !Array.isArray(rawActions)) throw new TypeError('"action_items" is not a list');
  for (const raw of (rawActions as unknown[] | null | undefined) ?? []) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const [base] = readItems([item], 'action_items', byId);
    if (base) actions.push({ ...base, owner: optionalText(item.owner), due: optionalText(item.due) });
  }
  return {
    overview: value.overview.trim(),
    key_points: readItems(value.key_points, 'key_points', byId),
    action_items: actions,
    decisions: readItems(value.decisions, 'decisions', byId),
    dates: readItems(value.dates, 'dates', byId),
  };
}

// ---------------------------------------------------------------------------------------------
// Emotion

const EMOTION_SYSTEM =
  'You rate the emotion expressed in each segment of a transcript. Transcripts may come from speech recognition: ' +
  'lowercase, no punctuation, misheard words. Reply with a JSON object only.';

function neutral(): EmotionScores {
  return { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 1, sadness: 0, surprise: 0 };
}

function top(scores: EmotionScores): { label: EmotionLabel; score: number } {
  let label: EmotionLabel = 'neutral';
  let score = -Infinity;
  for (const l of EMOTION_LABELS) {
    if (scores[l] > score) {
      label = l;
      score = scores[l];
    }
  }
  return { label, score };
}

/**
 * Scores for the seven labels from what a model said: numbers (or numeric strings) per label, missing
 * labels 0, percentages accepted, normalised to sum 1. A bare "label" gives that label 1.
 */
export function normaliseEmotionScores(raw: unknown, label?: unknown): EmotionScores {
  const scores = { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 0, sadness: 0, surprise: 0 } as EmotionScores;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const object = raw as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const l = key.toLowerCase().trim() as EmotionLabel;
      if (!EMOTION_LABELS.includes(l)) continue;
      const v = typeof object[key] === 'string' ? Number(String(object[key]).replace('%', '')) : object[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`the score for "${key}" is not a number`);
      scores[l] = Math.max(0, v);
    }
  } else if (raw !== undefined && raw !== null) {
    throw new TypeError('"scores" is not an object');
  }
  let sum = EMOTION_LABELS.reduce((s, l) => s + scores[l], 0);
  if (sum === 0 && typeof label === 'string' && EMOTION_LABELS.includes(label.toLowerCase().trim() as EmotionLabel)) {
    scores[label.toLowerCase().trim() as EmotionLabel] = 1;
    sum = 1;
  }
  if (sum === 0) throw new TypeError('all scores are zero or missing');
  for (const l of EMOTION_LABELS) scores[l] = scores[l] / sum;
  return scores;
}

/** Engines that send the transcript in batches of segments. */
abstract class LlmBatchEngine {
  readonly name: string;
  protected readonly client: OpenAiChatClient;
  protected readonly maxSegments: number;
  protected readonly maxChars: number;

  constructor(options: LlmEngineOptions) {
    this.client = options.client;
    this.name = options.name ?? 'llm';
    this.maxSegments = options.maxSegmentsPerRequest ?? 40;
    this.maxChars = options.maxCharsPerRequest ?? 12_000;
  }
}

export class LlmEmotionEngine extends LlmBatchEngine implements EmotionEngine {
  readonly languages = 'any' as const;

  async analyze(input: AnalysisInput): Promise<EmotionEntry[]> {
    const { document, signal, language } = input;
    const scores = new Map<number, EmotionScores>();
    const spoken = document.segments.filter((s) => s.text.trim());
    for (const batch of batches(spoken, this.maxSegments, this.maxChars)) {
      signal.throwIfAborted();
      let pending = batch;
      // Segments the model skipped are asked for once more on their own.
      for (let round = 0; round < 2 && pending.length; round++) {
        const found = await this.scoreBatch(pending, language, signal);
        for (const [id, s] of found) scores.set(id, s);
        pending = pending.filter((s) => !scores.has(s.id));
      }
      if (pending.length) {
        throw new LlmError(
          `The LLM (model "${this.client.model}") gave no emotion scores for segment${pending.length > 1 ? 's' : ''} ${pending.map((s) => s.id).join(', ')}.`,
          'invalid_response',
        );
      }
    }
    const entries: EmotionEntry[] = document.segments.map((s) => {
      const sc = scores.get(s.id) ?? neutral(); // nothing said: neutral
      return { segment_id: s.id, start: s.start, end: s.end, speaker: s.speaker, ...top(sc), scores: sc };
    });
    entries.push(overall(document, entries));
    return entries;
  }

  private scoreBatch(segments: TranscriptSegment[], language: string, signal: AbortSignal): Promise<Map<number, EmotionScores>> {
    const wanted = new Set(segments.map((s) => s.id));
    const prompt =
      `Rate the emotion of each segment of this ${languageName(language)} transcript. ` +
      'Each line is one segment: [segment id] start-end (hours:minutes:seconds) optional speaker: text.\n' +
      `For every segment give a probability for each of the labels ${EMOTION_LABELS.join(', ')}; the seven numbers are between 0 and 1 and add up to 1. ` +
      'Use "neutral" for plain statements.\n\n' +
      'Reply with a JSON object of this shape, one entry per segment id listed:\n' +
      `{"segments": [{"segment_id": ${segments[0]!.id}, "scores": {${EMOTION_LABELS.map((l) => `"${l}": 0.0`).join(', ')}}}]}\n\n` +
      `Segments:\n${segments.map(segmentLine).join('\n')}`;
    return askJson(
      this.client,
      [
        { role: 'system', content: EMOTION_SYSTEM },
        { role: 'user', content: prompt },
      ],
      signal,
      `emotion scores of ${idRange(segments)}`,
      (value) => {
        const list = value.segments ?? value.results ?? value.emotions;
        if (!Array.isArray(list)) throw new TypeError('"segments" is missing or not a list');
        const out = new Map<number, EmotionScores>();
        for (const raw of list) {
          if (!raw || typeof raw !== 'object') continue;
          const item = raw as Record<string, unknown>;
          const id = Number(item.segment_id ?? item.id);
          if (!wanted.has(id)) continue;
          const source = item.scores ?? (EMOTION_LABELS.some((l) => l in item) ? item : undefined);
          out.set(id, normaliseEmotionScores(source, item.label));
        }
        if (out.size === 0 && wanted.size > 0) throw new TypeError('no entry names a segment_id that was asked for');
        return out;
      },
    );
  }
}

/** The whole transcript: segment scores averaged, weighted by how long each segment lasts. */
function overall(document: TranscriptDocument, entries: EmotionEntry[]): EmotionEntry {
  const spoken = entries.filter((e, i) => document.segments[i]!.text.trim());
  const sums = neutral();
  sums.neutral = 0;
  let total = 0;
  for (const e of spoken) {
    const w = Math.max(e.end - e.start, 0.1);
    for (const l of EMOTION_LABELS) sums[l] += e.scores[l] * w;
    total += w;
  }
  const scores = total > 0 ? (Object.fromEntries(EMOTION_LABELS.map((l) => [l, sums[l] / total])) as EmotionScores) : neutral();
  const first = document.segments[0];
  const last = document.segments[document.segments.length - 1];
  return { segment_id: null, start: first?.start ?? 0, end: last?.end ?? document.duration, speaker: null, ...top(scores), scores };
}

// ---------------------------------------------------------------------------------------------
// Translation

const TRANSLATION_SYSTEM =
  'You are a professional translator of transcripts. Translate faithfully, keep names and numbers, do not add or omit content. ' +
  'Transcripts may come from speech recognition: lowercase, no punctuation, misheard words; translate the intended meaning with normal punctuation. ' +
  'Reply with a JSON object only.';

const joinSegments = (texts: string[], language: string) =>
  texts.filter(Boolean).join(isSpaceless(language) ? '' : ' ');

export class LlmTranslationEngine extends LlmBatchEngine implements TranslationEngine {
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
        throw new LlmError(
          `The LLM (model "${this.client.model}") returned no translation for segment${pending.length > 1 ? 's' : ''} ${pending.map((s) => s.id).join(', ')}.`,
          'invalid_response',
        );
      }
    }
    const segments: TranslatedSegment[] = document.segments.map((s) => ({
      segment_id: s.id,
      start: s.start,
      end: s.end,
      text: translated.get(s.id) ?? '',
    }));
    return { translatedText: joinSegments(segments.map((s) => s.text), target), segments };
  }

  private translateBatch(segments: TranscriptSegment[], source: string, target: string, signal: AbortSignal): Promise<Map<number, string>> {
    const wanted = new Set(segments.map((s) => s.id));
    const lines = segments.map((s) => ({ id: s.id, start: formatTime(s.start), end: formatTime(s.end), text: s.text.replace(/\s+/g, ' ').trim() }));
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
