// The one transcription pipeline: decode -> recognize (the engine runs its own voice-activity detection
// first, decision 0019) -> speakers -> vocabulary (decision 0058) -> replacements -> document. The
// transcribe job and OpenAI's POST /v1/audio/transcriptions (through its own job) both run it; neither
// knows which engines sit behind the stages, which are injected (the domain declares them, engines
// implement them).
// Progress leaves through one callback as (step, overall fraction); whoever runs the pipeline turns
// that into a status (pipelineStatus below) in one place. Cancellation: the signal reaches every stage
// and is checked between stages. A pipeline step (PIPELINE_STEPS) is internal; the `stage` clients see
// (TRANSCRIPTION_STAGES, src-shared/api/vocabulary.ts) is the finer word list on the wire.
import type {
  AppliedReplacement,
  TranscriptDocument,
  TranscriptSegment,
  TranscriptWord,
} from '../../src-shared/transcript-document.js';
import { joinSegmentTexts, joinWords } from '../../src-shared/word-text.js';
import { UNDETERMINED_LANGUAGE } from '../../src-shared/languages.js';
import { applyReplacements, type ReplacementRule } from './replacements.js';
import type { StageTimings } from './stage-timings.js';
import type { EnrolledVoice, RecognizedVoice, VoiceRecognitionStage } from './voice-prints.js';
import type { TranscriptionStage } from '../../src-shared/api/vocabulary.js';
import fsp from 'node:fs/promises';
import { languageWarnings, type LanguageIdentifier, type RecognizerLanguageCheck } from './language-check.js';
import type { TranscriptionWarning } from '../../src-shared/api/vocabulary.js';

export const PIPELINE_STEPS = ['decode', 'recognize', 'speakers', 'replacements', 'document'] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

/** The transcription status a step shows as: decoding is CONVERTING, the rest IN_PROGRESS. */
export function pipelineStatus(step: PipelineStep): 'CONVERTING' | 'IN_PROGRESS' {
  return step === 'decode' ? 'CONVERTING' : 'IN_PROGRESS';
}

/**
 * Step and overall progress (0..1), reported as the pipeline advances, with the stage clients see
 * (Transcription.stage) when it changes; undefined leaves the stage as it was.
 */
export type PipelineReport = (step: PipelineStep, fraction: number, stage?: TranscriptionStage) => void;

export interface DecodeRequest {
  audioPath: string;
  /** Where to write 16 kHz mono s16le PCM. */
  pcmPath: string;
  /** Bytes of the upload, when known: the stage may decode small files without probing them first. */
  sizeBytes: number | null;
  /**
   * Also write each channel on its own (multichannel, decision 0061), at channelPcmPath(pcmPath, n); the
   * mixed-down pcmPath is then not written.
   */
  splitChannels?: boolean;
  signal: AbortSignal;
  timings: StageTimings;
  onProgress: (fraction: number) => void;
}

/** Where channel n (1, 2, ...) of a split decode goes. */
export const channelPcmPath = (pcmPath: string, channel: number) => `${pcmPath}.ch${channel}`;

/**
 * Audio file -> PCM; resolves with the audio's length in seconds, and with splitChannels, how many channels
 * were written. Limits (duration, disk, channels) belong here.
 */
export interface DecodeStage {
  decode(request: DecodeRequest): Promise<{ durationSeconds: number; channels?: number }>;
}

export interface RecognizedWords {
  start: number;
  end: number;
  words: Array<Omit<TranscriptWord, 'replaced'>>;
}

/** What the pipeline needs of a speech engine (SpeechEngine satisfies it). */
export interface Recognizer {
  readonly name: string;
  recognize(request: {
    pcmPath: string;
    language: string;
    vocabulary: Array<{ word: string; reading?: string | null }>;
    signal: AbortSignal;
    onProgress?: (fraction: number) => void;
    /** Engines with a speech-detection pass say when it starts and when recognition does. */
    onStage?: (stage: 'detecting-speech' | 'recognizing') => void;
    task?: 'transcribe' | 'translate';
  }): Promise<RecognizeOutput>;
}

export interface RecognizeOutput {
  segments: RecognizedWords[];
  speakingDuration: number;
  model: string;
  speechRegions?: Array<{ start: number; end: number }>;
  timings?: Record<string, number>;
  language?: string;
  /** The recognizer's own view of whether the speech is in the requested language (decision 0070). */
  languageCheck?: RecognizerLanguageCheck;
}

/**
 * How hard the speaker stage works (decision 0057): "standard" for transcription_model "default",
 * "enhanced" for "diarization-high".
 */
export const SEPARATION_QUALITIES = ['standard', 'enhanced'] as const;
export type SeparationQuality = (typeof SEPARATION_QUALITIES)[number];

export interface SpeakerOptions {
  numSpeakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
  /** Default "standard". */
  quality?: SeparationQuality;
}

/** Labels recognized segments with speakers, separating inside the given speech regions. */
export interface SpeakerStage {
  readonly name: string;
  label(
    pcmPath: string,
    segments: readonly RecognizedWords[],
    regions: Array<{ start: number; end: number }>,
    options: SpeakerOptions & { signal: AbortSignal; onProgress: (fraction: number) => void },
  ): Promise<Array<RecognizedWords & { speaker: string | null }>>;
}

/**
 * Forced replacements over the recognized segments. Its own stage so that the matching can move off the
 * thread that serves HTTP (a worker thread implements the same interface).
 */
export interface ReplacementStage {
  apply(
    segments: TranscriptSegment[],
    rules: readonly ReplacementRule[],
    language: string,
  ): Promise<{ segments: TranscriptSegment[]; applied: AppliedReplacement[] }>;
}

export interface VocabularyTerm {
  word: string;
  reading?: string | null;
}

/**
 * Dictionary words found by how they sound in any engine's words (decision 0058): runs of recognized
 * words close to a term are rewritten to it and marked with what was heard.
 */
export interface VocabularyStage {
  apply(
    segments: TranscriptSegment[],
    vocabulary: readonly VocabularyTerm[],
    language: string,
  ): Promise<{ segments: TranscriptSegment[]; rewritten: number }>;
}

export interface PipelineStages {
  decode: DecodeStage;
  /** Null: the engines' words are kept as they come (bench:vocabulary's "before"). */
  vocabulary: VocabularyStage | null;
  replacements: ReplacementStage;
  /** Null when the server separates no speakers (KIKITORI_SPEAKER_ENGINE=none). */
  speakers: SpeakerStage | null;
  /** Names separated speakers by the team's enrolled voices (decision 0065); absent: never. */
  voices?: VoiceRecognitionStage | null;
  /**
   * Names the language of the speech, to check it against the one asked for (decision 0070); absent or
   * null: only the recognizer's own judgement is used.
   */
  languageIdentifier?: LanguageIdentifier | null;
}

export interface PipelineRequest {
  /** The document's transcription_id. */
  id: string;
  audioPath: string;
  sizeBytes: number | null;
  pcmPath: string;
  recognizer: Recognizer;
  /** Whether the recognizer labels speakers itself (then the speaker stage is skipped). */
  recognizerSeparatesSpeakers: boolean;
  /** ISO 639-1, or "auto" for the engine to detect it. */
  language: string;
  task?: 'transcribe' | 'translate';
  vocabulary: VocabularyTerm[];
  /** Null: no speaker separation asked. */
  speakers: SpeakerOptions | null;
  rules: readonly ReplacementRule[];
  /** The transcription model asked for, recorded in the document. */
  transcriptionModel: string;
  /**
   * Each channel recognized on its own and labelled as its own speaker (SPEAKER_n = channel n), instead of
   * the speaker stage (decision 0061).
   */
  multichannel?: boolean;
  /**
   * The team's enrolled voices, looked for among the separated speakers after the speaker stage (decision
   * 0065); absent or empty: none (the upload opted out, or the team has none).
   */
  voices?: readonly EnrolledVoice[];
}

export interface PipelineResult {
  document: TranscriptDocument;
  /** The speaker stage's name when it ran. */
  speakers: string | null;
  /** What the reader should know about the result (decision 0070): the Transcription's `warnings`. */
  warnings: TranscriptionWarning[];
}

// Share of the progress bar each stage owns.
const DECODE_SHARE = 0.1;
const SPEAKERS_SHARE = 0.15;

export class TranscriptionPipeline {
  constructor(private readonly stages: PipelineStages) {}

  async run(
    request: PipelineRequest,
    o: { signal: AbortSignal; timings: StageTimings; report: PipelineReport; onDuration?: (seconds: number) => void },
  ): Promise<PipelineResult> {
    const { signal, timings, report } = o;
    const between = () => signal.throwIfAborted();

    report('decode', 0, 'converting');
    const decoded = await this.stages.decode.decode({
      audioPath: request.audioPath,
      pcmPath: request.pcmPath,
      sizeBytes: request.sizeBytes,
      ...(request.multichannel ? { splitChannels: true } : {}),
      signal,
      timings,
      onProgress: (f) => report('decode', f * DECODE_SHARE),
    });
    const { durationSeconds } = decoded;
    between();
    o.onDuration?.(durationSeconds);

    // Multichannel: the channels are the speakers, so no separation by voice runs (decision 0061).
    const channels = request.multichannel ? (decoded.channels ?? 1) : 0;
    const speakers =
      channels === 0 && request.speakers !== null && !request.recognizerSeparatesSpeakers ? this.stages.speakers : null;
    const recognitionShare = 1 - DECODE_SHARE - (speakers ? SPEAKERS_SHARE : 0);
    report('recognize', DECODE_SHARE);
    // An engine with a speech-detection pass names its steps; any other is recognizing from its first progress.
    let engineStaged = false;
    let recognized = DECODE_SHARE;
    const recognize = async (pcmPath: string, from: number, share: number) => {
      const one = await timings.time('recognize', () =>
        request.recognizer.recognize({
          pcmPath,
          language: request.language,
          vocabulary: request.vocabulary,
          signal,
          onProgress: (f) => {
            recognized = from + f * share;
            report('recognize', recognized, engineStaged ? undefined : 'recognizing');
          },
          onStage: (stage) => {
            engineStaged = true;
            report('recognize', recognized, stage);
          },
          ...(request.task ? { task: request.task } : {}),
        }),
      );
      for (const [stage, ms] of Object.entries(one.timings ?? {})) timings.add(`recognize.${stage}`, ms);
      between();
      return one;
    };

    let result: Omit<RecognizeOutput, 'timings'>;
    let labelled: Array<RecognizedWords & { speaker?: string | null; channel?: number }>;
    if (channels === 0) {
      result = await recognize(request.pcmPath, DECODE_SHARE, recognitionShare);
      labelled = result.segments;
    } else {
      // Each channel on its own, so the engine's speech detection skips the silence of a channel while
      // the other speaks.
      const paths = Array.from({ length: channels }, (_, i) => channelPcmPath(request.pcmPath, i + 1));
      const perChannel: RecognizeOutput[] = [];
      try {
        for (const [i, pcmPath] of paths.entries()) {
          const share = recognitionShare / channels;
          perChannel.push(await recognize(pcmPath, DECODE_SHARE + i * share, share));
        }
      } finally {
        await Promise.all(paths.map((p) => fsp.rm(p, { force: true })));
      }
      result = mergeChannels(perChannel, durationSeconds);
      labelled = result.segments;
    }

    // A translation is English text, whatever was spoken. Asked to detect and nothing heard: the
    // language stays unknown, never a guess.
    const language =
      request.task === 'translate'
        ? 'en'
        : (result.language ?? (request.language === 'auto' ? UNDETERMINED_LANGUAGE : request.language));
    const warnings =
      request.task === 'translate' || request.language === 'auto'
        ? []
        : await timings.time('language', () => this.checkLanguage(request, result, channels > 0, signal));
    between();

    if (speakers && request.speakers) {
      report('speakers', DECODE_SHARE + recognitionShare, 'separating-speakers');
      // Separate inside the recognizer's voice-activity regions (or its segments, which then follow them).
      const regions = result.speechRegions ?? result.segments.map((s) => ({ start: s.start, end: s.end }));
      labelled = await timings.time('speakers', () =>
        speakers.label(request.pcmPath, result.segments, regions, {
          ...request.speakers,
          signal,
          onProgress: (f) => report('speakers', DECODE_SHARE + recognitionShare + f * SPEAKERS_SHARE),
        }),
      );
      between();
    }
    // Only after a separation by voice: a channel is a line, not a voice.
    const voiceStage = this.stages.voices;
    let recognizedVoices = new Map<string, RecognizedVoice>();
    if (speakers && voiceStage && request.voices && request.voices.length > 0) {
      const voices = request.voices;
      const separated = labelled.map((s) => ({ start: s.start, end: s.end, speaker: s.speaker ?? null }));
      recognizedVoices = await timings.time('voices', () =>
        voiceStage.recognize(request.pcmPath, separated, voices, signal),
      );
      between();
    }

    let segmentsRecognized: TranscriptSegment[] = labelled.map((s, id) => ({
      id,
      start: s.start,
      end: s.end,
      speaker: s.speaker ?? null,
      ...(s.channel === undefined ? {} : { channel: s.channel }),
      ...voiceFields(s.speaker ? recognizedVoices.get(s.speaker) : undefined),
      text: joinWords(s.words, language),
      words: s.words,
    }));
    const dictionary = request.rules.length > 0 || request.vocabulary.length > 0;
    report('replacements', 1 - 0.01, dictionary ? 'applying-dictionary' : undefined);
    // After speakers, so a run never joins two speakers' words; before forced replacements, so a rule
    // still has the last word on what a term (or what the engine heard) becomes.
    const vocabulary = this.stages.vocabulary;
    if (vocabulary && request.vocabulary.length > 0) {
      segmentsRecognized = (
        await timings.time('vocabulary', () => vocabulary.apply(segmentsRecognized, request.vocabulary, language))
      ).segments;
      between();
    }
    const { segments, applied } =
      request.rules.length === 0
        ? { segments: segmentsRecognized, applied: [] }
        : await timings.time('replacements', () =>
            this.stages.replacements.apply(segmentsRecognized, request.rules, language),
          );
    between();

    report('document', 1, 'finishing');
    const speakersBy = channels > 0 ? MULTICHANNEL : (speakers?.name ?? null);
    return {
      speakers: speakersBy,
      warnings,
      document: {
        transcription_id: request.id,
        text: joinSegmentTexts(segments, language),
        language,
        duration: durationSeconds,
        speaking_duration: result.speakingDuration,
        segments,
        replacements: applied,
        engine: {
          name: request.recognizer.name,
          model: result.model,
          transcription_model: request.transcriptionModel,
          ...(speakersBy ? { speakers: speakersBy } : {}),
        },
        created_at: new Date().toISOString(),
      },
    };
  }

  /**
   * Whether the speech is in the language asked for. The recognizer judges first; when it doubts, the
   * identifier (if configured) is asked which language it is: it names it, or clears the doubt by hearing
   * the language asked for. Asking only then keeps its cost (a whisper pass) off every other job. On the
   * mixed-down audio: a multichannel job has none, so only the recognizer judges it.
   */
  private async checkLanguage(
    request: PipelineRequest,
    result: Omit<RecognizeOutput, 'timings'>,
    multichannel: boolean,
    signal: AbortSignal,
  ): Promise<TranscriptionWarning[]> {
    const recognizer = result.languageCheck ?? null;
    const identifier = multichannel || !recognizer?.mismatch ? null : (this.stages.languageIdentifier ?? null);
    const regions = result.speechRegions ?? result.segments.map((s) => ({ start: s.start, end: s.end }));
    const identified =
      identifier && regions.length > 0
        ? await identifier.identify({ pcmPath: request.pcmPath, regions, signal })
        : null;
    return languageWarnings(request.language, { identified, recognizer });
  }
}

/** A segment's extension fields for the enrolled voice its speaker was recognized as. */
function voiceFields(voice: RecognizedVoice | undefined) {
  return voice ? { speaker_id: voice.speakerId, speaker_name: voice.name, speaker_confidence: voice.confidence } : {};
}

/** What the document and the record name as the speaker "engine" of a multichannel transcription. */
export const MULTICHANNEL = 'multichannel';

/**
 * The channels' recognitions as one: each channel's segments labelled with its speaker and channel, all in
 * order of time (a channel's own order kept; at the same start, the lower channel first), so that speech
 * overlapping in two channels is kept from both. Speaking time is the union of the channels' speech (two
 * people talking at once count once), or, when an engine reports no regions, the sum, at most the length.
 */
export function mergeChannels(
  perChannel: readonly RecognizeOutput[],
  durationSeconds: number,
): Omit<RecognizeOutput, 'timings' | 'segments'> & {
  segments: Array<RecognizedWords & { speaker: string; channel: number }>;
} {
  const checks = perChannel.flatMap((r) => (r.languageCheck ? [r.languageCheck] : []));
  const segments = perChannel
    .flatMap((r, i) => r.segments.map((s) => ({ ...s, speaker: `SPEAKER_${i + 1}`, channel: i + 1 })))
    .sort((a, b) => a.start - b.start || a.channel - b.channel);
  const regions = perChannel.every((r) => r.speechRegions)
    ? perChannel.flatMap((r) => r.speechRegions!).sort((a, b) => a.start - b.start)
    : null;
  let speakingDuration = 0;
  if (regions) {
    let end = -Infinity;
    for (const r of regions) {
      speakingDuration += Math.max(0, r.end - Math.max(r.start, end));
      end = Math.max(end, r.end);
    }
  } else {
    speakingDuration = Math.min(
      durationSeconds,
      perChannel.reduce((sum, r) => sum + r.speakingDuration, 0),
    );
  }
  return {
    segments,
    speakingDuration: Math.round(speakingDuration * 1000) / 1000,
    model: perChannel[0]?.model ?? '',
    ...(regions ? { speechRegions: regions } : {}),
    ...(perChannel.find((r) => r.language) ? { language: perChannel.find((r) => r.language)!.language! } : {}),
    // A mismatch only when every channel the recognizer judged says so (one quiet channel says little).
    ...(checks.length > 0
      ? {
          languageCheck: {
            mismatch: checks.every((c) => c.mismatch),
            likelyLanguage: checks.every((c) => c.likelyLanguage === checks[0]!.likelyLanguage)
              ? checks[0]!.likelyLanguage
              : null,
          },
        }
      : {}),
  };
}

/** Forced replacements on the calling thread (replacements.ts is linear in words and rules). */
export const inThreadReplacements: ReplacementStage = {
  apply: async (segments, rules, language) => applyReplacements(segments, rules, language),
};
