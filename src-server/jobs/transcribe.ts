// The transcribe job: a transcription record through the one pipeline (domain/transcription-pipeline.ts),
// CONVERTING (decode) -> IN_PROGRESS (recognize, speakers, replacements) -> COMPLETED with the transcript
// document in storage. Status and progress are written in one place, statusWriter(). Each job logs its
// per-stage timings as one line ("transcription timings"). The record says when this attempt started
// and which stage it is in (`processing_started_at`, `stage`), so that clients can tell how far it is.
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import type { DictionaryRepository } from '../db/dictionary-repository.js';
import type { VoiceRepository } from '../db/voice-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import { EngineError } from '../domain/engine-error.js';
import { pipelineStatus, type PipelineReport, type TranscriptionPipeline } from '../domain/transcription-pipeline.js';
import { transcriptKey, type TranscriptionService } from '../domain/transcription-service.js';
import { defaultLanguage } from '../domain/speech-language.js';
import { separationFor, type EngineRegistry } from '../engines/engine-registry.js';
import { UNDETERMINED_LANGUAGE } from '../../src-shared/languages.js';
import type { Storage } from '../storage/storage.js';
import type { JobDefinition } from './job-queue.js';
import { failureCode } from './job-failure.js';
import { StageTimings } from '../domain/stage-timings.js';
import type { TranscriptionStage } from '../../src-shared/api/vocabulary.js';

export interface TranscribeJobDeps {
  transcriptions: TranscriptionRepository;
  dictionaries: DictionaryRepository;
  /** The team voice library, looked for in new transcriptions (decision 0065). */
  voices: VoiceRepository;
  service: TranscriptionService;
  storage: Storage;
  engines: EngineRegistry;
  pipeline: TranscriptionPipeline;
  workDir: string;
}

/**
 * The one place a running transcription's status, progress and stage are written: the pipeline step's status
 * (CONVERTING while decoding, IN_PROGRESS after) and the stage clients see when they change,
 * progress when it moves by a percent or more (to keep the database quiet). Writes stop once the job is
 * aborted (cancelled, or lost to another worker), so a job that no longer owns its transcription does
 * not move it.
 */
export function statusWriter(
  transcriptions: TranscriptionRepository,
  transcriptionId: string,
  signal: AbortSignal,
  /** What the record already says, so that the first report does not write it again. */
  written: { status: string; progress: number; stage: TranscriptionStage } | null = null,
): PipelineReport & { settled(): Promise<void> } {
  let lastProgress = written?.progress ?? -1;
  let lastStatus: string | null = written?.status ?? null;
  let lastStage: TranscriptionStage | null = written?.stage ?? null;
  let writes: Promise<unknown> = Promise.resolve();
  const report: PipelineReport = (step, fraction, stage) => {
    if (signal.aborted) return;
    const progress = Math.round(Math.min(1, Math.max(0, fraction)) * 100) / 100;
    const status = pipelineStatus(step);
    const stageChanged = stage !== undefined && stage !== lastStage;
    if (status === lastStatus && progress <= lastProgress && !stageChanged) return;
    const patch = {
      ...(status !== lastStatus ? { status } : {}),
      ...(progress > lastProgress ? { progress } : {}),
      ...(stageChanged ? { stage } : {}),
    };
    lastStatus = status;
    lastProgress = Math.max(lastProgress, progress);
    if (stageChanged) lastStage = stage;
    writes = writes.then(() => transcriptions.update(transcriptionId, patch)).catch(() => undefined);
  };
  return Object.assign(report, { settled: () => writes.then(() => undefined) });
}

export function transcribeJob(deps: TranscribeJobDeps): JobDefinition<'transcribe'> {
  const { transcriptions, dictionaries, voices, service, storage, engines, pipeline, workDir } = deps;

  return {
    maxAttempts: 3,
    group: 'speech',
    async handle({ transcriptionId, again }, context) {
      const timings = new StageTimings();
      let outcome = 'failed';
      try {
        const done = await transcribe(transcriptionId, again?.author ?? null, context, timings);
        outcome = done ? 'completed' : 'skipped';
      } finally {
        context.logger.info(
          { transcriptionId, outcome: context.signal.aborted ? 'aborted' : outcome, timings: timings.toJSON() },
          'transcription timings',
        );
      }
    },
    async onFailed({ transcriptionId }, error) {
      await service.end(transcriptionId, {
        status: 'FAILED',
        failureReason: error.message,
        failureCode: failureCode(error),
        stage: null,
      });
    },
  };

  /** False when there was nothing to do. */
  async function transcribe(
    transcriptionId: string,
    /** Who asked to transcribe it again (decision 0062); null: its first transcription. */
    againBy: { userId: string; name: string } | null,
    { signal, ensureOwned }: { signal: AbortSignal; ensureOwned: () => Promise<void> },
    timings: StageTimings,
  ): Promise<boolean> {
    const record = await timings.time('load', () => transcriptions.getById(transcriptionId));
    // Deleted, or ended by someone else, while queued: nothing left to do.
    if (!record || record.status === 'COMPLETED' || record.status === 'FAILED' || record.status === 'CANCELLED')
      return false;
    if (!record.audioKey) throw new EngineError('bad-input', 'The transcription has no uploaded audio.');
    // Each attempt starts the clock again: its progress starts again from 0 too.
    await timings.time('load', () =>
      transcriptions.update(transcriptionId, {
        status: 'CONVERTING',
        progress: 0,
        failureReason: null,
        failureCode: null,
        processingStartedAt: new Date().toISOString(),
        stage: 'converting',
      }),
    );
    const report = statusWriter(transcriptions, transcriptionId, signal, {
      status: 'CONVERTING',
      progress: 0,
      stage: 'converting',
    });

    const [words, rules] = await timings.time('dictionary', async () => {
      const dictionary = record.dictionaryId ? await dictionaries.get(record.teamId, record.dictionaryId) : null;
      return dictionary
        ? Promise.all([
            dictionaries.words(dictionary.dictionaryId),
            dictionaries.replacementRules(dictionary.dictionaryId),
          ])
        : [[], []];
    });
    const engine = engines.speechFor(record.transcriptionModel);
    const audioPath = await storage.localPath(record.audioKey);
    await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
    const pcmPath = path.join(workDir, `${transcriptionId}.pcm`);
    try {
      const speakers = record.multichannel
        ? null
        : separationFor(engines, engine, record.transcriptionModel, {
            numSpeakers: record.numSpeakers,
            minSpeakers: record.minSpeakers,
            maxSpeakers: record.maxSpeakers,
          });
      const enrolled =
        speakers && record.recognizeSpeakers ? await timings.time('load', () => voices.enrolled(record.teamId)) : [];
      const {
        document,
        speakers: separatedBy,
        warnings,
      } = await pipeline.run(
        {
          id: transcriptionId,
          audioPath,
          sizeBytes: record.audioSize,
          pcmPath,
          recognizer: engine,
          recognizerSeparatesSpeakers: engine.capabilities.speakerSeparation,
          // No language given (an engine that detects languages, at upload): the rule as the ticket had it.
          language: record.languages[0] ?? defaultLanguage(engine),
          vocabulary: words.map((w) => ({ word: w.word, reading: w.reading })),
          speakers,
          rules,
          transcriptionModel: record.transcriptionModel,
          multichannel: record.multichannel,
          voices: enrolled,
        },
        // The length is known once decoded: clients show it (and estimate the time left) while it runs.
        {
          signal,
          timings,
          report,
          onDuration: (duration) => void transcriptions.update(transcriptionId, { duration }).catch(() => undefined),
        },
      );
      await report.settled();
      // Lost to another worker while running (a stale lease): that worker writes the result, not this one.
      await ensureOwned();
      const key = transcriptKey(transcriptionId);
      // Transcribed again: the result is the next revision, and the stored object stays revision 1's source.
      const revised = againBy !== null && (await service.commitTranscribedAgain(transcriptionId, document, againBy));
      if (!revised)
        await timings.time('document', () => storage.put(key, Readable.from([Buffer.from(JSON.stringify(document))])));
      await timings.time('finish', async () => {
        await ensureOwned();
        await service.end(transcriptionId, {
          status: 'COMPLETED',
          transcriptKey: key,
          duration: document.duration,
          speakingDuration: document.speaking_duration,
          engine: `${document.engine.name}/${document.engine.model}${separatedBy ? `+${separatedBy}` : ''}`,
          ...(record.languages.length === 0 && document.language !== UNDETERMINED_LANGUAGE
            ? { languages: [document.language] }
            : {}),
          progress: 1,
          stage: null,
          warnings,
        });
      });
      return true;
    } finally {
      await fsp.rm(pcmPath, { force: true });
      await storage.releaseLocalPath?.(audioPath);
    }
  }
}
