// whisper.cpp speech engine through the smart-whisper binding (whisper.cpp compiled from source at
// npm install; scripts/setup.sh builds it with -march=native: without AVX it is ~12x slower).
//
// Audio: voice activity detection (Silero, the energy VAD when onnxruntime cannot load) finds the
// speech; only speech reaches whisper, so silence never does (whisper hallucinates "Thank you." in
// it), and a file with no speech gives an empty transcript without loading the model. The speech
// regions (padded by the VAD) are joined into windows of at most ~30 s (whisper's own context length;
// speech-windows.ts), each converted to Float32 and handed to whisper_full on its own state; times map
// back to the file exactly. Memory does not grow with the file: per running transcription about 6 MB of
// audio buffers (Int16 + Float32 + the binding's native copy of one window) plus one whisper state (KV
// caches and compute buffers, about 0.2 GB for tiny to 0.8 GB for large-v3), on top of the model
// weights loaded once per process and kept warm between jobs (the file's size: 75 MB tiny ... 3.1 GB
// large-v3). Concurrent transcriptions share the weights.
//
// Loops: whisper.cpp's own fallback is on (temperature_inc 0.2; a decode whose token entropy is below
// 2.4 or whose mean log-probability is below -1 is redone at the next temperature). On top of it each
// window's text goes through repetition-guard.ts (gzip compression ratio > 2.4, or a phrase repeated
// back to back): a looping window is decoded again from temperature 0.2, 0.4 ... 1.0, and when every
// temperature loops the least looping result is kept with its repeated copies removed.
//
// Threads: ggml's workers spin-wait at every graph node; on a busy machine with fewer free cores
// than threads that is many times slower than one thread (measured here: 2 threads 3.7x slower than
// 1 on 2 shared cores), hence the default of half the cores.
//
// Words come from token timestamps (token_timestamps) and token ids: the binding's token texts are
// lossy for characters split across tokens, so words are rebuilt from the vocabulary bytes in the
// model file. Word confidence = mean token probability. Dictionary words go into the initial prompt.
//
// Abort: checked during the VAD pass and between windows; an abort during a window rejects at once,
// while the native call finishes that window in the background (the binding has no cancel).
import { StageTimings } from '../../domain/stage-timings.js';
import { createRequire } from 'node:module';
import fsp from 'node:fs/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Binding, Handle, TranscribeDetailedResult, TranscribeParams } from 'smart-whisper';
import { EngineError, isEngineError, operatorMessage } from '../../domain/engine-error.js';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmRange } from '../audio/pcm-file.js';
import { EnergyVad } from '../vad/energy-vad.js';
import { consoleVadLog, FallbackVad, type VadLog } from '../vad/fallback-vad.js';
import { SileroVad } from '../vad/silero-vad.js';
import { speechSeconds, type VoiceActivityDetector } from '../vad/vad.js';
import { compressionRatio, isLooping, trimRepeatedBytes, trimRepetitions } from './repetition-guard.js';
import { speechWindows, toFileTime, type SpeechWindow } from './speech-windows.js';
import type {
  RecognizedSegment,
  RecognizedWord,
  RecognizeRequest,
  RecognizeResult,
  SpeechEngine,
  SpeechEngineCapabilities,
} from './speech-engine.js';
import { inspectWhisperModel, readWhisperHparams, whisperModelProblem, type WhisperModelFile } from './ggml-file.js';
import { recognizesDetail, unsupportedLanguageError } from './unsupported-language.js';
import { vocabularyPrompt } from './vocabulary-prompt.js';
import { RedecodingStream } from './redecoding-stream.js';
import type { RecognitionStream, StreamingRecognizer, StreamOptions } from './streaming-recognizer.js';
import {
  findWhisperModel,
  howToGetModel,
  unknownModelMessage,
  WHISPER_MODEL_PREFERENCE,
  whisperModelsDir,
} from './whisper-catalogue.js';
import { isSpaceless } from '../../../src-shared/word-text.js';
import { abortReason } from '../../../src-shared/abort.js';

/** whisper.cpp's languages (g_lang), in its order, by whisper's own codes. */
export const WHISPER_LANGUAGE_CODES = [
  'en',
  'zh',
  'de',
  'es',
  'ru',
  'ko',
  'fr',
  'ja',
  'pt',
  'tr',
  'pl',
  'ca',
  'nl',
  'ar',
  'sv',
  'it',
  'id',
  'hi',
  'fi',
  'vi',
  'he',
  'uk',
  'el',
  'ms',
  'cs',
  'ro',
  'da',
  'hu',
  'ta',
  'no',
  'th',
  'ur',
  'hr',
  'bg',
  'lt',
  'la',
  'mi',
  'ml',
  'cy',
  'sk',
  'te',
  'fa',
  'lv',
  'bn',
  'sr',
  'az',
  'sl',
  'kn',
  'et',
  'mk',
  'br',
  'eu',
  'is',
  'hy',
  'ne',
  'mn',
  'bs',
  'kk',
  'sq',
  'sw',
  'gl',
  'mr',
  'pa',
  'si',
  'km',
  'sn',
  'yo',
  'so',
  'af',
  'oc',
  'ka',
  'be',
  'tg',
  'sd',
  'gu',
  'am',
  'yi',
  'lo',
  'uz',
  'fo',
  'ht',
  'ps',
  'tk',
  'nn',
  'mt',
  'sa',
  'lb',
  'my',
  'bo',
  'tl',
  'mg',
  'as',
  'tt',
  'haw',
  'ln',
  'ha',
  'ba',
  'jw',
  'su',
  'yue',
] as const;

/** The same languages as ISO 639-1 codes (the API's language field): Javanese is "jv" (whisper: "jw"); Hawaiian and Cantonese have no 639-1 code. */
export const WHISPER_LANGUAGES: readonly string[] = WHISPER_LANGUAGE_CODES.filter((c) => c.length === 2).map((c) =>
  c === 'jw' ? 'jv' : c,
);

/** ISO 639-1 (or "auto") -> whisper's code, or null when whisper does not know the language. */
export function toWhisperLanguage(language: string): string | null {
  const code = language.toLowerCase().split(/[-_]/)[0]!;
  if (code === 'auto') return 'auto';
  if (code === 'jv') return 'jw';
  return (WHISPER_LANGUAGE_CODES as readonly string[]).includes(code) ? code : null;
}

/** What users read when no usable speech model is set up (the reason, for the operator, is in the detail). */
export const NO_SPEECH_MODEL_MESSAGE =
  'Speech recognition with a downloaded model is not set up on this server. ' +
  'Download a speech model in Settings → Speech recognition (on a server: kikitori-server models download base), then transcribe again.';
/** What users read when the recognition library itself cannot run here. */
export const RECOGNIZER_MISSING_MESSAGE =
  "Speech recognition with a downloaded model cannot run on this server: its recognition library is not installed. Ask the server's administrator to reinstall Kikitori (kikitori-server engines tells what is missing).";

/**
 * The binding is not built, or no usable model is configured: nothing a retry can fix. Users read a
 * message in their terms; the reason (engine, files, settings) goes into the detail, which is logged
 * and shown by `kikitori-server engines`.
 */
function unavailable(reason: string, detail?: string, cause?: unknown, message = NO_SPEECH_MODEL_MESSAGE): EngineError {
  return new EngineError('unavailable', message, {
    detail: `whisper: ${reason}${detail ? ` (${detail})` : ''}`,
    cause,
  });
}

export interface WhisperEngineOptions {
  /** KIKITORI_WHISPER_MODEL: a ggml file path, or a catalogue name ("base", "large-v3"...) under <dataDir>/models. */
  model?: string;
  /** For catalogue names and the default model lookup. */
  dataDir: string;
  /** CPU threads per transcription (KIKITORI_WHISPER_THREADS); default half the cores, at least 1. */
  threads?: number;
  /** > 1: beam search with this beam (KIKITORI_WHISPER_BEAM_SIZE); default greedy with fallback. */
  beamSize?: number;
  /** Most seconds of speech per window (default 30: whisper's context). */
  windowSeconds?: number;
  /** Free the loaded model after this long unused (default 300 s). */
  idleSeconds?: number;
  /** Voice activity detector; defaults to Silero, falling back to the energy VAD (see FallbackVad). */
  vad?: VoiceActivityDetector;
  /** Where the default VAD reports which detector ran (default: console, once per change). */
  vadLog?: VadLog;
  /**
   * Benchmarks with random-weight models only (bench/asr-bench.ts): decode exactly this many tokens per
   * second of window, as one segment, with no temperature fallback, so that a model that recognizes
   * nothing costs what a real one costs on speech (~3 tokens/s). Unset for real use.
   */
  fixedTokensPerSecond?: number;
}

/** Temperatures a looping window is decoded again at (openai-whisper's schedule after 0). */
const FALLBACK_TEMPERATURES = [0.2, 0.4, 0.6, 0.8, 1.0];
/** Share of progress given to the VAD pass (reading the whole file once). */
const VAD_SHARE = 0.05;

type Token = TranscribeDetailedResult<true>['tokens'][number];
type Detail = TranscribeDetailedResult<true>;

interface LoadedModel {
  key: string;
  name: string;
  file: WhisperModelFile;
  handle: Handle;
  free(): Promise<void>;
}

let bindingCache: { binding: typeof Binding; WhisperModel: typeof Binding.WhisperModel } | Error | null = null;

/** Loads the native binding once; throws an 'unavailable' EngineError with the fix when it is not built. */
export function loadWhisperBinding(): { binding: typeof Binding; WhisperModel: typeof Binding.WhisperModel } {
  if (bindingCache === null) {
    try {
      const mod = createRequire(import.meta.url)('smart-whisper') as {
        binding: typeof Binding;
        WhisperModel: typeof Binding.WhisperModel;
      };
      bindingCache = { binding: mod.binding, WhisperModel: mod.WhisperModel };
    } catch (error) {
      bindingCache = unavailable(
        'the whisper.cpp binding (npm package smart-whisper) is not built on this machine. ' +
          'Run `npm run setup`, or `CFLAGS=-march=native CXXFLAGS=-march=native npm rebuild smart-whisper` (needs build-essential and python3).',
        (error as Error).message.split('\n')[0],
        error,
        RECOGNIZER_MISSING_MESSAGE,
      );
    }
  }
  if (bindingCache instanceof Error) throw bindingCache;
  return bindingCache;
}

export class WhisperEngine implements SpeechEngine, StreamingRecognizer {
  readonly name = 'whisper';
  /** Language "auto": whisper detects it (reported as `language` on the result). */
  readonly detectsLanguage = true;

  private readonly threads: number;
  private readonly beamSize: number;
  private readonly windowSeconds: number;
  /** The voice activity detector (its name, after a run, tells which one ran). */
  readonly vad: VoiceActivityDetector;
  private readonly idleMs: number;
  private loaded: LoadedModel | null = null;
  private loading: Promise<LoadedModel> | null = null;
  private users = 0;
  private nativeRunning = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private hparamsCache: { key: string; englishOnly: boolean } | null = null;

  constructor(private readonly options: WhisperEngineOptions) {
    this.threads = options.threads ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
    this.beamSize = options.beamSize ?? 0;
    this.windowSeconds = options.windowSeconds ?? 30;
    this.vad = options.vad ?? new FallbackVad(new SileroVad(), new EnergyVad(), options.vadLog ?? consoleVadLog);
    this.idleMs = (options.idleSeconds ?? 300) * 1000;
  }

  /**
   * English-only models (*.en) recognize only "en"; multilingual ones whisper's 97 ISO 639-1 languages,
   * and translate them into English (whisper's translate task).
   */
  get capabilities(): SpeechEngineCapabilities {
    let englishOnly = false;
    try {
      const { file } = this.resolveModel();
      const stat = fs.statSync(file);
      const key = `${file}:${stat.size}:${stat.mtimeMs}`;
      if (this.hparamsCache?.key !== key) {
        const h = readWhisperHparams(file);
        this.hparamsCache = { key, englishOnly: h !== null && h.nVocab < 51865 };
      }
      englishOnly = this.hparamsCache.englishOnly;
    } catch {
      // No model yet: advertise the multilingual set; recognize() explains what is missing.
    }
    return {
      languages: englishOnly ? ['en'] : WHISPER_LANGUAGES,
      wordTimestamps: true,
      customVocabulary: true,
      speakerSeparation: false,
      translatesToEnglish: !englishOnly,
    };
  }

  /** The model file this engine would use now, or an 'unavailable' EngineError saying how to get one. */
  resolveModel(): { file: string; name: string } {
    const configured = this.options.model?.trim();
    const dir = whisperModelsDir(this.options.dataDir);
    if (configured) {
      const known = findWhisperModel(configured);
      if (known && !configured.includes('/')) return { file: path.join(dir, known.file), name: known.name };
      if (configured.includes('/') || configured.endsWith('.bin')) {
        return {
          file: path.resolve(configured),
          name: path
            .basename(configured)
            .replace(/^ggml-/, '')
            .replace(/\.bin$/, ''),
        };
      }
      throw unavailable(
        `KIKITORI_WHISPER_MODEL="${configured}" is neither a file path nor a catalogue model. ${unknownModelMessage(configured)}`,
      );
    }
    // The first installed model that loads; a damaged one is passed over (a job must not fail for it while
    // another model would serve), and named only when nothing else is there: load() then says what is wrong.
    let damaged: { file: string; name: string } | null = null;
    for (const name of WHISPER_MODEL_PREFERENCE) {
      const model = findWhisperModel(name)!;
      const file = path.join(dir, model.file);
      if (!fs.existsSync(file)) continue;
      if (whisperModelProblem(file) === null) return { file, name };
      damaged ??= { file, name };
    }
    if (damaged) return damaged;
    throw unavailable(
      `No whisper model is installed. ${howToGetModel(this.options.dataDir)}`,
      `no model file in ${dir}`,
    );
  }

  /** Whether recognize() can run here, without loading the model into memory. */
  async checkUsable(): Promise<{ usable: boolean; reason: string | null; detail: string | null }> {
    try {
      loadWhisperBinding();
      const { file, name } = this.resolveModel();
      if (!fs.existsSync(file))
        throw unavailable(`the model file ${file} does not exist. ${howToGetModel(this.options.dataDir)}`);
      const info = inspectWhisperModel(file);
      return {
        usable: true,
        reason: null,
        detail: `model ${name} (${file}, ${info.multilingual ? 'multilingual' : 'English only'}, ${this.threads} thread${this.threads > 1 ? 's' : ''})`,
      };
    } catch (error) {
      return { usable: false, reason: operatorMessage(error), detail: null };
    }
  }

  async recognize(request: RecognizeRequest): Promise<RecognizeResult> {
    const { pcmPath, signal } = request;
    const language = toWhisperLanguage(request.language);
    if (!language) {
      throw unsupportedLanguageError(
        [request.language],
        recognizesDetail(this.name, WHISPER_LANGUAGES, [request.language]),
      );
    }
    const { binding } = loadWhisperBinding();
    signal.throwIfAborted();
    const stages = new StageTimings();
    const timed = <T>(stage: string, fn: () => Promise<T>): Promise<T> => stages.time(stage, fn);
    // What the model can do is checked from its header, before any work: a silent file never loads it.
    const { file: modelFile, name: modelName } = this.resolveModel();
    if (!fs.existsSync(modelFile))
      throw unavailable(`The whisper model file ${modelFile} does not exist. ${howToGetModel(this.options.dataDir)}`);
    const hparams = readWhisperHparams(modelFile);
    const multilingual = hparams === null || hparams.nVocab >= 51865; // not a model: acquire() explains
    if (!multilingual && language !== 'en' && language !== 'auto') {
      throw unsupportedLanguageError(
        [request.language],
        `the whisper model "${modelName}" is English-only; "${request.language}" needs a multilingual model (e.g. base, small, large-v3)`,
      );
    }
    const translate = request.task === 'translate';
    if (translate && !multilingual) {
      throw new EngineError(
        'unsupported',
        `The speech model "${modelName}" is English-only and cannot translate; translation needs a multilingual model (e.g. base, small, large-v3).`,
        { field: 'model', detail: `whisper model ${modelFile} is English-only` },
      );
    }

    let lastProgress = -1;
    const progress = (f: number) => {
      if (request.onProgress && f > lastProgress) request.onProgress((lastProgress = Math.min(1, f)));
    };
    request.onStage?.('detecting-speech');
    progress(0);
    const speech = await timed('vad', () =>
      this.vad.detect(pcmPath, { signal, onProgress: (f) => progress(f * VAD_SHARE) }),
    );
    request.onStage?.('recognizing');
    const windows = speechWindows(speech, this.windowSeconds);
    const speakingDuration = round(speechSeconds(speech));
    if (windows.length === 0) {
      progress(1);
      return { segments: [], speakingDuration, model: `whisper.cpp/${modelName}`, timings: stages.stages() };
    }

    const model = await timed('load', () => this.acquire());
    let handle: fsp.FileHandle | null = null;
    try {
      const fixed = this.options.fixedTokensPerSecond;
      const params = this.decodeParams({
        language,
        translate,
        prompt: vocabularyPrompt(request.vocabulary, request.language),
        temperatureIncrement: fixed ? 0 : 0.2,
      });
      const segments: RecognizedSegment[] = [];
      const cursor = { end: 0 };
      let detected: string | null = null;
      const totalSpeech = windows.reduce((sum, w) => sum + w.seconds, 0);
      let done = 0;
      handle = await fsp.open(pcmPath, 'r');
      for (const window of windows) {
        signal.throwIfAborted();
        const pcm = await readWindow(handle, window);
        const windowParams = fixed
          ? { ...params, single_segment: true, max_tokens: Math.max(1, Math.ceil(window.seconds * fixed)) }
          : params;
        const onSegmentEnd = (ms: number) =>
          progress(VAD_SHARE + (1 - VAD_SHARE) * ((done + Math.min(window.seconds, ms / 1000)) / totalSpeech));
        const decode = (extra: Partial<TranscribeParams<'detail', true>>) =>
          timed('whisper', () =>
            this.transcribeWindow(binding, model.handle, pcm, { ...windowParams, ...extra }, signal, onSegmentEnd),
          );
        let results = await decode({});
        const lang = results[0]?.lang;
        detected ??= typeof lang === 'string' && lang ? (lang === 'jw' ? 'jv' : lang) : null;
        const spaceless = !translate && isSpaceless(language === 'auto' ? (detected ?? 'en') : language);
        if (!fixed && loops(results, model.file)) {
          results = await this.fallback(results, model.file, decode, signal);
          stages.add('fallbacks', 1);
        }
        const first = window.pieces[0]!.fileStart;
        const last = window.pieces[window.pieces.length - 1]!.fileEnd;
        const windowSegments: RecognizedSegment[] = [];
        for (const r of results) {
          const segment = toSegment(r, model.file, {
            map: (seconds) => toFileTime(window, seconds),
            start: first,
            end: last,
            spaceless,
            cursor,
          });
          if (segment) windowSegments.push(segment);
        }
        segments.push(...windowSegments);
        done += window.seconds;
        progress(VAD_SHARE + (1 - VAD_SHARE) * (done / totalSpeech));
      }
      progress(1);
      const result: RecognizeResult & { language?: string } = {
        segments,
        speakingDuration,
        speechRegions: speech.map((r) => ({ start: r.start, end: r.end })),
        model: `whisper.cpp/${model.name}`,
        timings: stages.stages(),
      };
      if (detected) result.language = detected;
      return result;
    } finally {
      await handle?.close();
      this.release();
    }
  }

  /** whisper.cpp's parameters for one decode: this engine's threads and search, with its own fallback. */
  private decodeParams(o: {
    language: string;
    translate: boolean;
    prompt: string | null;
    temperatureIncrement: number;
  }): Partial<TranscribeParams<'detail', true>> {
    return {
      language: o.language,
      translate: o.translate,
      format: 'detail',
      token_timestamps: true,
      n_threads: this.threads,
      strategy: this.beamSize > 1 ? 1 : 0,
      ...(this.beamSize > 1 ? { beam_size: this.beamSize } : { best_of: 5 }),
      // whisper.cpp's own fallback (its defaults, stated): see the header.
      temperature: 0,
      temperature_inc: o.temperatureIncrement,
      entropy_thold: 2.4,
      logprob_thold: -1,
      print_progress: false,
      print_timestamps: false,
      print_realtime: false,
      ...(o.prompt ? { initial_prompt: o.prompt } : {}),
    };
  }

  /** Languages live sessions can use: those of the installed model; none while no model is installed. */
  get liveLanguages(): readonly string[] {
    try {
      if (!fs.existsSync(this.resolveModel().file)) return [];
    } catch {
      return [];
    }
    return this.capabilities.languages;
  }

  get liveModel(): string {
    try {
      return `whisper.cpp/${this.resolveModel().name}`;
    } catch {
      return 'whisper.cpp';
    }
  }

  /**
   * A live stream (decision 0063): whisper decodes windows, not samples, so the open utterance is decoded
   * again as it grows and words are shown once two passes agree (RedecodingStream); the model is held
   * until the stream closes. Live passes skip the temperature fallback: the utterance's final decode has
   * it, and a looping partial is never shown, since two passes must agree.
   */
  async openStream(options: StreamOptions): Promise<RecognitionStream> {
    const language = toWhisperLanguage(options.language);
    if (!language || language === 'auto' || !this.liveLanguages.includes(options.language)) {
      throw unsupportedLanguageError(
        [options.language],
        recognizesDetail(this.name, this.liveLanguages, [options.language]),
      );
    }
    const { binding } = loadWhisperBinding();
    const model = await this.acquire();
    const prompt = vocabularyPrompt(options.vocabulary, options.language);
    const spaceless = isSpaceless(language);
    const decode = async (pcm: Int16Array, temperatureIncrement: number): Promise<RecognizedWord[]> => {
      const params = this.decodeParams({ language, translate: false, prompt, temperatureIncrement });
      const results = await this.transcribeWindow(
        binding,
        model.handle,
        toFloat32(pcm),
        params,
        new AbortController().signal,
        () => {},
      );
      const end = pcm.length / SAMPLE_RATE;
      const cursor = { end: 0 };
      return results.flatMap(
        (r) => toSegment(r, model.file, { map: (t) => t, start: 0, end, spaceless, cursor })?.words ?? [],
      );
    };
    let released = false;
    return new RedecodingStream({
      decode: (pcm) => decode(pcm, 0),
      decodeFinal: (pcm) => decode(pcm, 0.2),
      release: () => {
        if (released) return;
        released = true;
        this.release();
      },
    });
  }

  /**
   * A looping window decoded again at rising temperatures (whisper.cpp continues its own fallback from
   * each); the first result that does not loop wins, else the least looping one with its repeats cut.
   */
  private async fallback(
    first: Detail[],
    file: WhisperModelFile,
    decode: (extra: Partial<TranscribeParams<'detail', true>>) => Promise<Detail[]>,
    signal: AbortSignal,
  ): Promise<Detail[]> {
    const tried = [first];
    for (const temperature of FALLBACK_TEMPERATURES) {
      signal.throwIfAborted();
      const results = await decode({ temperature });
      if (!loops(results, file)) return results;
      tried.push(results);
    }
    const ratio = (results: Detail[]) => compressionRatio(windowText(results));
    return withoutRepeats(
      tried.reduce((best, r) => (ratio(r) < ratio(best) ? r : best)),
      file,
    );
  }

  /**
   * The language of the speech in `regions` by whisper's own detection (decision 0070), on their first
   * window (up to 30 s): one encoder pass and one decoded token. Null when no multilingual model is
   * installed (English-only models cannot tell), whisper cannot run here, or there is no speech.
   */
  async identify(request: {
    pcmPath: string;
    regions: ReadonlyArray<{ start: number; end: number }>;
    signal: AbortSignal;
  }): Promise<string | null> {
    let binding: typeof Binding;
    try {
      binding = loadWhisperBinding().binding;
      const { file } = this.resolveModel();
      const hparams = fs.existsSync(file) ? readWhisperHparams(file) : null;
      if (hparams === null || hparams.nVocab < 51865) return null;
    } catch {
      return null; // no model, or no binding: the recognizer's judgement stands alone
    }
    const window = speechWindows(
      request.regions.map((r) => ({ start: r.start, end: r.end })),
      this.windowSeconds,
    )[0];
    if (!window) return null;
    const model = await this.acquire();
    let handle: fsp.FileHandle | null = null;
    try {
      handle = await fsp.open(request.pcmPath, 'r');
      const pcm = await readWindow(handle, window);
      const results = await this.transcribeWindow(
        binding,
        model.handle,
        pcm,
        {
          language: 'auto',
          format: 'detail',
          single_segment: true,
          max_tokens: 1,
          n_threads: this.threads,
          temperature: 0,
          temperature_inc: 0,
          print_progress: false,
          print_timestamps: false,
          print_realtime: false,
        },
        request.signal,
        () => undefined,
      );
      const lang = results[0]?.lang;
      return typeof lang === 'string' && lang ? (lang === 'jw' ? 'jv' : lang) : null;
    } finally {
      await handle?.close();
      this.release();
    }
  }

  /** Frees the loaded model once nothing runs on it (also done automatically after idleSeconds). */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const loaded = this.loaded;
    if (loaded && this.users === 0 && this.nativeRunning === 0) {
      this.loaded = null;
      await loaded.free();
    }
  }

  private transcribeWindow(
    binding: typeof Binding,
    handle: Handle,
    pcm: Float32Array,
    params: Partial<TranscribeParams<'detail', true>>,
    signal: AbortSignal,
    onSegmentEnd: (ms: number) => void,
  ): Promise<Detail[]> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      this.nativeRunning++;
      binding.transcribe(
        handle,
        pcm,
        params,
        (results: unknown) => {
          this.nativeRunning--;
          signal.removeEventListener('abort', onAbort);
          if (Array.isArray(results)) resolve(results as Detail[]);
          else
            reject(
              new Error(
                `whisper.cpp failed on this audio (${results instanceof Error ? results.message : String(results)})`,
              ),
            );
          this.scheduleIdle();
        },
        (segment) => onSegmentEnd(segment.to),
      );
    });
  }

  private async acquire(): Promise<LoadedModel> {
    this.users++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      const { file, name } = this.resolveModel();
      let stat: fs.Stats;
      try {
        stat = await fsp.stat(file);
      } catch {
        throw unavailable(`The whisper model file ${file} does not exist. ${howToGetModel(this.options.dataDir)}`);
      }
      const key = `${file}:${stat.size}:${stat.mtimeMs}`;
      if (this.loaded?.key === key) return this.loaded;
      if (!this.loading) {
        this.loading = this.load(file, name, key).finally(() => (this.loading = null));
      }
      const model = await this.loading;
      return model;
    } catch (error) {
      this.release();
      throw error;
    }
  }

  private async load(file: string, name: string, key: string): Promise<LoadedModel> {
    // A stale model (file replaced) is freed once nothing runs on it.
    if (this.loaded && this.nativeRunning === 0) {
      const old = this.loaded;
      this.loaded = null;
      await old.free();
    }
    let info: WhisperModelFile;
    try {
      info = inspectWhisperModel(file);
    } catch (error) {
      // A file that is not a whisper model: the model is the server's to replace, not the job's to retry.
      if (isEngineError(error)) {
        throw unavailable(`${error.message} ${howToGetModel(this.options.dataDir)}`, error.detail, error);
      }
      throw error;
    }
    const { WhisperModel } = loadWhisperBinding();
    const model = await WhisperModel.load(file, false);
    const handle = model.handle;
    if (!handle)
      throw unavailable(
        `whisper.cpp could not load the model file. ${howToGetModel(this.options.dataDir)}`,
        `whisper.cpp could not load ${file}`,
      );
    this.loaded = { key, name, file: info, handle, free: () => model.free() };
    return this.loaded;
  }

  private release(): void {
    this.users = Math.max(0, this.users - 1);
    this.scheduleIdle();
  }

  private scheduleIdle(): void {
    if (this.users > 0 || this.nativeRunning > 0 || !this.loaded || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      void this.close();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}

/** The window's pieces of the file, end to end, as whisper's Float32 samples. */
async function readWindow(handle: fsp.FileHandle, window: SpeechWindow): Promise<Float32Array> {
  const parts: Int16Array[] = [];
  for (const piece of window.pieces) {
    parts.push(
      await readPcmRange(handle, Math.floor(piece.fileStart * SAMPLE_RATE), Math.ceil(piece.fileEnd * SAMPLE_RATE)),
    );
  }
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(toFloat32(part), at);
    at += part.length;
  }
  return out;
}

function windowText(results: Detail[]): string {
  return results
    .map((r) => r.text)
    .join('')
    .trim();
}

/**
 * The text tokens of a window's results (special tokens left out), which the repetition check compares:
 * tokens, not words, because a loop can sit inside one "word" (tokens without a space between them),
 * and languages written without spaces have no words to split.
 */
function textTokens(results: Detail[], file: WhisperModelFile): { result: number; token: Token }[] {
  return results.flatMap((r, result) =>
    (r.tokens ?? []).filter((t) => (file.tokenBytes(t.id)?.length ?? 0) > 0).map((token) => ({ result, token })),
  );
}

function loops(results: Detail[], file: WhisperModelFile): boolean {
  return isLooping(
    windowText(results),
    textTokens(results, file).map((t) => String(t.token.id)),
  );
}

/**
 * The results with every repeated copy of a loop removed (its first copy stays): loops of the same tokens,
 * then loops of the same text in other tokens.
 */
function withoutRepeats(results: Detail[], file: WhisperModelFile): Detail[] {
  const tokens = textTokens(results, file);
  const byTokens = trimRepetitions(tokens.map((t) => String(t.token.id))).map((i) => tokens[i]!);
  const kept = trimRepeatedBytes(byTokens.map((t) => file.tokenBytes(t.token.id) ?? new Uint8Array()));
  const dropped = new Set(tokens.map((t) => t.token));
  for (const i of kept) dropped.delete(byTokens[i]!.token);
  return results.map((r) => ({ ...r, tokens: (r.tokens ?? []).filter((t) => !dropped.has(t)) }));
}

function toFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}

const utf8 = new TextDecoder('utf-8');

/** True when `bytes` does not end inside a multi-byte UTF-8 character. */
function endsOnCharBoundary(bytes: number[]): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return back >= need;
  }
  return true;
}

/**
 * One whisper segment -> words (tokens grouped at spaces, or at character boundaries for languages
 * written without spaces), with times mapped into the file's timeline (`map`), clamped to the window and
 * kept monotonic across the whole result (`cursor.end` is the last emitted end).
 */
function toSegment(
  r: Detail,
  file: WhisperModelFile,
  o: {
    map: (windowSeconds: number) => number;
    start: number;
    end: number;
    spaceless: boolean;
    cursor: { end: number };
  },
): RecognizedSegment | null {
  const groups: { bytes: number[]; tokens: Token[] }[] = [];
  for (const token of r.tokens ?? []) {
    const bytes = file.tokenBytes(token.id);
    if (!bytes || bytes.length === 0) continue; // special tokens: timestamps, <|en|>, <|endoftext|>...
    const current = groups[groups.length - 1];
    const startsWord = !current || bytes[0] === 0x20 || (o.spaceless && endsOnCharBoundary(current.bytes));
    if (startsWord) groups.push({ bytes: [...bytes], tokens: [token] });
    else {
      current.bytes.push(...bytes);
      current.tokens.push(token);
    }
  }
  // Never before the previous segment's end nor outside this window; words never go backwards.
  const floor = Math.max(o.cursor.end, o.start);
  const clamp = (seconds: number, min: number) =>
    Math.min(o.end, Math.max(min, Number.isFinite(seconds) ? seconds : min));
  const words: RecognizedWord[] = [];
  let last = floor;
  for (const g of groups) {
    const text = utf8.decode(Uint8Array.from(g.bytes)).trim();
    if (!text) continue;
    const start = round(clamp(o.map(g.tokens[0]!.from / 1000), last));
    const end = round(clamp(o.map(g.tokens[g.tokens.length - 1]!.to / 1000), start));
    const p = g.tokens.reduce((sum, t) => sum + (Number.isFinite(t.p) ? t.p : 0), 0) / g.tokens.length;
    words.push({ word: text, start, end, confidence: round(Math.min(1, Math.max(0, p))) });
    last = end;
  }
  if (words.length === 0) return null;
  const start = Math.min(words[0]!.start, round(clamp(o.map(r.from / 1000), floor)));
  const end = Math.max(last, round(clamp(o.map(r.to / 1000), last)));
  o.cursor.end = end;
  return { start, end, words };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
