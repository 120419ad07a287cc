// Rule-based machine translation with Apertium (Debian's apertium and apertium-* pair packages).
//
// The installed pairs are discovered at run time (`apertium -l`), so targets() reflects what this
// machine has. A transcript is translated segment by segment, to stay aligned with the audio, in one
// apertium process: each segment goes in as its own HTML paragraph, <p id="sN">…</p>. Apertium keeps
// tags in place and treats a block element as a boundary that its rules do not reorder words
// across, so every paragraph comes back with its id and only its own words.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TranslatedSegment } from '../../../src-shared/analysis.js';
import { EngineError } from '../../domain/engine-error.js';
import type { AnalysisInput, TranslationEngine, TranslationResult } from '../../domain/analysis-engines.js';

/** ISO 639-3 (and a few other) codes Apertium uses in mode names, with their ISO 639-1 code. */
const ISO_639_1: Record<string, string> = {
  afr: 'af',
  arg: 'an',
  bel: 'be',
  bre: 'br',
  bul: 'bg',
  cat: 'ca',
  ces: 'cs',
  cym: 'cy',
  dan: 'da',
  deu: 'de',
  ell: 'el',
  eng: 'en',
  epo: 'eo',
  eus: 'eu',
  fin: 'fi',
  fra: 'fr',
  gle: 'ga',
  glg: 'gl',
  hin: 'hi',
  hrv: 'hr',
  ind: 'id',
  isl: 'is',
  ita: 'it',
  kaz: 'kk',
  lav: 'lv',
  lit: 'lt',
  mkd: 'mk',
  mlt: 'mt',
  nld: 'nl',
  nno: 'nn',
  nob: 'nb',
  nor: 'no',
  oci: 'oc',
  pol: 'pl',
  por: 'pt',
  ron: 'ro',
  rus: 'ru',
  slk: 'sk',
  slv: 'sl',
  spa: 'es',
  sqi: 'sq',
  srd: 'sc',
  swe: 'sv',
  tat: 'tt',
  tur: 'tr',
  ukr: 'uk',
  urd: 'ur',
  zlm: 'ms',
  msa: 'ms',
};

export interface ApertiumPair {
  source: string;
  target: string;
  /** The apertium mode that translates it, e.g. "eng-spa". */
  mode: string;
}

/**
 * The plain "src-tgt" modes of an `apertium -l` listing as ISO 639-1 pairs. Variants ("eng-cat_valencia",
 * "en-eo-bytecode") and languages without a two-letter code are left out.
 */
export function parseApertiumModes(modes: readonly string[]): ApertiumPair[] {
  const pairs = new Map<string, ApertiumPair>();
  for (const raw of modes) {
    const mode = raw.trim();
    const m = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(mode);
    if (!m) continue;
    const source = m[1]!.length === 2 ? m[1]! : ISO_639_1[m[1]!];
    const target = m[2]!.length === 2 ? m[2]! : ISO_639_1[m[2]!];
    if (!source || !target || source === target) continue;
    const key = `${source}>${target}`;
    // Prefer the three-letter mode name: newer packages use it, old two-letter names linger as aliases.
    const existing = pairs.get(key);
    if (!existing || (existing.mode.length < mode.length && mode.length === 7))
      pairs.set(key, { source, target, mode });
  }
  return [...pairs.values()];
}

/**
 * Removes Apertium's marks from a translation: "*word" (unknown word), "@word" (no translation in the
 * bilingual dictionary), "#word" (could not be generated). The word itself stays: it is the best
 * there is. A mark that was in the source text ("#hashtag", "@name") is kept.
 */
export function stripApertiumMarks(translated: string, source = ''): string {
  return translated.replace(
    /(^|[^\p{L}\p{N}_])([*@#])(?=[\p{L}\p{N}])([\p{L}\p{N}_'-]*)/gu,
    (all, before: string, mark: string, word: string) =>
      mark !== '*' && source.includes(mark + word) ? all : before + word,
  );
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, entity: string) => {
    const e = entity.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[e] ?? '';
  });
}

/** What speech recognisers leave in text: silence and noise tokens ("<sil>", "[noise]", "++um++"). */
const RECOGNISER_MARKUP =
  /<\/?(?:s|sil|unk|noise)>|\[(?:noise|laugh(?:ter)?|music|sil|silence|breath|cough|um|uh|inaudible|unk)\]|\+\+[a-z]*\+\+/gi;

/** Source-side clean-up that Apertium needs from ASR text: a lowercase "i" is unknown to its English analyser, and segments start lowercase. */
function prepareSource(text: string, source: string): string {
  let out = text.replace(RECOGNISER_MARKUP, ' ').replace(/\s+/g, ' ').trim();
  if (source === 'en') out = out.replace(/(^|[^\p{L}'])i(?=$|[\s'’.,!?;:])/gu, '$1I');
  // A segment starts a sentence: said so, apertium does not capitalise the word after an unknown first word.
  return out.charAt(0).toUpperCase() + out.slice(1);
}

const joinSegments = (texts: string[], language: string) =>
  texts.filter(Boolean).join(['ja', 'zh', 'th', 'lo', 'km', 'my'].includes(language) ? '' : ' ');

export interface ApertiumOptions {
  /** The apertium executable (default "apertium" on PATH). */
  command?: string;
  /** Language data directory, passed as -d (default: where apertium looks itself). */
  dataDir?: string;
  /** Use these modes instead of asking `apertium -l` (e.g. ["eng-spa", "spa-eng"]). */
  modes?: readonly string[];
  /** Bound on one apertium run, in ms (default 10 minutes). */
  timeoutMs?: number;
  /** Most characters of text sent in one apertium run (default 200,000); longer transcripts take several. */
  maxBatchChars?: number;
}

export class ApertiumTranslationEngine implements TranslationEngine {
  readonly name = 'apertium';
  readonly offline = true;
  private readonly command: string;
  private discovered: ApertiumPair[] | undefined;

  constructor(private readonly options: ApertiumOptions = {}) {
    this.command = options.command ?? 'apertium';
  }

  /** The pairs installed (discovered once, on first use). */
  pairs(): readonly ApertiumPair[] {
    if (!this.discovered) this.discovered = parseApertiumModes(this.options.modes ?? this.listModes());
    return this.discovered;
  }

  /** Looks for installed pairs again (after installing a package). */
  refresh(): readonly ApertiumPair[] {
    this.discovered = undefined;
    return this.pairs();
  }

  targets(source: string): readonly string[] {
    return this.pairs()
      .filter((p) => p.source === source)
      .map((p) => p.target)
      .sort();
  }

  async translate(input: AnalysisInput, target: string): Promise<TranslationResult> {
    const { document, signal } = input;
    const source = input.language;
    const pair = this.pairs().find((p) => p.source === source && p.target === target);
    if (!pair) {
      const available = this.targets(source);
      throw new EngineError(
        'unsupported',
        `This server has no installed pair from "${source}" to "${target}". ` +
          `Targets from "${source}": ${available.length ? available.join(', ') : 'none'}.`,
        { field: 'language', detail: `apertium has no mode ${source}-${target}` },
      );
    }
    signal.throwIfAborted();
    const prepared = document.segments.map((s) => prepareSource(s.text, source));
    const translated = new Map<number, string>();
    const maxChars = this.options.maxBatchChars ?? 200_000;
    let batch: number[] = [];
    let size = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const html = batch.map((i) => `<p id="s${i}">${escapeHtml(prepared[i]!)}</p>`).join('\n') + '\n';
      const out = await this.run(pair.mode, html, signal);
      for (const m of out.matchAll(/<p id="s(\d+)">([\s\S]*?)<\/p>/g)) translated.set(Number(m[1]), m[2]!);
      batch = [];
      size = 0;
    };
    for (let i = 0; i < prepared.length; i++) {
      if (!prepared[i]) continue;
      if (size > 0 && size + prepared[i]!.length > maxChars) await flush();
      batch.push(i);
      size += prepared[i]!.length;
    }
    await flush();
    // A paragraph lost in translation (it should not happen) is translated on its own.
    for (let i = 0; i < prepared.length; i++) {
      if (prepared[i] && !translated.has(i)) {
        translated.set(i, escapeHtml(await this.run(pair.mode, `${prepared[i]!}\n`, signal, 'txt')));
      }
    }
    const segments: TranslatedSegment[] = document.segments.map((s, i) => {
      const raw = translated.get(i);
      const text =
        raw === undefined ? '' : stripApertiumMarks(decodeHtml(raw).replace(/\s+/g, ' ').trim(), prepared[i]);
      return { segment_id: s.id, start: s.start, end: s.end, text };
    });
    return {
      translatedText: joinSegments(
        segments.map((s) => s.text),
        target,
      ),
      segments,
    };
  }

  private listModes(): string[] {
    const args = [...(this.options.dataDir ? ['-d', this.options.dataDir] : []), '-l'];
    const result = spawnSync(this.command, args, { encoding: 'utf8', timeout: 15_000 });
    if (result.error || result.status !== 0) return [];
    return result.stdout.split('\n').filter(Boolean);
  }

  /**
   * One apertium run over `text`, killed on abort or time-out. The text goes in as a file: the apertium
   * script reads /dev/stdin by name, which cannot be opened when stdin is the socket Node gives a child.
   */
  private async run(mode: string, text: string, signal: AbortSignal, format: 'html' | 'txt' = 'html'): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'kikitori-apertium-'));
    try {
      const file = path.join(dir, `input.${format}`);
      await writeFile(file, text, 'utf8');
      return await this.runFile(mode, file, signal, format);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private runFile(mode: string, file: string, signal: AbortSignal, format: 'html' | 'txt'): Promise<string> {
    const args = [...(this.options.dataDir ? ['-d', this.options.dataDir] : []), '-u', '-f', format, mode, file];
    return new Promise<string>((resolve, reject) => {
      signal.throwIfAborted();
      // Its own process group, so that stopping it stops the whole pipeline the apertium script starts.
      // Transfuse (an optional helper apertium uses when installed) is left out so that every machine
      // runs the same deformatter.
      const child = spawn(this.command, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        // The child inherits the environment (PATH, locale); this is not configuration.
        // eslint-disable-next-line no-restricted-properties
        env: { ...process.env, APERTIUM_TRANSFUSE: 'no' },
      });
      const kill = (sig: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, sig);
        } catch {
          child.kill(sig);
        }
      };
      const out: Buffer[] = [];
      let err = '';
      // An EngineError, or the abort's own reason (a cancellation is not the engine's failure).
      let failure: Error | null = null;
      const stop = (error: Error) => {
        if (failure) return;
        failure = error;
        kill('SIGTERM');
        setTimeout(() => child.exitCode === null && child.signalCode === null && kill('SIGKILL'), 2000).unref();
      };
      const onAbort = () =>
        stop(
          signal.reason instanceof Error
            ? signal.reason
            : new DOMException('The translation was cancelled.', 'AbortError'),
        );
      signal.addEventListener('abort', onAbort, { once: true });
      const timeoutMs = this.options.timeoutMs ?? 600_000;
      const timer = setTimeout(
        () =>
          stop(
            new EngineError('transient', 'The translation took too long and was stopped. Try again later.', {
              detail: `apertium (${mode}) took longer than ${Math.round(timeoutMs / 1000)} s`,
            }),
          ),
        timeoutMs,
      );
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        err = (err + chunk.toString('utf8')).slice(-2000);
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        stop(
          new EngineError(
            'unavailable',
            "Translation cannot run on this server. Ask the server's administrator to install it.",
            {
              detail:
                error.code === 'ENOENT'
                  ? `apertium is not installed (no "${this.command}" on PATH); install the apertium packages`
                  : `apertium does not start: ${error.code ?? error.message}`,
              cause: error,
            },
          ),
        );
      });
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (failure) return reject(failure);
        if (code !== 0) {
          return reject(
            new EngineError(
              'transient',
              'The translation failed because of a problem on the server. Try again later.',
              {
                detail: `apertium (${mode}) failed (${sig ?? `exit ${code}`}): ${err.trim() || 'no message'}`,
              },
            ),
          );
        }
        resolve(Buffer.concat(out).toString('utf8'));
      });
    });
  }
}
