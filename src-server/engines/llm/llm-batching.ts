// What the LLM engines share: how a segment appears in a prompt, cutting a transcript into requests,
// and asking for a JSON answer (again once, with the problem stated, when it cannot be used).
import ISO6391 from 'iso-639-1';
import type { TranscriptSegment } from '../../../src-shared/transcript-document.js';
import { parseJsonObject, unusableAnswer, type ChatMessage, type OpenAiChatClient } from './openai-chat-client.js';

export interface LlmEngineOptions {
  client: OpenAiChatClient;
  /** The engine's name in configuration and results (default "llm"). */
  name?: string;
  /** Most segments in one request (emotion and translation; default 40). */
  maxSegmentsPerRequest?: number;
  /** Most characters of transcript in one request (default 12,000 for emotion and translation, 40,000 for summary). */
  maxCharsPerRequest?: number;
}

export function formatTime(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = (s % 60).toFixed(1).padStart(4, '0');
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec}`;
}

/**
 * "[12] 00:01:05.2-00:01:09.8 SPEAKER_1: text": how a segment appears in a prompt; the speaker by name
 * ("Alice:") where `names` has one for the label.
 */
export function segmentLine(segment: TranscriptSegment, names: Readonly<Record<string, string>> = {}): string {
  const speaker = segment.speaker && (names[segment.speaker] ?? segment.speaker);
  const who = speaker ? ` ${speaker}:` : '';
  return `[${segment.id}] ${formatTime(segment.start)}-${formatTime(segment.end)}${who} ${segment.text.replace(/\s+/g, ' ').trim()}`;
}

export function languageName(code: string): string {
  const base = code.toLowerCase().split(/[-_]/)[0] ?? code;
  const name = ISO6391.getName(base);
  return name ? `${name} (${code})` : code;
}

/** Cuts segments into batches of at most `maxSegments` and about `maxChars` characters. */
export function batches(segments: TranscriptSegment[], maxSegments: number, maxChars: number): TranscriptSegment[][] {
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

export const idRange = (segments: TranscriptSegment[]) =>
  segments.length === 1
    ? `segment ${segments[0]!.id}`
    : `segments ${segments[0]!.id}–${segments[segments.length - 1]!.id}`;

/**
 * One chat request whose answer must be a JSON object that `read` accepts. A malformed answer is asked
 * for again once, with the problem stated; a second failure is an EngineError whose detail names the problem.
 */
export async function askJson<T>(
  client: OpenAiChatClient,
  messages: ChatMessage[],
  signal: AbortSignal,
  what: string,
  read: (value: Record<string, unknown>) => T,
): Promise<T> {
  let problem = '';
  let malformed = true;
  for (let attempt = 0; attempt < 2; attempt++) {
    const conversation =
      attempt === 0
        ? messages
        : [
            ...messages,
            {
              role: 'user' as const,
              content: `Your previous answer could not be used: ${problem}. Reply again with only the JSON object described above.`,
            },
          ];
    const answer = await client.complete(conversation, { json: true, signal });
    try {
      return read(parseJsonObject(answer.content));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof TypeError)) throw error;
      malformed = error instanceof SyntaxError;
      problem =
        error.message + (answer.finishReason === 'length' ? ' (the answer was cut off at the token limit)' : '');
    }
  }
  const said = malformed ? 'malformed JSON' : 'JSON of the wrong shape';
  throw unusableAnswer(`The LLM (model "${client.model}") returned ${said} for ${what}: ${problem}.`);
}

/** Engines that send the transcript in batches of segments. */
export abstract class LlmBatchEngine {
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
