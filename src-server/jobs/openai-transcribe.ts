// The openai-transcribe job: POST /v1/audio/transcriptions and /v1/audio/translations as a job of the
// one pipeline, so the route shares the queue and its concurrency with transcriptions, and honours
// speakers and the caller's dictionary (its words as vocabulary, its forced replacements). Transient
// (decision 0044): the route waits for the result (the job's output, taken from the store as it is
// read); the job runs once, and whatever way it ends, its audio and work file go with it. An attempt
// cut short (a crash, a shutdown) is not run again: the request that waited for it is gone, or is told
// to send it again. What a crash leaves anyway is swept when a process starts (sweepOpenAiLeftovers).
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DictionaryRepository } from '../db/dictionary-repository.js';
import type { VoiceRepository } from '../db/voice-repository.js';
import type { EnrolledVoice, VoicePrinter } from '../domain/voice-prints.js';
import { libraryKey, libraryVoicesNamed, REFERENCES_FIELD } from '../application/known-speakers.js';
import { EngineError } from '../domain/engine-error.js';
import { StageTimings } from '../domain/stage-timings.js';
import type { TranscriptionPipeline } from '../domain/transcription-pipeline.js';
import type { EngineRegistry } from '../engines/engine-registry.js';
import type { Storage } from '../storage/storage.js';
import type { JobDefinition, JobQueue } from './job-queue.js';

/** Where the OpenAI route keeps its uploads, one folder per request. */
const AUDIO_ROOT = 'openai';

/** The storage folder of a request's upload. */
export function openAiAudioPrefix(requestId: string): string {
  return `${AUDIO_ROOT}/${requestId}`;
}

/**
 * How long an upload may sit in storage before its job is sent: the object appears once the file part
 * is complete, and the job goes out as soon as the form's last fields (a few kB) have arrived.
 */
export const UNQUEUED_UPLOAD_GRACE_MS = 10 * 60_000;

const pcmName = (jobId: string) => `openai-${jobId}.pcm`;

/** Removes a job's upload folder and its decoded PCM; both are useless once its one attempt has ended. */
async function removeLeftovers(storage: Storage, workDir: string, jobId: string, audioKey: string): Promise<void> {
  await fsp.rm(path.join(workDir, pcmName(jobId)), { force: true });
  if (audioKey.startsWith(`${AUDIO_ROOT}/`)) await storage.delete(path.posix.dirname(audioKey));
}

export interface OpenAiSweepDeps {
  storage: Storage;
  queue: JobQueue;
  workDir: string;
  logger: Logger;
}

/**
 * At start: the uploads and PCM files of OpenAI requests that no unfinished job holds (a process was
 * killed while it answered one) are removed. An upload written within UNQUEUED_UPLOAD_GRACE_MS is kept:
 * its request may still be running in another API process, its job not sent yet. The files are listed
 * before the jobs are read, so a job sent or started in between is among those read.
 */
export async function sweepOpenAiLeftovers(
  deps: OpenAiSweepDeps,
  now = Date.now(),
): Promise<{ uploads: number; workFiles: number }> {
  const { storage, queue, workDir, logger } = deps;
  const objects = await storage.list(AUDIO_ROOT);
  const workFiles = (await fsp.readdir(workDir).catch(() => [] as string[])).filter((name) =>
    /^openai-.*\.pcm$/.test(name),
  );
  const live = await queue.unfinished('openai-transcribe');
  const liveFolders = new Set(live.map((job) => path.posix.dirname(job.payload.audioKey)));
  const liveFiles = new Set(live.map((job) => pcmName(job.jobId)));
  // One folder per request: its newest object says when the request last wrote.
  const folders = new Map<string, number>();
  for (const { key, modifiedAt } of objects) {
    const folder = openAiAudioPrefix(key.split('/')[0]!);
    folders.set(folder, Math.max(folders.get(folder) ?? 0, modifiedAt.getTime()));
  }
  let uploads = 0;
  for (const [folder, written] of folders) {
    if (liveFolders.has(folder) || now - written < UNQUEUED_UPLOAD_GRACE_MS) continue;
    await storage.delete(folder);
    uploads++;
  }
  const stale = workFiles.filter((name) => !liveFiles.has(name));
  for (const name of stale) await fsp.rm(path.join(workDir, name), { force: true });
  if (uploads + stale.length > 0)
    logger.info({ uploads, workFiles: stale.length }, 'removed what interrupted OpenAI requests left behind');
  return { uploads, workFiles: stale.length };
}

export interface OpenAiTranscribeJobDeps {
  dictionaries: DictionaryRepository;
  /** The team voice library, for known_speaker_names[] (decision 0065). */
  voices: VoiceRepository;
  /** Prints known_speaker_references[] clips (decision 0092). */
  voicePrints: VoicePrinter;
  storage: Storage;
  engines: EngineRegistry;
  pipeline: TranscriptionPipeline;
  workDir: string;
}

export function openAiTranscribeJob(deps: OpenAiTranscribeJobDeps): JobDefinition<'openai-transcribe'> {
  const { dictionaries, voices, voicePrints, storage, engines, pipeline, workDir } = deps;
  return {
    // Someone is waiting on the line: a failure is answered at once, the client decides whether to retry.
    maxAttempts: 1,
    // An attempt cut short is not run again: the client that waited may be gone (decision 0044).
    runsOnce: true,
    group: 'speech',
    // Ended without running (taken over after a crash, or stopped by a shutdown): nobody needs its files.
    async onFailed(payload, _error, { jobId }) {
      await removeLeftovers(storage, workDir, jobId, payload.audioKey);
    },
    async handle(payload, { jobId, signal, logger }) {
      const engine = engines.speechEngines.get(payload.engine);
      if (!engine)
        throw new EngineError(
          'unavailable',
          'The speech engine for this model is no longer configured on the server.',
          { detail: `engine ${payload.engine}` },
        );
      const dictionary = payload.dictionaryId ? await dictionaries.get(payload.teamId, payload.dictionaryId) : null;
      const [words, rules] = dictionary
        ? await Promise.all([
            dictionaries.words(dictionary.dictionaryId),
            dictionaries.replacementRules(dictionary.dictionaryId),
          ])
        : [[], []];
      const known = payload.speakers
        ? await knownVoices(
            { voices, voicePrints, storage, workDir },
            payload.teamId,
            payload.knownSpeakerNames ?? [],
            payload.knownSpeakerReferences ?? [],
            signal,
          )
        : [];
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
            voices: known,
          },
          { signal, timings, report: () => undefined },
        );
        return document;
      } finally {
        logger.info(
          { outcome: signal.aborted ? 'aborted' : 'done', timings: timings.toJSON() },
          'openai transcription timings',
        );
        await storage.releaseLocalPath?.(audioPath);
        // The route deletes the upload too once answered; this covers a route whose process died meanwhile.
        await removeLeftovers(storage, workDir, jobId, payload.audioKey);
      }
    },
  };
}

/**
 * The voices known_speaker_names[] asks for: a name that is an enrolled voice of the team (compared without
 * case or surrounding space) is that voice, under the caller's spelling; any other name is its reference clip's
 * print, judged with the settings calibrated for clips (decision 0092). A clip with too little speech to print
 * is left out (that name labels nobody); one that cannot be decoded is the caller's error.
 */
async function knownVoices(
  deps: { voices: VoiceRepository; voicePrints: VoicePrinter; storage: Storage; workDir: string },
  teamId: string,
  names: readonly string[],
  references: readonly (string | null)[],
  signal: AbortSignal,
): Promise<EnrolledVoice[]> {
  if (names.length === 0) return [];
  const library = libraryVoicesNamed(await deps.voices.enrolled(teamId), names);
  const enrolled = new Set(library.map((v) => libraryKey(v.name)));
  const fromClips: EnrolledVoice[] = [];
  for (const [i, name] of names.entries()) {
    const referenceKey = references[i];
    // No clip stored: the name was a library voice when the request came (one deleted since labels nobody).
    if (referenceKey === undefined || referenceKey === null || enrolled.has(libraryKey(name))) continue;
    const clip = await deps.storage.localPath(referenceKey);
    try {
      const [printed] = await deps.voicePrints
        .printParts(clip, [{ start: 0, end: REFERENCE_PRINT_SECONDS }], deps.workDir, signal)
        .catch((error: unknown) => {
          if (error instanceof EngineError && error.kind === 'bad-input')
            throw new EngineError(
              'bad-input',
              `${REFERENCES_FIELD}: reference ${i + 1} (for "${name.trim()}") could not be read as audio. Send a WAV, MP3 or other audio clip of 2 to 10 seconds of that person speaking.`,
              { field: REFERENCES_FIELD, ...(error.detail === undefined ? {} : { detail: error.detail }) },
            );
          throw error;
        });
      if (printed && printed.speechSeconds >= MIN_REFERENCE_SPEECH_SECONDS)
        fromClips.push({
          speakerId: `reference-${i + 1}`,
          name: name.trim(),
          prints: [printed.print],
          fromReference: true,
        });
    } finally {
      await deps.storage.releaseLocalPath?.(clip);
    }
  }
  return [...library, ...fromClips];
}

/** OpenAI asks for 2-10 s clips; a longer one is printed from its start. */
const REFERENCE_PRINT_SECONDS = 10;
/** Less speech than this in a clip says too little about a voice (the separated speakers' own minimum, 0065). */
const MIN_REFERENCE_SPEECH_SECONDS = 2;
