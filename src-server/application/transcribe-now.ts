// Transcribe now: OpenAI's synchronous audio operations (/v1/audio/transcriptions and /translations) as one
// use case. The upload is streamed to storage under `openai/<request id>/` (where any worker can read it),
// an openai-transcribe job runs it through the one pipeline (the queue's concurrency, speakers, the
// caller's dictionary; decision 0028), and the request waits for the job's document. Transient (decision
// 0044): the team's quota and the disk's reserve are checked before the body, the job runs once, and the
// upload goes when the request ends, however it ends. The route parses OpenAI's form and renders its shapes.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { AppContext } from '../app-context.js';
import type { Caller } from '../domain/records.js';
import { EngineError } from '../domain/engine-error.js';
import { defaultLanguage } from '../domain/speech-language.js';
import { separationFor } from '../engines/engine-registry.js';
import type { SpeechEngine, VocabularyWord } from '../engines/speech/speech-engine.js';
import { recognizesDetail, unsupportedLanguageError } from '../engines/speech/unsupported-language.js';
import { JobCancelledError } from '../jobs/job-queue.js';
import { openAiAudioPrefix } from '../jobs/openai-transcribe.js';
import { ObjectTooLargeError } from '../storage/storage.js';
import { errors } from './errors.js';
import {
  diskFullWhileStoring,
  isDiskFull,
  quotaExceededBy,
  uploadAllowance,
  type UploadAllowance,
} from './storage-guards.js';
import { libraryKey, libraryVoicesNamed, type KnownSpeaker } from './known-speakers.js';
import { asksForSpeakers, assertSpeakerCounts } from './speaker-counts.js';

/** OpenAI model names that mean "this server's default engine". */
export const OPENAI_MODEL = /^(whisper-1|gpt-4o(-mini)?-transcribe(-.*)?|default)$/;
/** What the audio operations do: recognize speech as spoken, or into English text. */
export type AudioTask = 'transcribe' | 'translate';

/** What the caller asked for, parsed from the form (language a valid code, speakers as sent). */
export interface TranscribeNowRequest {
  task: AudioTask;
  /** An OpenAI model name, "diarization-high", or an engine name. */
  model: string;
  language: string | null;
  /** Terms to favour, as OpenAI's prompt. */
  prompt: string;
  dictionaryId: string | null;
  /** Null: none of the speaker fields was sent. */
  speakers: SpeakerCounts | null;
  /** The answer shows speakers (response_format diarized_json): separate them even without a count. */
  diarize: boolean;
  /**
   * `known_speaker_names[]` with their `known_speaker_references[]` clips, as checked: a name is matched against
   * the team's voice library (decision 0065), else by its clip's print (decision 0092).
   */
  knownSpeakers?: KnownSpeaker[];
}

export interface TranscribeNowResult {
  document: TranscriptDocument;
  /** The speech engine that ran. */
  engine: string;
}

/** The prompt as dictionary words: comma/line separated terms, or the words of a sentence. */
export function promptVocabulary(prompt: string): VocabularyWord[] {
  const terms = prompt
    .split(/[,;\n、]+/)
    .map((t) => t.trim().replace(/[.!?。]+$/, ''))
    .filter(Boolean)
    .flatMap((t) => (t.split(/\s+/).length <= 3 ? [t] : t.split(/\s+/)));
  return [...new Set(terms)].slice(0, 200).map((word) => ({ word }));
}

function extensionOf(filename: string): string {
  const ext = path.extname(filename).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
}

/** "whisper-1" (and OpenAI's other model names) -> the default engine; a transcription model or engine name -> that. */
function engineFor(ctx: AppContext, model: string, task: AudioTask): SpeechEngine {
  const engine = OPENAI_MODEL.test(model)
    ? ctx.engines.speechFor('default')
    : model === 'diarization-high'
      ? ctx.engines.speechFor(model)
      : ctx.engines.speechEngines.get(model);
  if (!engine) {
    throw errors.validation(
      `model "${model}" is not available. Use "whisper-1" (this server's default engine, ${ctx.engines.speechFor('default').name}), ` +
        `"diarization-high", or an engine name: ${[...ctx.engines.speechEngines.keys()].join(', ')}. GET /v1/models lists them.`,
      'model',
    );
  }
  if (task === 'translate' && engine.capabilities.translatesToEnglish !== true) {
    const translators = [...ctx.engines.speechEngines.values()]
      .filter((e) => e.capabilities.translatesToEnglish === true)
      .map((e) => `"${e.name}"`);
    throw errors.unsupportedOption(
      `model "${model}" is served by the speech engine "${engine.name}", which cannot translate speech into English. ` +
        (translators.length > 0
          ? `Send model ${translators.join(' or ')}, or have the administrator set KIKITORI_ENGINE_DEFAULT to it ` +
            '(whisper needs a multilingual model: `kikitori-server models download base`).'
          : 'No speech engine configured on this server can; an administrator can install a multilingual whisper model ' +
            '(`kikitori-server models download base`) and set KIKITORI_ENGINE_DEFAULT=whisper.'),
      'model',
    );
  }
  return engine;
}

/**
 * One request: begin (quota and disk, before the body), storeUpload (the file part, as it arrives),
 * checkUpload, run (the job, waited for), end (always: the job stopped if still running, the upload removed).
 */
export class TranscribeNow {
  private readonly prefix: string;
  private readonly singletonKey: string;
  private upload: string | null = null;
  private checked = false;
  private running = false;

  private constructor(
    private readonly ctx: AppContext,
    private readonly caller: Caller,
    private readonly allowance: UploadAllowance,
  ) {
    const id = randomUUID();
    this.prefix = openAiAudioPrefix(id);
    this.singletonKey = `openai:${id}`;
  }

  /**
   * The team's quota and the disk's reserve, before the body is read: `declaredBytes` (the whole form, a
   * little more than the file) must fit; without it, what is left bounds the stream.
   */
  static async begin(ctx: AppContext, caller: Caller, declaredBytes: number | null): Promise<TranscribeNow> {
    return new TranscribeNow(ctx, caller, await uploadAllowance(ctx, { teamId: caller.teamId }, declaredBytes));
  }

  /** Whether the file has been stored (the form sends one file; later ones are not read). */
  get hasUpload(): boolean {
    return this.upload !== null;
  }

  /**
   * Streams the file to storage. Throws an AppError only when the body is refused (quota, size, disk), so
   * the caller can close the connection; anything else (the stream's own errors) is rethrown as it came.
   */
  async storeUpload(filename: string, file: Readable & { truncated?: boolean }): Promise<void> {
    const key = `${this.prefix}/upload${extensionOf(filename)}`;
    try {
      await this.ctx.storage.put(key, file, { maxBytes: this.allowance.maxBytes });
    } catch (error) {
      if (error instanceof ObjectTooLargeError && this.allowance.quotaBound) {
        throw quotaExceededBy(
          this.allowance.quotaBytes!,
          await this.ctx.storageUsage.audioBytes(this.caller.teamId),
          null,
        );
      }
      if (error instanceof ObjectTooLargeError) throw errors.payloadTooLarge(this.ctx.config.uploads.maxBytes);
      if (isDiskFull(error)) throw diskFullWhileStoring();
      throw error;
    }
    if (file.truncated === true) throw errors.payloadTooLarge(this.ctx.config.uploads.maxBytes);
    this.upload = key;
  }

  /** A file was sent, and it is not empty. */
  async checkUpload(): Promise<void> {
    if (!this.upload)
      throw errors.validation('Missing the "file" field: send the audio file as the multipart field "file".', 'file');
    if ((await this.ctx.storage.stat(this.upload))?.size === 0)
      throw errors.validation('The uploaded file is empty.', 'file');
    this.checked = true;
  }

  /** Which engine, language, dictionary and speakers; then the job, waited for until it ends or `signal` aborts. */
  async run(request: TranscribeNowRequest, signal: AbortSignal): Promise<TranscribeNowResult> {
    const { ctx, caller } = this;
    if (!this.checked) await this.checkUpload();
    if (request.speakers !== null) assertSpeakerCounts(request.speakers);
    const engine = engineFor(ctx, request.model, request.task);
    const supported = engine.capabilities.languages;
    if (request.language !== null && !supported.includes(request.language)) {
      throw unsupportedLanguageError([request.language], recognizesDetail(engine.name, supported, [request.language]));
    }
    const language = request.language ?? defaultLanguage(engine);
    if (request.dictionaryId !== null && !(await ctx.dictionaries.get(caller.teamId, request.dictionaryId))) {
      throw errors.dictionaryNotFound(request.dictionaryId, 'dictionary_id');
    }
    // Separated when asked by a speaker field, by the answer's shape (diarized_json), or by the transcription
    // model that means speakers (where the server separates any); OpenAI's other shapes show no speakers, so
    // the default model skips the work there (decision 0057).
    const model = request.model === 'diarization-high' ? 'diarization-high' : 'default';
    const separation = separationFor(ctx.engines, engine, model, request.speakers);
    const asked = request.speakers !== null && asksForSpeakers(request.speakers);
    if ((asked || request.diarize) && !separation) {
      throw errors.unsupportedOption(
        request.diarize
          ? 'response_format diarized_json needs speaker separation, which this server does not do (KIKITORI_SPEAKER_ENGINE=none). Ask for verbose_json or json.'
          : 'Speaker labels were asked for, but this server separates no speakers (KIKITORI_SPEAKER_ENGINE=none). Leave out the speaker fields.',
        request.diarize ? 'response_format' : 'num_speakers',
      );
    }
    const speakers = asked || request.diarize || model === 'diarization-high' ? separation : null;
    const known = request.knownSpeakers ?? [];
    // The clips go beside the upload, so that they go with it however the request ends (0044). Only those the
    // job prints: a name of a library voice is recognized by the library's prints, so its clip is not kept.
    const library = new Set(
      speakers && known.length > 0
        ? libraryVoicesNamed(
            await ctx.voices.enrolled(caller.teamId),
            known.map((k) => k.name),
          ).map((v) => libraryKey(v.name))
        : [],
    );
    const references: (string | null)[] = [];
    if (speakers)
      for (const [i, { name, audio }] of known.entries()) {
        if (library.has(libraryKey(name))) {
          references.push(null);
          continue;
        }
        const referenceKey = `${this.prefix}/reference-${i + 1}`;
        await ctx.storage.put(referenceKey, Readable.from([audio])).catch((error: unknown) => {
          throw isDiskFull(error) ? diskFullWhileStoring() : error;
        });
        references.push(referenceKey);
      }

    const jobId = await ctx.queue.send(
      'openai-transcribe',
      {
        audioKey: this.upload!,
        engine: engine.name,
        language,
        task: request.task,
        model: request.model,
        vocabulary: promptVocabulary(request.prompt),
        teamId: caller.teamId,
        dictionaryId: request.dictionaryId,
        speakers,
        ...(known.length > 0 ? { knownSpeakerNames: known.map((k) => k.name) } : {}),
        ...(references.length > 0 ? { knownSpeakerReferences: references } : {}),
      },
      { singletonKey: this.singletonKey, maxAttempts: 1 },
    );
    this.running = true;
    const document = await ctx.queue
      .wait('openai-transcribe', jobId!, { signal, take: true })
      .catch((error: unknown) => {
        if (error instanceof JobCancelledError)
          throw new EngineError(
            'transient',
            'The transcription was cancelled on the server before it finished. Send the request again.',
          );
        throw error;
      });
    this.running = false;
    return { document, engine: engine.name };
  }

  /**
   * The request is over: a job still running (the client went away, or the wait failed) is stopped wherever
   * it runs, and the upload removed. A cancel that fails (the queue already stopped, on a shutdown) is
   * reported to `onCancelFailed` and must not hide the answer being sent.
   */
  async end(onCancelFailed: (error: unknown) => void): Promise<void> {
    if (this.running) await this.ctx.queue.cancel(this.singletonKey).catch(onCancelFailed);
    await this.ctx.storage.delete(this.prefix);
  }
}
