// Remote speech engine: any OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI itself,
// whisper.cpp's server, faster-whisper servers, another kikitori-server's /v1). The PCM is sent as
// a WAV streamed from disk (a 44-byte header in front of a file-backed Blob: never read into memory),
// asking for verbose_json with word and segment timestamps; the answer is mapped to our segments.
//
// Failures: 401/403 (key) and other 4xx (the audio or request was refused) are permanent; network
// errors, timeouts, 408, 429 and 5xx are 'transient' (the job runner tries again). The service's host
// and its answer go in the error's detail, for the log: users see what happened and what to do.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { EngineError, operatorMessage } from '../../domain/engine-error.js';
import { PCM_BYTES_PER_SECOND, SAMPLE_RATE } from '../audio/ffmpeg.js';
import type {
  RecognizedSegment,
  RecognizedWord,
  RecognizeRequest,
  RecognizeResult,
  SpeechEngine,
  SpeechEngineCapabilities,
} from './speech-engine.js';
import { vocabularyPrompt } from './vocabulary-prompt.js';
import { WHISPER_LANGUAGES } from './whisper-engine.js';

export interface OpenAiRemoteEngineOptions {
  /** KIKITORI_REMOTE_ASR_BASE_URL, e.g. https://api.openai.com/v1 (the path before /audio/transcriptions). */
  baseUrl?: string;
  /** KIKITORI_REMOTE_ASR_API_KEY: sent as "Authorization: Bearer". */
  apiKey?: string;
  /** KIKITORI_REMOTE_ASR_MODEL (default whisper-1). */
  model?: string;
  /** KIKITORI_REMOTE_ASR_LANGUAGES: what the service recognizes (default whisper's languages). */
  languages?: readonly string[];
  /** Per-request limit (KIKITORI_REMOTE_ASR_TIMEOUT_MS, default 30 min). */
  timeoutMs?: number;
}

interface VerboseWord {
  word?: unknown;
  start?: unknown;
  end?: unknown;
  probability?: unknown;
}
interface VerboseSegment {
  start?: unknown;
  end?: unknown;
  text?: unknown;
}
interface VerboseJson {
  text?: unknown;
  language?: unknown;
  duration?: unknown;
  segments?: VerboseSegment[];
  words?: VerboseWord[];
}

export class OpenAiRemoteEngine implements SpeechEngine {
  readonly name = 'remote';
  /** Sending no language lets the service detect it. */
  readonly detectsLanguage = true;
  readonly capabilities: SpeechEngineCapabilities;
  private readonly baseUrl: string | null;
  private readonly model: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAiRemoteEngineOptions = {}) {
    this.baseUrl = options.baseUrl?.trim().replace(/\/+$/, '') || null;
    this.model = options.model?.trim() || 'whisper-1';
    this.timeoutMs = options.timeoutMs ?? 30 * 60_000;
    this.capabilities = {
      languages: options.languages && options.languages.length > 0 ? options.languages : WHISPER_LANGUAGES,
      wordTimestamps: true,
      customVocabulary: true,
      speakerSeparation: false,
    };
  }

  async checkUsable(): Promise<{ usable: boolean; reason: string | null; detail: string | null }> {
    try {
      const url = this.endpoint();
      const keyNote = this.options.apiKey
        ? 'with an API key'
        : 'without an API key (KIKITORI_REMOTE_ASR_API_KEY unset)';
      return { usable: true, reason: null, detail: `POST ${url} model ${this.model}, ${keyNote} (not contacted)` };
    } catch (error) {
      return { usable: false, reason: operatorMessage(error), detail: null };
    }
  }

  private endpoint(): string {
    if (!this.baseUrl) {
      throw new EngineError('unavailable', 'No remote speech service is configured on this server.', {
        detail:
          'set KIKITORI_REMOTE_ASR_BASE_URL (e.g. https://api.openai.com/v1), KIKITORI_REMOTE_ASR_API_KEY and KIKITORI_REMOTE_ASR_MODEL',
      });
    }
    if (!/^https?:\/\/[^/]+/.test(this.baseUrl)) {
      throw new EngineError('unavailable', 'The remote speech service of this server is misconfigured.', {
        detail: `KIKITORI_REMOTE_ASR_BASE_URL must be an http(s) URL, got "${this.baseUrl}"`,
      });
    }
    return `${this.baseUrl}/audio/transcriptions`;
  }

  async recognize(request: RecognizeRequest): Promise<RecognizeResult> {
    const { signal } = request;
    const url = this.endpoint();
    const host = new URL(url).host;
    signal.throwIfAborted();
    const { size } = await fsp.stat(request.pcmPath);
    const duration = size / PCM_BYTES_PER_SECOND;
    request.onProgress?.(0);

    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(wavHeader(size)), await fs.openAsBlob(request.pcmPath)], { type: 'audio/wav' }),
      'audio.wav',
    );
    form.append('model', this.model);
    const language = request.language.toLowerCase();
    if (language !== 'auto') form.append('language', language);
    const prompt = vocabularyPrompt(request.vocabulary, language);
    if (prompt) form.append('prompt', prompt);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');

    let response: Response;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      response = await fetch(url, {
        method: 'POST',
        body: form,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted) {
        throw new EngineError('transient', 'The remote speech service did not answer in time. Try again later.', {
          detail: `${host} did not answer within ${Math.round(this.timeoutMs / 1000)} s`,
        });
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new EngineError('transient', 'The remote speech service could not be reached. Try again later.', {
        detail: `${host} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
        cause: error,
      });
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) throw responseError(response.status, host, body);
    let json: VerboseJson;
    try {
      json = JSON.parse(body) as VerboseJson;
    } catch {
      throw new EngineError(
        'transient',
        'The remote speech service answered with something unreadable. Try again later.',
        {
          detail: `${host} answered with something other than JSON (${body.slice(0, 120)})`,
        },
      );
    }
    const segments = toSegments(json, duration);
    request.onProgress?.(1);
    const speaking = segments.reduce((sum, s) => sum + (s.end - s.start), 0);
    const result: RecognizeResult & { language?: string } = {
      segments,
      speakingDuration: round(speaking),
      model: `${this.model}@${host}`,
    };
    const detected = languageCode(json.language);
    if (detected) result.language = detected;
    return result;
  }
}

function responseError(status: number, host: string, body: string): EngineError {
  let said = body.slice(0, 300);
  let code: string | undefined;
  try {
    const json = JSON.parse(body) as {
      error?: { message?: string; code?: string } | string;
      error_message?: string;
      message?: string;
    };
    said =
      (typeof json.error === 'object' ? json.error?.message : json.error) ?? json.error_message ?? json.message ?? said;
    if (typeof json.error === 'object' && typeof json.error.code === 'string') code = json.error.code;
  } catch {
    // not JSON: keep the text
  }
  const detail = `${host} answered HTTP ${status}${said ? `: ${said}` : ''}`;
  // OpenAI's (and a kikitori-server's) 429 for a used-up quota: retrying cannot help until someone raises it.
  if (status === 429 && code === 'insufficient_quota') {
    return new EngineError(
      'unavailable',
      "The remote speech service's quota for this server is used up. An administrator needs to raise it or free some.",
      { detail },
    );
  }
  if (status === 401 || status === 403) {
    return new EngineError(
      'unavailable',
      "The remote speech service refused this server's credentials. An administrator needs to check its API key.",
      {
        detail: `${detail}. Check KIKITORI_REMOTE_ASR_API_KEY.`,
      },
    );
  }
  if (status === 408 || status === 429 || status >= 500) {
    return new EngineError(
      'transient',
      `The remote speech service is busy or failing (HTTP ${status}). Try again later.`,
      { detail },
    );
  }
  return new EngineError('bad-input', `The remote speech service refused this audio or request (HTTP ${status}).`, {
    detail,
  });
}

/** RIFF header for 16 kHz mono s16le PCM of `dataBytes` bytes. */
export function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(SAMPLE_RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return h;
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
/** Whisper's names that are not the English names of their ISO 639-1 codes. */
const WHISPER_NAME_ALIASES: Record<string, string> = {
  castilian: 'es',
  flemish: 'nl',
  'haitian creole': 'ht',
  letzeburgesch: 'lb',
  moldavian: 'ro',
  moldovan: 'ro',
  myanmar: 'my',
  panjabi: 'pa',
  pushto: 'ps',
  sinhalese: 'si',
  valencian: 'ca',
  javanese: 'jv',
};
let namesToCodes: Map<string, string> | null = null;

/**
 * The ISO 639-1 code of the language a service reports: OpenAI's verbose_json says "japanese" (whisper's
 * language names), other servers "ja". Null when it names no language we know, so the requested one stands.
 */
export function languageCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const said = value.trim().toLowerCase();
  if (!said) return null;
  const code = said.split(/[-_]/)[0]!;
  if (WHISPER_LANGUAGES.includes(code)) return code;
  if (!namesToCodes) {
    namesToCodes = new Map(Object.entries(WHISPER_NAME_ALIASES));
    for (const c of WHISPER_LANGUAGES) namesToCodes.set((LANGUAGE_NAMES.of(c) ?? c).toLowerCase(), c);
  }
  return namesToCodes.get(said) ?? null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * verbose_json -> segments with words. Words (timestamp_granularities[]=word) go to the segment
 * holding their midpoint; a service that returns no words gets words split from the segment text
 * with times spread by length. Times are clamped to the audio and kept monotonic.
 */
export function toSegments(json: VerboseJson, duration: number): RecognizedSegment[] {
  const spans = (json.segments ?? [])
    .map((s) => ({ start: num(s.start), end: num(s.end), text: typeof s.text === 'string' ? s.text.trim() : '' }))
    .filter((s): s is { start: number; end: number; text: string } => s.start !== null && s.end !== null)
    .sort((a, b) => a.start - b.start);
  const words = (json.words ?? [])
    .map((w) => ({
      word: typeof w.word === 'string' ? w.word.trim() : '',
      start: num(w.start),
      end: num(w.end),
      confidence: num(w.probability),
    }))
    .filter(
      (w): w is { word: string; start: number; end: number; confidence: number | null } =>
        w.word !== '' && w.start !== null && w.end !== null,
    )
    .sort((a, b) => a.start - b.start);

  const groups: { start: number; end: number; words: RecognizedWord[] }[] = spans.map((s) => ({
    start: s.start,
    end: s.end,
    words: [],
  }));
  if (words.length > 0) {
    if (groups.length === 0) groups.push({ start: words[0]!.start, end: words[words.length - 1]!.end, words: [] });
    for (const w of words) {
      const mid = (w.start + w.end) / 2;
      let best = groups[0]!;
      for (const g of groups) {
        if (g.start <= mid) best = g;
        else break;
      }
      best.words.push({
        word: w.word,
        start: w.start,
        end: w.end,
        confidence: w.confidence === null ? null : round(Math.min(1, Math.max(0, w.confidence))),
      });
    }
  } else {
    spans.forEach((s, i) => {
      const tokens = s.text.split(/\s+/).filter(Boolean);
      const chars = tokens.reduce((n, t) => n + t.length, 0) || 1;
      let at = s.start;
      for (const t of tokens) {
        const end = at + ((s.end - s.start) * t.length) / chars;
        groups[i]!.words.push({ word: t, start: at, end, confidence: null });
        at = end;
      }
    });
  }

  const segments: RecognizedSegment[] = [];
  let last = 0;
  const clamp = (x: number, min: number) => round(Math.min(duration, Math.max(min, x)));
  for (const g of groups) {
    if (g.words.length === 0) continue;
    const floor = last;
    const out: RecognizedWord[] = [];
    for (const w of g.words) {
      const start = clamp(w.start, last);
      const end = clamp(w.end, start);
      out.push({ ...w, start, end });
      last = end;
    }
    const start = Math.min(out[0]!.start, clamp(g.start, floor));
    const end = Math.max(last, clamp(g.end, last));
    last = end;
    segments.push({ start, end, words: out });
  }
  return segments;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
