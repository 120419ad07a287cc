// Pronunciations for custom vocabulary, in the ARPAbet phone set of the CMU en-us acoustic model.
// Derivation order: (a) the user's phonetic respelling ("zin tricks"), word by word from the CMU
// dictionary, with the spelling's own pronunciation kept as an alternate (decision 0096); (b) the CMU
// dictionary entry of the word itself; (c) espeak-ng letter-to-sound, its IPA mapped onto ARPAbet.
import { execFile, spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import { promisify } from 'node:util';
import { editDistance } from '../../../src-shared/edit-distance.js';
import { EngineError, isEngineError } from '../../domain/engine-error.js';

const execFileAsync = promisify(execFile);

export const DEFAULT_CMUDICT_PATH = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/** The 39 phones of the en-us model (mdef/dict), without SIL and the +NSN+/+SPN+ fillers. */
export const ARPABET_PHONES: ReadonlySet<string> = new Set(
  'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '),
);

export type PronunciationSource = 'reading' | 'cmudict' | 'espeak';

export interface Pronunciation {
  /** Dictionary key: the word lowercased, as the decoder's dictionary and LM spell it. */
  word: string;
  /** Space-separated ARPAbet phones. */
  phones: string;
  source: PronunciationSource;
  /**
   * Other phones for the same word, also added to the decoder: the spelling's own pronunciation (CMU
   * dictionary or espeak-ng) when a reading gave a different one. A reading replaced it before, and an
   * English respelling ("key key tory" for "Kikitori") then lost names the spelling alone found
   * (decision 0096). Absent when there is none.
   */
  alternates?: string[];
}

export interface PronunciationOptions {
  cmudictPath?: string;
  /** espeak-ng executable; override for tests or unusual installs. */
  espeakBin?: string;
  /**
   * Told once per process and executable when espeak-ng is missing: words then get pronunciations
   * from their reading and the CMU dictionary only (default: console.warn).
   */
  warn?: (message: string) => void;
}

// ---------------------------------------------------------------------------------------------
// CMU dictionary: ~135k lines, loaded once per path and shared by every job.

export type CmuDict = ReadonlyMap<string, readonly string[]>;
const dictCache = new Map<string, Promise<CmuDict>>();

export function loadCmuDict(path = DEFAULT_CMUDICT_PATH): Promise<CmuDict> {
  let cached = dictCache.get(path);
  if (!cached) {
    cached = fsp.readFile(path, 'utf8').then(async (text) => {
      const dict = new Map<string, string[]>();
      const lines = text.split('\n');
      for (const [i, line] of lines.entries()) {
        // Parsing all of it takes ~150 ms: yield now and then so HTTP requests are not held up.
        if (i % 10_000 === 0) await new Promise((resolve) => setImmediate(resolve));
        const space = line.indexOf(' ');
        if (space <= 0) continue;
        const word = line.slice(0, space).replace(/\(\d+\)$/, ''); // "a(2)" is an alternate of "a"
        const phones = line.slice(space + 1).trim();
        const prons = dict.get(word);
        if (prons) prons.push(phones);
        else dict.set(word, [phones]);
      }
      return dict;
    });
    // A failed read (file missing) should not be cached forever.
    cached.catch(() => dictCache.delete(path));
    dictCache.set(path, cached);
  }
  return cached;
}

// ---------------------------------------------------------------------------------------------
// espeak-ng letter-to-sound.

/** IPA (as espeak-ng en-us writes it) -> ARPAbet. Matched longest first inside each phoneme. */
const IPA_TO_ARPABET: Record<string, string> = {
  // diphthongs and r-coloured vowels
  aɪ: 'AY',
  aʊ: 'AW',
  eɪ: 'EY',
  oʊ: 'OW',
  əʊ: 'OW',
  ɔɪ: 'OY',
  ɪə: 'IH R',
  ɛə: 'EH R',
  ʊə: 'UH R',
  ɚ: 'ER',
  ɝ: 'ER',
  ɜː: 'ER',
  ɜ: 'ER',
  // monophthongs
  iː: 'IY',
  i: 'IY',
  ɪ: 'IH',
  ᵻ: 'IH',
  ɨ: 'IH',
  e: 'EH',
  ɛ: 'EH',
  æ: 'AE',
  a: 'AE',
  ɑː: 'AA',
  ɑ: 'AA',
  ɒ: 'AA',
  ɔː: 'AO',
  ɔ: 'AO',
  o: 'OW',
  ɵ: 'OW',
  ʊ: 'UH',
  uː: 'UW',
  u: 'UW',
  ʌ: 'AH',
  ə: 'AH',
  ɐ: 'AH',
  ɘ: 'AH',
  // consonants
  p: 'P',
  b: 'B',
  t: 'T',
  d: 'D',
  k: 'K',
  g: 'G',
  ɡ: 'G',
  f: 'F',
  v: 'V',
  θ: 'TH',
  ð: 'DH',
  s: 'S',
  z: 'Z',
  ʃ: 'SH',
  ʒ: 'ZH',
  h: 'HH',
  m: 'M',
  n: 'N',
  ŋ: 'NG',
  l: 'L',
  ɫ: 'L',
  ɬ: 'L',
  ɹ: 'R',
  r: 'R',
  w: 'W',
  ʍ: 'W',
  j: 'Y',
  tʃ: 'CH',
  dʒ: 'JH',
  x: 'K',
  ç: 'HH',
  // American flap and glottal stop: CMU writes both as T ("water" W AO T ER, "button" B AH T AH N)
  ɾ: 'T',
  ʔ: 'T',
};
const MAX_KEY = Math.max(...Object.keys(IPA_TO_ARPABET).map((k) => k.length));

/**
 * Maps espeak-ng IPA to ARPAbet phones of the model. Expects phonemes separated by spaces
 * (`--sep=' '`) so diphthong matching never spans two phonemes; word gaps may be any whitespace.
 */
export function ipaToArpabet(ipa: string): string[] {
  const phones: string[] = [];
  for (let token of ipa.split(/\s+/)) {
    token = token
      .replace(/[ˈˌ\u200d\u0361\u0303]/g, '') // stress, zero-width joiner, tie bar, nasalisation
      .replace(/(.)\u0329/g, 'ə$1'); // syllabic consonant: "n̩" -> "ən" (CMU: AH N)
    for (let i = 0; i < token.length;) {
      let matched = false;
      for (let len = Math.min(MAX_KEY, token.length - i); len > 0; len--) {
        const arpa = IPA_TO_ARPABET[token.slice(i, i + len)];
        if (arpa) {
          phones.push(...arpa.split(' '));
          i += len;
          matched = true;
          break;
        }
      }
      if (!matched) i++; // length marks and anything unknown carry no phone of their own
    }
  }
  return phones;
}

const espeakCache = new Map<string, string | null>();
/** espeak-ng executables found missing: not run again in this process (install, then restart). */
const espeakMissing = new Set<string>();

/** What the log says once when espeak-ng is missing (the engine still runs, with fewer words). */
export function espeakMissingWarning(espeakBin: string): string {
  return (
    `espeak-ng is not installed (${espeakBin} was not found): dictionary words that are not in the CMU dictionary ` +
    'and have no reading it knows get no pronunciation, so the built-in engine cannot recognize them. ' +
    'Install espeak-ng (Debian: apt-get install espeak-ng) and restart the server to add them.'
  );
}

/**
 * espeak-ng's pronunciation, or null when espeak-ng is missing (warned once): transcription goes on
 * without the words only espeak could sound out.
 */
async function espeakOrNothing(text: string, options: PronunciationOptions): Promise<string | null> {
  const bin = options.espeakBin ?? 'espeak-ng';
  if (espeakMissing.has(bin)) return null;
  try {
    return await espeakPronunciation(text, bin);
  } catch (error) {
    if (!isEngineError(error, 'unavailable')) throw error;
    espeakMissing.add(bin);
    (options.warn ?? ((message: string) => console.warn(message)))(espeakMissingWarning(bin));
    return null;
  }
}

/** Whether espeak-ng runs here, and its version, for `kikitori-server engines`. */
export function espeakStatus(
  espeakBin = 'espeak-ng',
): Promise<{ usable: true; version: string | null } | { usable: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(espeakBin, ['--version'], { timeout: 10_000, windowsHide: true }, (error, stdout) => {
      if (error) resolve({ usable: false, reason: espeakMissingWarning(espeakBin) });
      else resolve({ usable: true, version: /speak(?:[ -]ng)? text-to-speech:\s*(\S+)/i.exec(stdout)?.[1] ?? null });
    });
  });
}

/** ARPAbet phones for `text` from espeak-ng, or null when espeak yields nothing usable. */
export async function espeakPronunciation(text: string, espeakBin = 'espeak-ng'): Promise<string | null> {
  if (espeakCache.has(text)) return espeakCache.get(text)!;
  let stdout: string;
  try {
    // Original casing on purpose: espeak spells all-caps acronyms ("GPT") letter by letter.
    ({ stdout } = await execFileAsync(espeakBin, ['-v', 'en-us', '-q', '--ipa', '--sep= ', '--', text], {
      timeout: 10_000,
    }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new EngineError(
        'unavailable',
        'Dictionary words cannot be pronounced on this server: install the Debian package espeak-ng.',
        {
          detail: `${espeakBin} is not installed`,
          cause: err,
        },
      );
    }
    throw err;
  }
  const phones = ipaToArpabet(stdout).filter((p) => ARPABET_PHONES.has(p));
  const result = phones.length > 0 ? phones.join(' ') : null;
  if (espeakCache.size >= 10_000) espeakCache.clear(); // bounded: vocabularies differ per team
  espeakCache.set(text, result);
  return result;
}

/**
 * espeak-ng's phones for many texts in one process (one call per dictionary, not per word): each text
 * on its own input line gives one output line. `voice` is espeak's ("en-us", "ja"); `normalizeIpa`
 * adapts a language's IPA to the ARPAbet mapping. A text espeak cannot sound out in the voice (it
 * switches language, as for kanji) or that yields no phone maps to null. Cached per process; when
 * espeak-ng is missing (warned once) every text maps to null.
 */
export async function espeakPronunciations(
  texts: readonly string[],
  options: PronunciationOptions & { voice: string; normalizeIpa?: (ipa: string) => string },
): Promise<Map<string, string[] | null>> {
  const bin = options.espeakBin ?? 'espeak-ng';
  const out = new Map<string, string[] | null>();
  const cacheKey = (text: string) => `${options.voice}\u0000${text}`;
  const wanted: string[] = [];
  for (const text of new Set(texts)) {
    const cached = batchCache.get(cacheKey(text));
    if (cached !== undefined) out.set(text, cached);
    // Only letters, digits and word joiners reach espeak: no line breaks, no "[[" phoneme mode.
    else if (espeakSafe(text)) wanted.push(text);
    else out.set(text, null);
  }
  if (wanted.length === 0) return out;
  let lines: string[] | null = null;
  if (!espeakMissing.has(bin)) {
    try {
      lines = await espeakLines(bin, options.voice, wanted);
      // espeak split or merged a line after all: ask again one text at a time (slow, and rare).
      if (!lines) {
        lines = [];
        for (const text of wanted) lines.push((await espeakLines(bin, options.voice, [text]))?.join(' ') ?? '');
      }
    } catch (error) {
      if (!isEngineError(error, 'unavailable')) throw error;
      espeakMissing.add(bin);
      (options.warn ?? ((message: string) => console.warn(message)))(espeakMissingWarning(bin));
    }
  }
  for (const [i, text] of wanted.entries()) {
    const line = lines?.[i] ?? '';
    const phones = /\([a-z-]+\)/.test(line)
      ? []
      : ipaToArpabet((options.normalizeIpa ?? ((x: string) => x))(line.toLowerCase())).filter((p) =>
          ARPABET_PHONES.has(p),
        );
    const result = phones.length > 0 ? phones : null;
    if (lines) {
      if (batchCache.size >= 50_000) batchCache.clear(); // bounded: vocabularies differ per team
      batchCache.set(cacheKey(text), result);
    }
    out.set(text, result);
  }
  return out;
}

const batchCache = new Map<string, string[] | null>();

const espeakSafe = (text: string) => /^[\p{L}\p{N}\p{M}' -]+$/u.test(text) && /[\p{L}\p{N}]/u.test(text);

/** One espeak-ng run over `texts` (one per line); one IPA line per text, or null if the lines do not pair up. */
function espeakLines(bin: string, voice: string, texts: readonly string[]): Promise<string[] | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-v', voice, '-q', '--ipa', '--sep= '], { stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (stdout += d));
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        err.code === 'ENOENT'
          ? new EngineError(
              'unavailable',
              'Dictionary words cannot be pronounced on this server: install the Debian package espeak-ng.',
              { detail: `${bin} is not installed`, cause: err },
            )
          : err,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${bin} exited with ${code}`));
      const lines = stdout.split('\n');
      if (lines.at(-1) === '') lines.pop();
      resolve(lines.length === texts.length ? lines : null);
    });
    child.stdin.on('error', () => {}); // a missing executable closes stdin: the 'error' above reports it
    child.stdin.end(`${texts.join('\n')}\n`);
  });
}

// ---------------------------------------------------------------------------------------------
// Derivation.

/** The dictionary key for a user's word: lowercase, without characters the decoder treats specially. */
export function dictionaryKey(word: string): string {
  return word
    .toLowerCase()
    .replace(/[()]/g, '')
    .replace(/^[<[]+/, '');
}

/** Splits a vocabulary entry or reading into words. */
export function splitWords(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

/**
 * One word's pronunciation: reading (with the spelling's as an alternate), else the CMU entry, else
 * espeak-ng. Reading words missing from the CMU dictionary are themselves sounded out with espeak (a
 * respelling is easy for it).
 */
export async function pronounceWord(
  word: string,
  reading?: string | null,
  options: PronunciationOptions = {},
): Promise<Pronunciation | null> {
  const dict = await loadCmuDict(options.cmudictPath);
  const key = dictionaryKey(word);
  if (!key) return null;
  const readingWords = reading ? splitWords(reading) : [];
  if (readingWords.length > 0) {
    const parts: string[] = [];
    for (const r of readingWords) {
      const part =
        dict.get(r.toLowerCase().replace(/[^\p{L}\p{N}'.-]/gu, ''))?.[0] ?? (await espeakOrNothing(r, options));
      if (part) parts.push(part);
    }
    if (parts.length > 0) {
      const phones = parts.join(' ');
      const spelled = await pronounceSpelling(word, key, dict, options);
      return {
        word: key,
        phones,
        source: 'reading',
        ...(spelled && spelled.phones !== phones ? { alternates: [spelled.phones] } : {}),
      };
    }
  }
  return pronounceSpelling(word, key, dict, options);
}

/** A word's pronunciation from its spelling: the CMU entry, else espeak-ng. */
async function pronounceSpelling(
  word: string,
  key: string,
  dict: CmuDict,
  options: PronunciationOptions,
): Promise<Pronunciation | null> {
  const cmu = dict.get(key)?.[0];
  if (cmu) return { word: key, phones: cmu, source: 'cmudict' };
  const guessed = await espeakOrNothing(word, options);
  return guessed ? { word: key, phones: guessed, source: 'espeak' } : null;
}

/**
 * Distributes a phrase's reading over its words: "new zin tricks" for "New Zintrix" gives
 * ["new", "zin tricks"]. Picks the contiguous grouping whose letters best resemble each word;
 * null when the reading has fewer words than the phrase (no sensible split).
 */
export function splitReading(phraseWords: string[], readingWords: string[]): string[] | null {
  const n = phraseWords.length;
  const m = readingWords.length;
  if (n === 0 || m < n) return null;
  if (n === 1) return [readingWords.join(' ')];
  const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  // cost[i][j]: best cost placing the first i phrase words over the first j reading words.
  const cost = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  const from = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  cost[0]![0] = 0;
  for (let i = 1; i <= n; i++) {
    const target = letters(phraseWords[i - 1]!);
    for (let j = i; j <= m - (n - i); j++) {
      for (let k = i - 1; k < j; k++) {
        const prev = cost[i - 1]![k]!;
        if (prev === Infinity) continue;
        const group = letters(readingWords.slice(k, j).join(''));
        const c = prev + editDistance(target, group) / Math.max(target.length, group.length, 1);
        if (c < cost[i]![j]!) {
          cost[i]![j] = c;
          from[i]![j] = k;
        }
      }
    }
  }
  const groups: string[] = [];
  for (let i = n, j = m; i > 0; i--) {
    const k = from[i]![j]!;
    groups.unshift(readingWords.slice(k, j).join(' '));
    j = k;
  }
  return groups;
}

export interface VocabularyPronunciation {
  /** The entry's words as the user wrote them ("Zintrix", or ["New", "Zintrix"] for a phrase). */
  spelling: string[];
  /** One pronunciation per word, same order; null where nothing could be derived. */
  words: (Pronunciation | null)[];
}

/** Pronunciations for a whole vocabulary; phrases are handled word by word. */
export async function pronounceVocabulary(
  vocabulary: readonly { word: string; reading?: string | null }[],
  options: PronunciationOptions = {},
): Promise<VocabularyPronunciation[]> {
  const out: VocabularyPronunciation[] = [];
  for (const entry of vocabulary) {
    const spelling = splitWords(entry.word);
    if (spelling.length === 0) continue;
    const readings = entry.reading ? splitReading(spelling, splitWords(entry.reading)) : null;
    const words: (Pronunciation | null)[] = [];
    // Sequential on purpose: at most one espeak process at a time, results are cached anyway.
    for (const [i, w] of spelling.entries()) words.push(await pronounceWord(w, readings?.[i], options));
    out.push({ spelling, words });
  }
  return out;
}
