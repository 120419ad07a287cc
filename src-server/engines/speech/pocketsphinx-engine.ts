// Embedded CMU pocketsphinx (5prealpha, en-us) speech engine: Silero VAD (energy VAD when
// onnxruntime cannot load) -> one decoder utterance per speech segment -> words with times and
// calibrated confidences (word-confidence.ts). Custom vocabulary becomes dictionary entries and an interpolated unigram
// LM (pocketsphinx-vocabulary.ts).
//
// Decoders stay warm between jobs: building one (ps_init: acoustic model, LM, 130k-word dictionary)
// takes 0.3-1 s, longer than recognizing a short clip. A job takes an idle decoder from the pool (or
// builds one when all are busy: a decoder is not thread-safe) and gives it back afterwards. A job's
// dictionary words are isolated to it: a decoder that received vocabulary is freed after the job, never
// reused, and a clean one is built in the background to take its place. Idle decoders are freed after
// idleSeconds.
import { StageTimings } from '../../domain/stage-timings.js';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../../domain/engine-error.js';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmRange } from '../audio/pcm-file.js';
import { EnergyVad } from '../vad/energy-vad.js';
import { consoleVadLog, FallbackVad, type VadLog } from '../vad/fallback-vad.js';
import { SileroVad } from '../vad/silero-vad.js';
import { speechSeconds, type VoiceActivityDetector } from '../vad/vad.js';
import {
  loadPocketsphinx,
  POCKETSPHINX_MISSING_MESSAGE,
  type NativePointer,
  type PocketsphinxLibrary,
} from './pocketsphinx-library.js';
import { recognizesDetail, unsupportedLanguageError } from './unsupported-language.js';
import { installVocabulary, isDoubtfulVocabularyWord, revertDoubtfulHunks } from './pocketsphinx-vocabulary.js';
import {
  countWord,
  emptyLanguageFit,
  isLanguageMismatch,
  type LanguageFitCounts,
} from './pocketsphinx-language-fit.js';
import { dictionaryKey, pronounceVocabulary, type VocabularyPronunciation } from './pronunciation.js';
import type { RecognitionStream, StreamingRecognizer, StreamOptions } from './streaming-recognizer.js';
import { logisticConfidence, type ConfidenceCalibration } from './word-confidence.js';
import { POCKETSPHINX_CONFIDENCE_MODEL } from './pocketsphinx-confidence-model.js';
import type {
  RecognizedSegment,
  RecognizedWord,
  RecognizeRequest,
  RecognizeResult,
  SpeechEngine,
} from './speech-engine.js';

export const DEFAULT_POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface PocketsphinxEngineOptions {
  /** The libpocketsphinx file to load (KIKITORI_POCKETSPHINX_LIBRARY); default: the system's. */
  libraryPath?: string;
  /** Where a missing espeak-ng is reported, once (default: console). */
  warn?: (message: string) => void;
  /** Directory with en-us/ (acoustic model), en-us.lm.bin and cmudict-en-us.dict. */
  modelDir?: string;
  /** Explicit paths when the model files are laid out differently. */
  hmmDir?: string;
  lmPath?: string;
  dictPath?: string;
  /** Voice activity detector; defaults to Silero, falling back to the energy VAD (see FallbackVad). */
  vad?: VoiceActivityDetector;
  /** Where the default VAD reports which detector ran (default: console, once per change). */
  vadLog?: VadLog;
  /** Audio kept around each speech segment so word edges are not clipped (seconds). */
  paddingSeconds?: number;
  /** Extra decoder flags, e.g. { '-beam': '1e-60' }; override DEFAULT_DECODER_ARGS. */
  decoderArgs?: Record<string, string>;
  /** The unigram probability each custom vocabulary word gets (see pocketsphinx-vocabulary.ts). */
  vocabularyWordProbability?: number;
  /** Vocabulary words with fewer phones get a lower probability (shortWordProbability); 0: none. */
  vocabularyShortWordPhones?: number;
  /** Decades of probability a short vocabulary word loses per missing phone. */
  vocabularyShortWordDecadesPerPhone?: number;
  /** Vocabulary words the LM lacks, recognized with a lower posterior, are dropped (isDoubtfulVocabularyWord). */
  vocabularyMinConfidence?: number;
  /**
   * Where the gate drops a vocabulary word, the utterance is decoded again without the vocabulary and the
   * words the dropped one pulled along go back to that decode's (revertDoubtfulHunks; decision 0101).
   */
  vocabularyFallback?: boolean;
  /** Model identifier reported in results. */
  modelId?: string;
  /** Free warm decoders after this long unused (default 600 s). */
  idleSeconds?: number;
  /**
   * A word's confidence from the decoder's evidence (default: the fitted POCKETSPHINX_CONFIDENCE_MODEL);
   * bench/confidence.ts passes its own to see the evidence.
   */
  confidence?: ConfidenceCalibration;
}

/** The shipped calibration, built once (it checks the fitted file's features). */
let defaultCalibration: ConfidenceCalibration | undefined;

/**
 * Decoder settings tuned on pocketsphinx-testdata's LibriVox utterances and festival sentences
 * (bench/asr-bench.ts): the second passes weigh the language model less than pocketsphinx's
 * defaults (-fwdflatlw 8.5, -bestpathlw 9.5), which cut real-speech WER from 25% to 21%.
 */
export const DEFAULT_DECODER_ARGS: Readonly<Record<string, string>> = {
  '-fwdflatlw': '6.5',
  '-bestpathlw': '8',
};

/**
 * A custom vocabulary word is as likely as an English unigram of this probability, whatever the size of the
 * dictionary: more likely than "the" (0.04 in en-us.lm.bin), which is what finds names in doubtful
 * audio; the confidence gate below removes most of the invented words this puts where none was said.
 * Both calibrated together on bench:vocabulary's tuning half (decision 0083).
 */
export const DEFAULT_VOCABULARY_WORD_PROBABILITY = 0.6;
/**
 * A vocabulary word whose shortest pronunciation has fewer phones than this loses
 * DEFAULT_VOCABULARY_SHORT_WORD_DECADES_PER_PHONE decades of probability per missing phone (a four-phone word 100
 * times less likely): a short invented word fits everyday words' sounds ("Lezo" for "please") and, at the
 * probability that finds names, was written where they were said, often sure of it. Calibrated on
 * bench:vocabulary's tuning half (decision 0101).
 */
export const DEFAULT_VOCABULARY_SHORT_WORD_PHONES = 6;
export const DEFAULT_VOCABULARY_SHORT_WORD_DECADES_PER_PHONE = 1;
/** Vocabulary-only words recognized with a lower posterior are dropped (decision 0083). */
export const DEFAULT_VOCABULARY_MIN_CONFIDENCE = 0.9;
/**
 * Off: the second decode it needs cost +58 % time with 1,000 terms (many more words are doubtful) for one word of
 * WER on the held-out half (decision 0101).
 */
export const DEFAULT_VOCABULARY_FALLBACK = false;

/** Frames per second of the decoder (-frate default). */
const FRAME_RATE = 100;
/** Share of progress given to the VAD pass (reading the whole file once). */
const VAD_SHARE = 0.05;
/** <s>, </s>, <sil>, [NOISE], [SPEECH], +NSN+...: not words. */
const FILLER = /^(<.*>|\[.*\]|\+.*\+)$/;
/** Idle decoders kept warm (each holds the LM and dictionary: ~40 MB). */
const MAX_IDLE_DECODERS = 2;

export class PocketsphinxEngine implements SpeechEngine, StreamingRecognizer {
  readonly name = 'pocketsphinx';
  readonly capabilities = {
    languages: ['en'],
    wordTimestamps: true,
    customVocabulary: true,
    speakerSeparation: false,
  } as const;

  readonly libraryPath: string | undefined;
  private readonly warn: ((message: string) => void) | undefined;
  private readonly hmmDir: string;
  private readonly lmPath: string;
  private readonly dictPath: string;
  /** The voice activity detector (its name, after a run, tells which one ran). */
  readonly vad: VoiceActivityDetector;
  private readonly padding: number;
  private readonly decoderArgs: Record<string, string>;
  private readonly vocabularyWordProbability: number;
  private readonly vocabularyShortWordPhones: number;
  private readonly vocabularyShortWordDecadesPerPhone: number;
  private readonly vocabularyMinConfidence: number;
  private readonly vocabularyFallback: boolean;
  private readonly modelId: string;
  private readonly idleMs: number;
  private readonly confidence: ConfidenceCalibration;
  /** Clean decoders (no job vocabulary), ready for the next job. */
  private readonly idle: NativePointer[] = [];
  /**
   * Clean decoders that have decoded live, for the next live stream only: sphinxbase switches a decoder's
   * cepstral mean normalization to its live estimate for good at the first utterance fed in pieces, so a
   * batch job on it would lose the whole-utterance mean that makes batch results better.
   */
  private readonly liveIdle: NativePointer[] = [];
  private building = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(options: PocketsphinxEngineOptions = {}) {
    const dir = options.modelDir ?? DEFAULT_POCKETSPHINX_MODEL_DIR;
    this.libraryPath = options.libraryPath;
    this.warn = options.warn;
    this.hmmDir = options.hmmDir ?? path.join(dir, 'en-us');
    this.lmPath = options.lmPath ?? path.join(dir, 'en-us.lm.bin');
    this.dictPath = options.dictPath ?? path.join(dir, 'cmudict-en-us.dict');
    this.vad = options.vad ?? new FallbackVad(new SileroVad(), new EnergyVad(), options.vadLog ?? consoleVadLog);
    this.padding = options.paddingSeconds ?? 0.2;
    this.decoderArgs = options.decoderArgs ?? {};
    this.vocabularyWordProbability = options.vocabularyWordProbability ?? DEFAULT_VOCABULARY_WORD_PROBABILITY;
    this.vocabularyShortWordPhones = options.vocabularyShortWordPhones ?? DEFAULT_VOCABULARY_SHORT_WORD_PHONES;
    this.vocabularyShortWordDecadesPerPhone =
      options.vocabularyShortWordDecadesPerPhone ?? DEFAULT_VOCABULARY_SHORT_WORD_DECADES_PER_PHONE;
    this.vocabularyMinConfidence = options.vocabularyMinConfidence ?? DEFAULT_VOCABULARY_MIN_CONFIDENCE;
    this.vocabularyFallback = options.vocabularyFallback ?? DEFAULT_VOCABULARY_FALLBACK;
    this.modelId = options.modelId ?? `pocketsphinx-5prealpha/${path.basename(dir)}`;
    this.idleMs = (options.idleSeconds ?? 600) * 1000;
    this.confidence = options.confidence ?? (defaultCalibration ??= logisticConfidence(POCKETSPHINX_CONFIDENCE_MODEL));
  }

  /** Decoders warm now (idle in the pool), for tests and diagnostics. */
  get warmDecoders(): number {
    return this.idle.length + this.liveIdle.length;
  }

  async recognize(request: RecognizeRequest): Promise<RecognizeResult> {
    const { pcmPath, signal } = request;
    if (!/^en(-|$)/i.test(request.language)) {
      throw unsupportedLanguageError(
        [request.language],
        recognizesDetail(this.name, this.capabilities.languages, [request.language]),
      );
    }
    const lib = loadPocketsphinx(this.libraryPath);
    if (this.idle.length === 0) await this.checkModel();
    signal.throwIfAborted();
    const stages = new StageTimings();
    const timed = <T>(stage: string, fn: () => Promise<T>): Promise<T> => stages.time(stage, fn);

    let lastProgress = -1;
    const progress = (f: number) => {
      if (request.onProgress && f > lastProgress) request.onProgress((lastProgress = Math.min(1, f)));
    };

    // The decoder (warm, or built while the VAD runs) and the VAD at once: both mostly wait on native threads.
    const decoderReady = timed('decoder', () => this.takeDecoder(lib));
    decoderReady.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
    let decoder: NativePointer | null = null;
    /** A decoder without the vocabulary, taken when the gate first drops a word (vocabularyFallback). */
    let plain: NativePointer | null = null;
    let plainClean = true;
    let clean = true;
    let handle: fsp.FileHandle | null = null;
    const segments: RecognizedSegment[] = [];
    const fit = emptyLanguageFit();
    let totalSpeech = 0;
    try {
      request.onStage?.('detecting-speech');
      const speech = await timed('vad', () =>
        this.vad.detect(pcmPath, { signal, onProgress: (f) => progress(f * VAD_SHARE) }),
      );
      request.onStage?.('recognizing');
      decoder = await decoderReady;
      const vocabulary = await timed('vocabulary', () => this.pronounce(request.vocabulary));
      signal.throwIfAborted();

      const totalSamples = (await fsp.stat(pcmPath)).size >> 1;
      totalSpeech = speechSeconds(speech);
      handle = await fsp.open(pcmPath, 'r');
      let vocabularyOnly: ReadonlySet<string> = new Set();
      if (hasEntries(vocabulary)) {
        clean = false; // even a failed install may have changed it
        const target = decoder;
        vocabularyOnly = await timed('vocabulary', () => this.install(lib, target, vocabulary));
      }
      const spell = spellingMapper(vocabulary);
      const minConfidence = this.vocabularyMinConfidence;
      const doubtful = (word: string, posterior: number) =>
        isDoubtfulVocabularyWord(word, posterior, vocabularyOnly, minConfidence);
      let decoded = 0;
      for (const [i, s] of speech.entries()) {
        signal.throwIfAborted();
        // Padding, but never past the middle of the gap to a neighbour: overlapping windows would
        // decode the same audio twice (and a VAD cut of a long segment gets no padding at all).
        const from = Math.max(s.start - this.padding, i > 0 ? (speech[i - 1]!.end + s.start) / 2 : 0);
        const to = Math.min(
          s.end + this.padding,
          i + 1 < speech.length ? (s.end + speech[i + 1]!.start) / 2 : Infinity,
        );
        const first = Math.max(0, Math.floor(from * SAMPLE_RATE));
        const last = Math.min(totalSamples, Math.ceil(to * SAMPLE_RATE));
        // Whole segment as one utterance (full_utt): batch CMN over the utterance is far more
        // accurate than the streaming estimate, and a segment is at most ~30 s (~1 MB).
        const samples = await readPcmRange(handle, first, last);
        const start = performance.now();
        const dropped = this.vocabularyFallback ? new Set<RecognizedWord>() : undefined;
        let words = await decodeUtterance(
          lib,
          decoder,
          samples,
          first / SAMPLE_RATE,
          totalSamples / SAMPLE_RATE,
          this.confidence,
          fit,
          doubtful,
          dropped,
        );
        stages.add('decode', performance.now() - start);
        if (dropped && dropped.size > 0) {
          const again = performance.now();
          plain ??= await this.takeDecoder(lib);
          plainClean = false;
          const without = await decodeUtterance(
            lib,
            plain,
            samples,
            first / SAMPLE_RATE,
            totalSamples / SAMPLE_RATE,
            this.confidence,
          );
          plainClean = true;
          const only = vocabularyOnly;
          words = revertDoubtfulHunks(words, without, dropped, (w) => only.has(w.word));
          stages.add('vocabulary fallback', performance.now() - again);
        }
        if (words.length > 0) {
          spell(words);
          segments.push({
            start: round(Math.min(s.start, words[0]!.start)),
            end: round(Math.max(s.end, words[words.length - 1]!.end)),
            words,
          });
        }
        decoded += s.end - s.start;
        progress(VAD_SHARE + (1 - VAD_SHARE) * (totalSpeech > 0 ? decoded / totalSpeech : 1));
      }
    } catch (error) {
      // An abort or a native failure may leave an utterance open: do not reuse that decoder.
      clean = false;
      throw error;
    } finally {
      await handle?.close();
      if (plain) this.giveBack(lib, plain, plainClean);
      if (decoder) this.giveBack(lib, decoder, clean);
      else
        void decoderReady.then(
          (d) => this.giveBack(lib, d, true),
          () => undefined,
        );
    }
    progress(1);
    const mismatch = isLanguageMismatch(fit);
    return {
      segments,
      speakingDuration: round(totalSpeech),
      model: this.modelId,
      timings: stages.stages(),
      ...(mismatch === null ? {} : { languageCheck: { mismatch, likelyLanguage: null, evidence: { ...fit } } }),
    };
  }

  readonly liveLanguages = ['en'];
  get liveModel(): string {
    return this.modelId;
  }

  /**
   * A live stream (streaming-recognizer.ts) on a decoder that decoded live before, else one from the batch
   * pool; afterwards it goes to the live pool only (see liveIdle). The caller bounds how many are open at
   * once (live sessions are limited by configuration). With vocabulary the decoder is freed after the
   * stream, as after a job.
   */
  async openStream(options: StreamOptions): Promise<RecognitionStream> {
    if (!/^en(-|$)/i.test(options.language)) {
      throw unsupportedLanguageError(
        [options.language],
        recognizesDetail(this.name, this.capabilities.languages, [options.language]),
      );
    }
    const lib = loadPocketsphinx(this.libraryPath);
    if (this.idle.length + this.liveIdle.length === 0) await this.checkModel();
    const [decoder, vocabulary] = await Promise.all([
      this.liveIdle.pop() ?? this.takeDecoder(lib),
      this.pronounce(options.vocabulary),
    ]);
    let clean = true;
    let vocabularyOnly: ReadonlySet<string> = new Set();
    try {
      if (hasEntries(vocabulary)) {
        clean = false;
        vocabularyOnly = await this.install(lib, decoder, vocabulary);
      }
    } catch (error) {
      this.giveBack(lib, decoder, false);
      throw error;
    }
    const minConfidence = this.vocabularyMinConfidence;
    return new PocketsphinxStream(
      lib,
      decoder,
      spellingMapper(vocabulary),
      this.confidence,
      (word, posterior) => isDoubtfulVocabularyWord(word, posterior, vocabularyOnly, minConfidence),
      (dirty) => {
        if (!clean || dirty) return this.giveBack(lib, decoder, false);
        if (this.liveIdle.length < MAX_IDLE_DECODERS) this.liveIdle.push(decoder);
        else lib.ps_free(decoder);
        this.scheduleIdle();
      },
    );
  }

  private pronounce(words: StreamOptions['vocabulary']): Promise<VocabularyPronunciation[]> {
    return pronounceVocabulary(words, { cmudictPath: this.dictPath, ...(this.warn ? { warn: this.warn } : {}) });
  }

  private install(lib: PocketsphinxLibrary, decoder: NativePointer, vocabulary: VocabularyPronunciation[]) {
    const entries = vocabulary.flatMap((v) =>
      v.words.flatMap((w) =>
        w ? [w.phones, ...(w.alternates ?? [])].map((phones) => ({ word: w.word, phones })) : [],
      ),
    );
    return installVocabulary(lib, decoder, entries, {
      dictPath: this.dictPath,
      wordProbability: this.vocabularyWordProbability,
      shortWordPhones: this.vocabularyShortWordPhones,
      shortWordDecadesPerPhone: this.vocabularyShortWordDecadesPerPhone,
    });
  }

  /** Frees the warm decoders (a running job keeps its own until it ends). */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.idle.length + this.liveIdle.length === 0) return;
    const lib = loadPocketsphinx(this.libraryPath);
    for (const decoder of [...this.idle.splice(0), ...this.liveIdle.splice(0)]) lib.ps_free(decoder);
  }

  private async takeDecoder(lib: PocketsphinxLibrary): Promise<NativePointer> {
    return this.idle.pop() ?? (await this.createDecoder(lib));
  }

  /** Back to the pool when clean; otherwise freed, and a clean one built in the background. */
  private giveBack(lib: PocketsphinxLibrary, decoder: NativePointer, clean: boolean): void {
    if (clean && this.idle.length < MAX_IDLE_DECODERS) {
      this.idle.push(decoder);
    } else {
      lib.ps_free(decoder);
      if (!clean && this.idle.length + this.building < 1) {
        this.building++;
        this.createDecoder(lib).then(
          (fresh) => {
            this.building--;
            if (this.idle.length < MAX_IDLE_DECODERS) this.idle.push(fresh);
            else lib.ps_free(fresh);
            this.scheduleIdle();
          },
          () => this.building--, // the next job builds one and reports the problem
        );
      }
    }
    this.scheduleIdle();
  }

  private scheduleIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private async checkModel(): Promise<void> {
    for (const p of [path.join(this.hmmDir, 'mdef'), this.lmPath, this.dictPath]) {
      try {
        await fsp.access(p);
      } catch {
        throw new EngineError('unavailable', POCKETSPHINX_MISSING_MESSAGE, {
          detail: `pocketsphinx model file ${p} is missing (on Debian: apt-get install pocketsphinx-en-us; or set KIKITORI_POCKETSPHINX_MODEL_DIR)`,
        });
      }
    }
  }

  private async createDecoder(lib: PocketsphinxLibrary): Promise<NativePointer> {
    const config = lib.createConfig({
      '-hmm': this.hmmDir,
      '-lm': this.lmPath,
      '-dict': this.dictPath,
      // The front end's own silence removal drops frames, which would shift every timestamp after
      // a pause; our VAD already trimmed the audio.
      '-remove_silence': 'no',
      ...DEFAULT_DECODER_ARGS,
      ...this.decoderArgs,
    });
    if (!config) throw new Error('pocketsphinx rejected the decoder configuration');
    const decoder = await lib.ps_init(config).finally(() => lib.cmd_ln_free_r(config)); // ps_init keeps its own reference
    if (!decoder) {
      throw new EngineError(
        'unavailable',
        "The built-in speech engine cannot load its model on this server. Ask the server's administrator to reinstall its English speech model.",
        {
          detail: `pocketsphinx could not load the model from ${this.hmmDir} (on Debian: apt-get install --reinstall pocketsphinx-en-us)`,
        },
      );
    }
    return decoder;
  }
}

async function decodeUtterance(
  lib: PocketsphinxLibrary,
  ps: NativePointer,
  samples: Int16Array,
  offsetSeconds: number,
  maxSeconds: number,
  confidence: ConfidenceCalibration,
  /** Where each word's fit to the language model is counted (decision 0070). */
  fit?: LanguageFitCounts,
  doubtful?: (word: string, posterior: number) => boolean,
  dropped?: Set<RecognizedWord>,
): Promise<RecognizedWord[]> {
  if (samples.length < SAMPLE_RATE / 10) return [];
  if (lib.ps_start_utt(ps) < 0) throw new Error('pocketsphinx: ps_start_utt failed');
  const frames = await lib.processRaw(ps, samples, true);
  if ((await lib.ps_end_utt(ps)) < 0 || frames < 0) throw new Error('pocketsphinx: decoding failed');
  return utteranceWords(lib, ps, offsetSeconds, maxSeconds, confidence, fit, doubtful, dropped);
}

/** The words of the utterance the decoder has just ended, with times and calibrated confidences. */
async function utteranceWords(
  lib: PocketsphinxLibrary,
  ps: NativePointer,
  offsetSeconds: number,
  maxSeconds: number,
  confidence: ConfidenceCalibration,
  /** Where each word's fit to the language model is counted (decision 0070); a live stream counts none. */
  fit?: LanguageFitCounts,
  /**
   * Words left out: dictionary words the decoder doubts (decision 0083), judged on the raw posterior the
   * gate was tuned on, not on the calibrated confidence (decision 0086).
   */
  doubtful?: (word: string, posterior: number) => boolean,
  /** When given, the doubtful words are kept in the list and put here too, for the caller to settle. */
  dropped?: Set<RecognizedWord>,
): Promise<RecognizedWord[]> {
  const lmath = lib.ps_get_logmath(ps);
  const words: RecognizedWord[] = [];
  const sf: [number] = [0];
  const ef: [number] = [0];
  const acoustic: [number] = [0];
  const lm: [number] = [0];
  const backoff: [number] = [0];
  const alternatesPosterior = (raw: string, word: string) =>
    lib.alternatePosteriors(ps, word, sf[0], raw).reduce((sum, log) => sum + lib.logmath_exp(lmath, log), 0);
  for (let seg = await lib.ps_seg_iter(ps); seg; seg = lib.ps_seg_next(seg)) {
    const raw = lib.ps_seg_word(seg);
    if (FILLER.test(raw)) continue;
    lib.ps_seg_frames(seg, sf, ef);
    // Posterior from the bestpath lattice, in the decoder's log base; may round slightly above 0.
    const posterior = Math.min(1, Math.max(0, lib.logmath_exp(lmath, lib.ps_seg_prob(seg, acoustic, lm, backoff))));
    const word = raw.replace(/\(\d+\)$/, ''); // "with(2)": alternate pronunciation of "with"
    // The language check was fitted on raw posteriors (decision 0070).
    if (fit) countWord(fit, word, posterior, backoff[0]);
    // A word with alternate pronunciations (a reading beside its spelling's, decision 0096) shares the
    // lattice's mass between them: the gate judges their sum.
    const isDoubtful =
      doubtful?.(word, posterior) && doubtful(word, Math.min(1, posterior + alternatesPosterior(raw, word)));
    if (isDoubtful && !dropped) continue;
    const start = round(Math.min(maxSeconds, offsetSeconds + sf[0] / FRAME_RATE));
    const end = round(Math.min(maxSeconds, offsetSeconds + (ef[0] + 1) / FRAME_RATE));
    const recognized = {
      word,
      start,
      end,
      confidence: round(confidence({ word, posterior, backoff: backoff[0], seconds: end - start })),
    };
    words.push(recognized);
    if (isDoubtful) dropped?.add(recognized);
  }
  return words;
}

/**
 * Returns a function that respells recognized words as the user wrote them: "zintrix" ->
 * "Zintrix"; for phrases only where the whole phrase was recognized in sequence.
 */
function spellingMapper(vocabulary: VocabularyPronunciation[]): (words: RecognizedWord[]) => void {
  // Indexed by first word, longest phrase first.
  const byFirst = new Map<string, { keys: string[]; spelling: string[] }[]>();
  for (const v of vocabulary) {
    const keys = v.spelling.map((w, i) => v.words[i]?.word ?? dictionaryKey(w));
    byFirst.set(
      keys[0]!,
      [...(byFirst.get(keys[0]!) ?? []), { keys, spelling: v.spelling }].sort((a, b) => b.keys.length - a.keys.length),
    );
  }
  return (words) => {
    for (let i = 0; i < words.length;) {
      const match = byFirst.get(words[i]!.word)?.find((p) => p.keys.every((k, j) => words[i + j]?.word === k));
      if (!match) {
        i++;
        continue;
      }
      match.spelling.forEach((w, j) => (words[i + j]!.word = w));
      i += match.keys.length;
    }
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function hasEntries(vocabulary: VocabularyPronunciation[]): boolean {
  return vocabulary.some((v) => v.words.some((w) => w !== null));
}

/** The alternate-pronunciation suffix: "with(2)" is "with". */
const baseWord = (raw: string) => raw.replace(/\(\d+\)$/, '');

/**
 * One live stream on one decoder. The first pass runs as audio arrives (live CMN), which gives the partial
 * hypothesis; ending the utterance runs the second passes (fwdflat, bestpath) over what the first pass
 * kept, so the final words cost ~0.1-0.4 s after the end of speech. Decoding the whole utterance again in
 * one call (batch CMN, as jobs do) took seconds under load: decision 0063.
 */
class PocketsphinxStream implements RecognitionStream {
  private open = false;
  private offset = 0;
  private samples = 0;
  /** A native failure or an abandoned utterance: the decoder is not reused. */
  private dirty = false;
  private closed = false;

  constructor(
    private readonly lib: PocketsphinxLibrary,
    private readonly decoder: NativePointer,
    private readonly spell: (words: RecognizedWord[]) => void,
    private readonly confidence: ConfidenceCalibration,
    /** Vocabulary words too doubtful to keep (isDoubtfulVocabularyWord), judged on the raw posterior. */
    private readonly doubtful: (word: string, posterior: number) => boolean,
    private readonly release: (dirty: boolean) => void,
  ) {}

  startUtterance(offsetSeconds: number): void {
    if (this.closed) throw new Error('pocketsphinx stream: closed');
    if (this.open) throw new Error('pocketsphinx stream: an utterance is already open');
    if (this.lib.ps_start_utt(this.decoder) < 0) {
      this.dirty = true;
      throw new Error('pocketsphinx: ps_start_utt failed');
    }
    this.open = true;
    this.offset = offsetSeconds;
    this.samples = 0;
  }

  async feed(samples: Int16Array): Promise<void> {
    if (!this.open) throw new Error('pocketsphinx stream: no open utterance');
    this.samples += samples.length;
    const frames = await this.lib.processRaw(this.decoder, samples, false);
    if (frames < 0) {
      this.dirty = true;
      throw new Error('pocketsphinx: decoding failed');
    }
  }

  partial(): string[] {
    if (!this.open) return [];
    const hyp = this.lib.ps_get_hyp(this.decoder);
    if (!hyp) return [];
    const words = hyp
      .split(/\s+/)
      .filter((w) => w && !FILLER.test(w))
      .map((w) => ({ word: baseWord(w), start: 0, end: 0, confidence: null }));
    this.spell(words);
    return words.map((w) => w.word);
  }

  async endUtterance(): Promise<RecognizedWord[]> {
    if (!this.open) throw new Error('pocketsphinx stream: no open utterance');
    this.open = false;
    try {
      if ((await this.lib.ps_end_utt(this.decoder)) < 0) throw new Error('pocketsphinx: ps_end_utt failed');
      const words = await utteranceWords(
        this.lib,
        this.decoder,
        this.offset,
        this.offset + this.samples / SAMPLE_RATE,
        this.confidence,
        undefined,
        this.doubtful,
      );
      this.spell(words);
      return words;
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.open) {
      this.open = false;
      // Ending it resets the search; a decoder whose utterance could not be ended is not reused.
      if ((await this.lib.ps_end_utt(this.decoder).catch(() => -1)) < 0) this.dirty = true;
    }
    this.release(this.dirty);
  }
}
