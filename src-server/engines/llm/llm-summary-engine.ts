// Summary through an OpenAI-compatible chat model: overview, key points, action items, decisions and
// dates, each pointing back at the segment it comes from. A long transcript is summarised in parts,
// then the parts are combined.
import type { ActionItem, SummaryDetails, SummaryItem } from '../../../src-shared/analysis.js';
import { transcriptSpeakerNames } from '../../../src-shared/speaker-names.js';
import type { TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, SummaryEngine, SummaryResult } from '../../domain/analysis-engines.js';
import { formatSummaryText } from '../summary/summary-text.js';
import {
  askJson,
  batches,
  formatTime,
  idRange,
  languageName,
  segmentLine,
  type LlmEngineOptions,
} from './llm-batching.js';
import type { OpenAiChatClient } from './openai-chat-client.js';

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

/** Owners as names (issue 27 item 10): the speakers appear in the transcript by the names the team gave them. */
const OWNERS =
  "Speakers appear by name where the team named them. Give an owner as a person's name whenever the transcript " +
  'says who: the speaker\'s own name for "I will…", the name of the person addressed for "you will…"; for "we" ' +
  'write "we", never one person\'s name; null when nobody is meant. ';

type PartialSummary = SummaryDetails;

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
      const details: SummaryDetails = {
        overview: language.toLowerCase().startsWith('ja')
          ? '発話はありませんでした。'
          : 'Nothing was said in this recording.',
        key_points: [],
        action_items: [],
        decisions: [],
        dates: [],
      };
      return { summarizedText: formatSummaryText(details, language), details };
    }
    const parts = batches(spoken, Number.MAX_SAFE_INTEGER, this.maxChars);
    const names = transcriptSpeakerNames(document);
    const partials: PartialSummary[] = [];
    for (const [i, part] of parts.entries()) {
      signal.throwIfAborted();
      partials.push(await this.summarizePart(part, i, parts.length, language, names, byId, signal));
    }
    const details = partials.length === 1 ? partials[0]! : await this.combine(partials, language, byId, signal);
    return { summarizedText: formatSummaryText(details, language), details };
  }

  private summarizePart(
    segments: TranscriptSegment[],
    index: number,
    count: number,
    language: string,
    names: Readonly<Record<string, string>>,
    byId: Map<number, TranscriptSegment>,
    signal: AbortSignal,
  ): Promise<PartialSummary> {
    const part =
      count > 1 ? `This is part ${index + 1} of ${count} of a longer transcript; summarise this part.\n` : '';
    const prompt =
      `Summarise this transcript. It is in ${languageName(language)}; write the summary in the same language.\n` +
      part +
      'Each line is one segment: [segment id] start-end (hours:minutes:seconds) optional speaker: text.\n' +
      'Every item must give the segment_id of the segment it comes from, so it can be linked to the audio. ' +
      'Action items are tasks someone is to do after the meeting; decisions are what was agreed or decided, ' +
      'including proposals taken as the way forward ("let\'s move the meeting to Thursday"). ' +
      OWNERS +
      'Use empty lists when there are none. Do not invent owners or dates.\n\n' +
      `Reply with a JSON object of this shape:\n${SUMMARY_SCHEMA}\n\nTranscript:\n${segments.map((s) => segmentLine(s, names)).join('\n')}`;
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
  private async combine(
    partials: PartialSummary[],
    language: string,
    byId: Map<number, TranscriptSegment>,
    signal: AbortSignal,
  ): Promise<SummaryDetails> {
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
        if (typeof value.overview !== 'string' || !value.overview.trim())
          throw new TypeError('"overview" is missing or not a string');
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
  if (typeof value.overview !== 'string' || !value.overview.trim())
    throw new TypeError('"overview" is missing or not a string');
  const actions: ActionItem[] = [];
  const rawActions = value.action_items;
  if (rawActions !== undefined && rawActions !== null && !Array.isArray(rawActions))
    throw new TypeError('"action_items" is not a list');
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
