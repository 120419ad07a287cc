// The transcription pipeline: CONVERTING (probe + decode to 16 kHz mono) -> IN_PROGRESS (speech engine,
// then forced replacements) -> COMPLETED with the transcript document in storage. Each job logs its
// per-stage timings as one line ("transcription timings"). The record says when this attempt started
// and which stage it is in (`processing_started_at`, `stage`), so that clients can tell how far it is.
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import type { DictionaryRepository } from '../db/dictionary-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import { EngineError } from '../domain/engine-error.js';
import { applyReplacements } from '../domain/replacements.js';
import { transcriptKey, type TranscriptionService } from '../domain/transcription-service.js';
import { detectsLanguage, wantsSpeakers, type EngineRegistry } from '../engines/engine-registry.js';
import { assignSpeakers } from '../engines/speakers/assign-speakers.js';
import { decodeToPcm, probeAudio, SAMPLE_RATE } from '../engines/audio/ffmpeg.js';
import { checkDecodedDuration, checkDuration, ensureDecodeSpace, type AudioLimits } from '../engines/audio/audio-limits.js';
import { joinSegmentTexts, joinWords } from '../../src-shared/word-text.js';
import { UNDETERMINED_LANGUAGE } from '../../src-shared/languages.js';
import type { Storage } from '../storage/storage.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import type { JobDefinition } from './job-queue.js';
import type { TranscriptionStage } from '../../src-shared/api/vocabulary.js';
import { StageTimings } from '../domain/stage-timings.js';

export interface TranscribeJobDeps {
  transcriptions: TranscriptionRepository;
  dictionaries: DictionaryRepository;
  service: TranscriptionService;
  storage: Storage;
  engines: EngineRegistry;
  workDir: string;
  /** Longest recording, and the disk decoding must leave free. */
  limits: AudioLimits;
}

// Share of the progress bar each stage owns.
const CONVERT_SHARE = 0.1;
const SPEAKERS_SHARE = 0.15;
/**
 * Uploads up to this size (minutes of compressed audio, seconds of WAV) are decoded without a probe: one
 * tool start-up instead of two, on a short clip most of the conversion. Bigger ones are probed first,
 * so that the decode can report progress against the duration.
 */
const CONCURRENT_CONVERT_BYTES = 4 * 1024 * 1024;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function transcribeJob(deps: TranscribeJobDeps): JobDefinition<'transcribe'> {
  const { transcriptions, dictionaries, service, storage, engines, workDir, limits } = deps;

  /** Writes progress when it moves by a percent or more, to keep the database quiet. */
  const progressWriter = (transcriptionId: string) => {
    let last = -1;
    return (fraction: number) => {
      const rounded = Math.round(Math.min(1, Math.max(0, fraction)) * 100) / 100;
      if (rounded > last) {
        last = rounded;
        void transcriptions.update(transcriptionId, { progress: rounded });
      }
    };
  };

  /** Writes the stage when it changes. */
  const stageWriter = (transcriptionId: string) => {
    let last: TranscriptionStage | null = null;
    return (stage: TranscriptionStage) => {
      if (stage !== last) {
        last = stage;
        void transcriptions.update(transcriptionId, { stage });
      }
    };
  };

  return {
    maxAttempts: 3,
    async handle({ transcriptionId }, { signal, logger }) {
      const timings = new StageTimings();
      let outcome = 'failed';
      try {
        const done = await transcribe(transcriptionId, signal, timings);
        outcome = done ? 'completed' : 'skipped';
      } finally {
        logger.info({ transcriptionId, outcome: signal.aborted ? 'aborted' : outcome, timings: timings.toJSON() }, 'transcription timings');
      }
    },
    async onFailed({ transcriptionId }, error) {
      await service.end(transcriptionId, { status: 'FAILED', failureReason: error.message, stage: null });
    },
  };

  /**
   * CONVERTING: decode to PCM; returns the audio's length in seconds.
   * - Large files: probe first (its duration drives the decode's progress), then decode.
   * - Small files: decode alone, and take the length from the PCM: one process instead of two, which
   *   is most of a short clip's conversion time (each ffmpeg/ffprobe start costs ~0.14 s here). When
   *   the decode fails, the probe runs then, so a file that is not audio is explained in its words.
   */
  async function convert(
    audioPath: string,
    pcmPath: string,
    sizeBytes: number,
    o: { signal: AbortSignal; timings: StageTimings; onProgress: (fraction: number) => void },
  ): Promise<number> {
    if (sizeBytes > CONCURRENT_CONVERT_BYTES) {
      const probe = await o.timings.time('probe', () => probeAudio(audioPath, o.signal));
      checkDuration(probe.durationSeconds, limits);
      await ensureDecodeSpace(workDir, probe.durationSeconds, limits);
      const decoded = await o.timings.time('decode', () =>
        decodeToPcm(audioPath, pcmPath, { signal: o.signal, durationSeconds: probe.durationSeconds, onProgress: o.onProgress, maxSeconds: limits.maxSeconds }),
      );
      // A header that understated the length: -t stopped the decode just past the limit.
      checkDecodedDuration(decoded.durationSeconds, limits);
      return probe.durationSeconds;
    }
    // The length is not known before decoding: the reserve alone, and -t bounds what is written.
    await ensureDecodeSpace(workDir, 0, limits);
    try {
      // durationSeconds 0: no probe inside decodeToPcm and no progress (the file is small).
      await o.timings.time('decode', () => decodeToPcm(audioPath, pcmPath, { signal: o.signal, durationSeconds: 0, maxSeconds: limits.maxSeconds }));
    } catch (error) {
      if (o.signal.aborted) throw error;
      // The probe's verdict explains a file that is not audio; when it finds nothing wrong, the decode's error stands.
      await o.timings.time('probe', () => probeAudio(audioPath, o.signal));
      throw error;
    }
    const seconds = round3((await fsp.stat(pcmPath)).size / 2 / SAMPLE_RATE);
    checkDecodedDuration(seconds, limits);
    o.onProgress(1);
    return seconds;
  }

  /** The pipeline; false when there was nothing to do. */
  async function transcribe(transcriptionId: string, signal: AbortSignal, timings: StageTimings): Promise<boolean> {
    const record = await timings.time('load', () => transcriptions.getById(transcriptionId));
    // Deleted, or ended by someone else, while queued: nothing left to do.
    if (!record || record.status === 'COMPLETED' || record.status === 'FAILED' || record.status === 'CANCELLED') return false;
    if (!record.audioKey) throw new EngineError('bad-input', 'The transcription has no uploaded audio.');
    const progress = progressWriter(transcriptionId);
    const stage = stageWriter(transcriptionId);

    // Each attempt starts the clock again: its progress starts again from 0 too.
    await timings.time('load', () =>
      transcriptions.update(transcriptionId, { status: 'CONVERTING', progress: 0, failureReason: null, processingStartedAt: new Date().toISOString(), stage: 'converting' }),
    );
    const audioPath = await storage.localPath(record.audioKey);
    await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
    const pcmPath = path.join(workDir, `${transcriptionId}.pcm`);
    try {
      const durationSeconds = await convert(audioPath, pcmPath, record.audioSize ?? Infinity, { signal, timings, onProgress: (f) => progress(f * CONVERT_SHARE) });

      const [words, rules] = await timings.time('dictionary', async () => {
        await transcriptions.update(transcriptionId, { status: 'IN_PROGRESS', duration: durationSeconds });
        const dictionary = record.dictionaryId ? await dictionaries.get(record.teamId, record.dictionaryId) : null;
        return dictionary
          ? Promise.all([dictionaries.words(dictionary.dictionaryId), dictionaries.blacklistWords(dictionary.dictionaryId)])
          : [[], []];
      });
      const engine = engines.speechFor(record.transcriptionModel);
      // No language given: the engine detects it (only engines that can are left without one at upload).
      const requestedLanguage = record.languages[0] ?? (detectsLanguage(engine) ? 'auto' : engine.capabilities.languages[0] ?? 'en');
      const speakers = engines.speakers;
      const separate =
        wantsSpeakers({ model: record.transcriptionModel, wantsSpeakers: record.numSpeakers !== null || record.minSpeakers !== null || record.maxSpeakers !== null }) &&
        !engine.capabilities.speakerSeparation &&
        speakers !== null;
      const recognitionShare = 1 - CONVERT_SHARE - (separate ? SPEAKERS_SHARE : 0);
      // Engines with a speech-detection pass say so before their first progress; the others are recognizing.
      let engineStaged = false;
      const result = await timings.time('recognize', () =>
        engine.recognize({
          pcmPath,
          language: requestedLanguage,
          vocabulary: words.map((w) => ({ word: w.word, reading: w.reading })),
          signal,
          onProgress: (f) => {
            if (!engineStaged) stage('recognizing');
            progress(CONVERT_SHARE + f * recognitionShare);
          },
          onStage: (s) => {
            engineStaged = true;
            stage(s);
          },
        }),
      );
      for (const [stage, ms] of Object.entries(result.timings ?? {})) timings.add(`recognize.${stage}`, ms);

      // Asked to detect and nothing was heard to detect it from: the language stays unknown, never a guess.
      const language = (result as { language?: string }).language ?? (requestedLanguage === 'auto' ? UNDETERMINED_LANGUAGE : requestedLanguage);
      let labelled: Array<(typeof result.segments)[number] & { speaker?: string | null }> = result.segments;
      if (separate) {
        // Separate speakers inside the recognizer's voice-activity regions (or its segments, which then follow them).
        const regions = result.speechRegions ?? result.segments.map((s) => ({ start: s.start, end: s.end }));
        stage('separating-speakers');
        const turns = await timings.time('speakers', () =>
          speakers.separate(pcmPath, regions, {
            numSpeakers: record.numSpeakers ?? undefined,
            minSpeakers: record.minSpeakers ?? undefined,
            maxSpeakers: record.maxSpeakers ?? undefined,
            signal,
            onProgress: (f) => progress(CONVERT_SHARE + recognitionShare + f * SPEAKERS_SHARE),
          }),
        );
        labelled = assignSpeakers(result.segments, turns);
      }

      const recognized: TranscriptSegment[] = labelled.map((s, id) => ({
        id,
        start: s.start,
        end: s.end,
        speaker: s.speaker ?? null,
        text: joinWords(s.words, language),
        words: s.words,
      }));
      if (rules.length > 0) stage('applying-dictionary');
      const { segments, applied } = await timings.time('replacements', () => applyReplacements(recognized, rules, language));
      const document: TranscriptDocument = {
        transcription_id: transcriptionId,
        text: joinSegmentTexts(segments, language),
        language,
        duration: durationSeconds,
        speaking_duration: result.speakingDuration,
        segments,
        replacements: applied,
        engine: {
          name: engine.name,
          model: result.model,
          transcription_model: record.transcriptionModel,
          ...(separate ? { speakers: speakers.name } : {}),
        },
        created_at: new Date().toISOString(),
      };
      stage('finishing');
      const key = transcriptKey(transcriptionId);
      await timings.time('document', () => storage.put(key, Readable.from([Buffer.from(JSON.stringify(document))])));
      await timings.time('finish', () =>
        service.end(transcriptionId, {
          status: 'COMPLETED',
          transcriptKey: key,
          speakingDuration: result.speakingDuration,
          engine: `${engine.name}/${result.model}${separate ? `+${speakers.name}` : ''}`,
          ...(record.languages.length === 0 && language !== UNDETERMINED_LANGUAGE ? { languages: [language] } : {}),
          progress: 1,
          stage: null,
        }),
      );
      return true;
    } finally {
      await fsp.rm(pcmPath, { force: true });
    }
  }
}
