// Experiment for bench:vocabulary (decision 0099), not product code: a dictionary term proposed for a stretch
// of recognized words is checked by acoustic evidence. The stretch's audio is decoded twice on a separate
// pocketsphinx decoder (same acoustic model, the CMU dictionary plus the terms' pronunciations), each time
// with a one-sentence JSGF grammar: once the term, once the words the n-gram pass wrote there. The
// difference of the two path scores (logmath units, higher favours the term) is the term's acoustic margin.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import koffi from 'koffi';
import { SAMPLE_RATE } from '../src-server/engines/audio/ffmpeg.js';
import { DEFAULT_POCKETSPHINX_MODEL_DIR } from '../src-server/engines/speech/pocketsphinx-engine.js';
import { loadPocketsphinx, type NativePointer } from '../src-server/engines/speech/pocketsphinx-library.js';
import { DEFAULT_CMUDICT_PATH, pronounceVocabulary } from '../src-server/engines/speech/pronunciation.js';
import type { VocabularyWord } from '../src-server/engines/speech/speech-engine.js';

const FRAME_RATE = 100;
const PAD_SECONDS = 0.1;

export interface AcousticScore {
  term: number;
  heard: number;
  frames: number;
  /** What the grammar decoders returned (the term's, the heard words'). */
  hyps: [string | null, string | null];
}

export class AcousticChecker {
  private constructor(
    private readonly ps: NativePointer,
    private readonly dir: string,
    private readonly known: ReadonlySet<string>,
  ) {}

  static async create(vocabulary: readonly VocabularyWord[]): Promise<AcousticChecker> {
    const lib = loadPocketsphinx();
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `kikitori-acoustic-${randomUUID().slice(0, 8)}-`));
    const cmu = await fsp.readFile(DEFAULT_CMUDICT_PATH, 'utf8');
    const known = new Set(cmu.split('\n').map((l) => l.split(' ')[0]!));
    const lines: string[] = [];
    for (const v of await pronounceVocabulary(vocabulary))
      for (const w of v.words) {
        if (!w || known.has(w.word)) continue;
        known.add(w.word);
        lines.push(`${w.word} ${w.phones}`);
        for (const [i, alt] of (w.alternates ?? []).entries()) lines.push(`${w.word}(${i + 2}) ${alt}`);
      }
    const dict = path.join(dir, 'dict');
    await fsp.writeFile(dict, `${cmu.trimEnd()}\n${lines.join('\n')}\n`);
    const config = lib.createConfig({
      '-hmm': path.join(DEFAULT_POCKETSPHINX_MODEL_DIR, 'en-us'),
      '-lm': path.join(DEFAULT_POCKETSPHINX_MODEL_DIR, 'en-us.lm.bin'),
      '-dict': dict,
      '-remove_silence': 'no',
    });
    if (!config) throw new Error('acoustic checker: bad config');
    const ps = await lib.ps_init(config);
    if (!ps) throw new Error('acoustic checker: ps_init failed');
    return new AcousticChecker(ps, dir, known);
  }

  /** Whether every word is in the checker's dictionary (a grammar can only hold those). */
  knows(words: readonly string[]): boolean {
    return words.every((w) => /^[a-z][a-z']*$/.test(w) && this.known.has(w));
  }

  async score(pcm: Int16Array, start: number, end: number, term: string[], heard: string[]): Promise<AcousticScore> {
    const from = Math.max(0, Math.floor((start - PAD_SECONDS) * SAMPLE_RATE));
    const to = Math.min(pcm.length, Math.ceil((end + PAD_SECONDS) * SAMPLE_RATE));
    const samples = pcm.slice(from, to);
    const a = await this.decode(samples, term);
    const b = await this.decode(samples, heard);
    return { term: a.score, heard: b.score, frames: (to - from) / (SAMPLE_RATE / FRAME_RATE), hyps: [a.hyp, b.hyp] };
  }

  private async decode(samples: Int16Array, words: string[]): Promise<{ score: number; hyp: string | null }> {
    const lib = loadPocketsphinx();
    const b = (bindings ??= bind());
    const grammar = `#JSGF V1.0;\ngrammar check;\npublic <s> = ${words.join(' ')};\n`;
    if (b.setJsgf(this.ps, 'check', grammar) < 0 || b.setSearch(this.ps, 'check') < 0)
      throw new Error(`acoustic checker: grammar refused: ${words.join(' ')}`);
    if (lib.ps_start_utt(this.ps) < 0) throw new Error('acoustic checker: start');
    await lib.processRaw(this.ps, samples, true);
    await lib.ps_end_utt(this.ps);
    const score: [number] = [0];
    const hyp = b.getHyp(this.ps, score);
    // No path through the grammar: the worst score there is.
    return { score: hyp ? score[0] : -Infinity, hyp };
  }

  async close(): Promise<void> {
    loadPocketsphinx().ps_free(this.ps);
    await fsp.rm(this.dir, { recursive: true, force: true });
  }
}

interface Bindings {
  setJsgf(ps: NativePointer, name: string, grammar: string): number;
  setSearch(ps: NativePointer, name: string): number;
  getHyp(ps: NativePointer, score: [number]): string | null;
}
let bindings: Bindings | undefined;
function bind(): Bindings {
  const ps = koffi.load('libpocketsphinx.so.3');
  const p = 'void *';
  const setJsgf = ps.func('ps_set_jsgf_string', 'int', [p, 'str', 'str']);
  const setSearch = ps.func('ps_set_search', 'int', [p, 'str']);
  const getHyp = ps.func('ps_get_hyp', 'const char *', [p, koffi.out(koffi.pointer('int32_t'))]);
  return {
    setJsgf: (d, n, g) => setJsgf(d, n, g) as number,
    setSearch: (d, n) => setSearch(d, n) as number,
    getHyp: (d, s) => getHyp(d, s) as string | null,
  };
}
