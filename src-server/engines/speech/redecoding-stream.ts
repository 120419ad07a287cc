// A live stream for recognizers that decode whole windows, not samples as they come (whisper): the open
// utterance's audio is decoded again from its start every `stepSeconds` of new audio, one pass at a time,
// and a word is shown only once two passes in a row agree on it and on every word before it (the "local
// agreement" policy of whisper_streaming, Macháček et al. 2023). The end of the utterance decodes it once
// more; those words are final. Passes never queue up: a slow machine makes fewer of them, not a backlog.
import type { RecognizedWord } from './speech-engine.js';
import type { RecognitionStream } from './streaming-recognizer.js';

const SAMPLE_RATE = 16000;

/** Decodes one utterance's audio (16 kHz, at most the recognizer's window): its words, timed from 0. */
export interface WindowDecoder {
  /** A pass while the utterance goes on. */
  decode(pcm: Int16Array): Promise<RecognizedWord[]>;
  /** The utterance's final decode (it may take more care, e.g. a temperature fallback). */
  decodeFinal(pcm: Int16Array): Promise<RecognizedWord[]>;
  /** Gives the decoder back (the stream is closed). */
  release(): void;
}

export interface RedecodingOptions {
  /** New audio between two passes (default 1 s). */
  stepSeconds?: number;
  /** Reports a pass that failed (the next one may still succeed; the final decode decides). */
  onPassError?: (error: unknown) => void;
}

/** Words compared the way a reader would: case and punctuation aside. */
const comparable = (word: string) => word.toLocaleLowerCase().replace(/[\p{P}\p{S}]/gu, '');

/** How many leading words two hypotheses share. */
export function agreedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && comparable(a[n]!) === comparable(b[n]!)) n++;
  return n;
}

export class RedecodingStream implements RecognitionStream {
  private readonly stepSamples: number;
  private chunks: Int16Array[] = [];
  private samples = 0;
  private decodedAt = 0;
  private offset = 0;
  private open = false;
  private closed = false;
  private pass: Promise<void> | null = null;
  /** The previous pass's words, and the words two passes agreed on (only ever extended in an utterance). */
  private previous: string[] = [];
  private confirmed: string[] = [];

  constructor(
    private readonly decoder: WindowDecoder,
    private readonly options: RedecodingOptions = {},
  ) {
    this.stepSamples = Math.round((options.stepSeconds ?? 1) * SAMPLE_RATE);
  }

  startUtterance(offsetSeconds: number): void {
    if (this.closed) throw new Error('live stream: closed');
    if (this.open) throw new Error('live stream: an utterance is already open');
    this.open = true;
    this.offset = offsetSeconds;
    this.chunks = [];
    this.samples = 0;
    this.decodedAt = 0;
    this.previous = [];
    this.confirmed = [];
  }

  async feed(samples: Int16Array): Promise<void> {
    if (!this.open) throw new Error('live stream: no open utterance');
    this.chunks.push(samples.slice());
    this.samples += samples.length;
    if (this.pass || this.samples - this.decodedAt < this.stepSamples) return;
    this.decodedAt = this.samples;
    const audio = this.audio();
    this.pass = this.decoder
      .decode(audio)
      .then((words) => {
        if (!this.open) return;
        this.agree(words.map((w) => w.word));
      })
      .catch((error: unknown) => this.options.onPassError?.(error))
      .finally(() => (this.pass = null));
  }

  partial(): string[] {
    return this.open ? [...this.confirmed] : [];
  }

  async endUtterance(): Promise<RecognizedWord[]> {
    if (!this.open) throw new Error('live stream: no open utterance');
    await this.pass;
    this.open = false;
    const words = await this.decoder.decodeFinal(this.audio());
    return words.map((w) => ({ ...w, start: w.start + this.offset, end: w.end + this.offset }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    await this.pass;
    this.decoder.release();
  }

  private agree(words: string[]): void {
    const agreed = agreedPrefix(this.previous, words);
    this.previous = words;
    // A pass that revises words already shown changes nothing here: the final decode settles them.
    if (agreed > this.confirmed.length && agreedPrefix(this.confirmed, words) === this.confirmed.length)
      this.confirmed = words.slice(0, agreed);
  }

  private audio(): Int16Array {
    if (this.chunks.length > 1) this.chunks = [concatSamples(this.chunks)];
    return this.chunks[0] ?? new Int16Array(0);
  }
}

function concatSamples(chunks: Int16Array[]): Int16Array {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
