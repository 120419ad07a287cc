// The openai-transcribe job: POST /v1/audio/transcriptions and /v1/audio/translations as a job of the
// one pipeline, so the route shares the queue and its concurrency with transcriptions, and honours
// speakers and the caller's dictionary (its words as vocabulary, its forced replacements). Transient:
// the route waits for the result (the job's output) and deletes the audio; the job writes nothing else.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DictionaryRepository } from '../db/dictionary-repository.js';
import { EngineError } from '../domain/engine-error.js';
import { StageTimings } from '../domain/stage-timings.js';
import type { TranscriptionPipeline } from '../domain/transcription-pipeline.js';
import type { EngineRegistry } from '../engines/engine-registry.js';
import type { Storage } from '../storage/storage.js';
import type { JobDefinition } from './job-queue.js';

export interface OpenAiTranscribeJobDeps {
  dictionaries: DictionaryRepository;
  storage: Storage;
  engines: EngineRegistry;
  pipeline: TranscriptionPipeline;
  workDir: string;
}

export function openAiTranscribeJob(deps: OpenAiTranscribeJobDeps): JobDefinition<'openai-transcribe'> {
  const { dictionaries, storage, engines, pipeline, workDir } = deps;
  return {
    // Someone is waiting on the line: a failure is answered at once, the client decides whether to retry.
    maxAttempts: 1,
    group: 'speech',
    async handle(payload, { jobId, signal, logger }) {
      const engine = engines.speechEngines.get(payload.engine);
      if (!engine) throw new EngineError('unavailable', 'The speech engine for this model is no longer configured on the server.', { detail: `engine ${payload.engine}` });
      const dictionary = payload.dictionaryId ? await dictionaries.get(payload.teamId, payload.dictionaryId) : null;
      const [words, rules] = dictionary
        ? await Promise.all([dictionaries.words(dictionary.dictionaryId), dictionaries.blacklistWords(dictionary.dictionaryId)])
        : [[], []];
      const audioPath = await storage.localPath(payload.audioKey);
      await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
      const pcmPath = path.join(workDir, `openai-${jobId}.pcm`);
      const timings = new StageTimings();
      try {
        const { document } = await pipeline.run(
          {
            id: 'openai',
            audioPath,
            sizeBytes: (await storage.stat(payload.audioKey))?.size ?? null,
            pcmPath,
            recognizer: engine,
            recognizerSeparatesSpeakers: engine.capabilities.speakerSeparation,
            language: payload.language,
            task: payload.task,
            vocabulary: [...words.map((w) => ({ word: w.word, reading: w.reading })), ...payload.vocabulary],
            speakers: payload.speakers,
            rules,
            transcriptionModel: payload.model,
          },
          { signal, timings, report: () => undefined },
        );
        return document;
      } finally {
        logger.info({ outcome: signal.aborted ? 'aborted' : 'done', timings: timings.toJSON() }, 'openai transcription timings');
        await fsp.rm(pcmPath, { force: true });
        await storage.releaseLocalPath?.(audioPath);
      }
    },
  };
}
