// POST /v1/audio/transcriptions: OpenAI's speech-to-text operation, served by this server's own engines,
// so OpenAI clients and SDKs (and another kikitori-server's remote engine) can use it unchanged.
// Synchronous for the client: the multipart upload is streamed to storage, an openai-transcribe job runs
// it through the one transcription pipeline (the queue's concurrency, speakers, the caller's dictionary;
// decision 0028), and its transcript is the response. A bounded wait (admission.ts) answers 503 with
// Retry-After before the body is read. Same API keys as the rest of the API (Bearer or X-API-KEY).
// The same operation with task "translate" is POST /v1/audio/translations (create-translation.ts).
// Errors are AppErrors with the bad form field as `field`; the error handler renders them in OpenAI's
// error body under /v1/ (`param` = the field); engine failures reach it as EngineErrors, mapped in
// http/engine-errors.ts.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import multipart from '@fastify/multipart';
import ISO6391 from 'iso-639-1';
import type { AppContext } from '../../../app-context.js';
import type { SpeakerOptions } from '../../../domain/transcription-pipeline.js';
import { renderTranscript } from '../../../domain/transcript-formats.js';
import { EngineError } from '../../../domain/engine-error.js';
import { defaultLanguage } from '../../../domain/speech-language.js';
import { asksForSpeakers, assertSpeakerCounts, SPEAKER_FIELD, speakerOptions } from '../../../application/speaker-counts.js';
import type { SpeakerCountField, SpeakerCounts } from '../../../../src-shared/speaker-count.js';
import type { SpeechEngine, VocabularyWord } from '../../../engines/speech/speech-engine.js';
import { recognizesDetail, unsupportedLanguageError } from '../../../engines/speech/unsupported-language.js';
import { JobCancelledError } from '../../../jobs/job-queue.js';
import { ObjectTooLargeError } from '../../../storage/storage.js';
import { callerOf } from '../../auth.js';
import { requestLog } from '../../request-log.js';
import { AppError, errors } from '../../errors.js';
import { isLanguageCode, UNDETERMINED_LANGUAGE } from '../../../../src-shared/languages.js';
import { admissionOf } from './admission.js';
import { isDiskFull, quotaExceededBy, uploadAllowance } from '../../storage-guards.js';
import { openAiAudioPrefix } from '../../../jobs/openai-transcribe.js';
import { openAiErrorResponses } from '../../../../src-shared/api/openai.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
type ResponseFormat = (typeof RESPONSE_FORMATS)[number];
const GRANULARITIES = ['word', 'segment'] as const;
/** OpenAI model names that mean "this server's default engine". */
export const OPENAI_MODEL = /^(whisper-1|gpt-4o(-mini)?-transcribe(-.*)?|default)$/;
/** What the audio operations do: recognize speech as spoken, or into English text. */
export type AudioTask = 'transcribe' | 'translate';
const MAX_PROMPT_CHARS = 4000;

interface Fields {
  model: string;
  language: string | null;
  prompt: string;
  responseFormat: ResponseFormat;
  granularities: Set<string>;
  /** Kikitori's extensions: the caller's dictionary, and speaker separation. */
  dictionaryId: string | null;
  speakers: SpeakerOptions | null;
}

/** Kikitori's own form fields, beside OpenAI's (an OpenAI client sends them as extra body fields). */
const EXTENSION_FIELDS = ['dictionary_id', 'num_speakers', 'min_speakers', 'max_speakers'] as const;

function one(fields: Record<string, string[]>, name: string): string | undefined {
  const values = fields[name];
  if (values && values.length > 1) throw errors.validation(`Field "${name}" was sent ${values.length} times; send it once.`, name);
  return values?.[0];
}

/** The form fields each task takes, as OpenAI's API: translations have no language and no timestamp granularities. */
const FIELDS: Record<AudioTask, readonly string[]> = {
  transcribe: [...EXTENSION_FIELDS, 'model', 'language', 'prompt', 'response_format', 'temperature', 'timestamp_granularities[]', 'timestamp_granularities', 'stream', 'chunking_strategy'],
  translate: ['model', 'prompt', 'response_format', 'temperature', 'dictionary_id'],
};

function parseFields(raw: Record<string, string[]>, task: AudioTask): Fields {
  const known = FIELDS[task];
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    const listed = known.filter((k) => k !== 'timestamp_granularities' && k !== 'stream' && k !== 'chunking_strategy');
    throw errors.validation(`Unknown field "${unknown[0]}". Fields: file, ${listed.join(', ')}.`, unknown[0]);
  }
  const responseFormat = (one(raw, 'response_format')?.trim() || 'json') as ResponseFormat;
  if (!RESPONSE_FORMATS.includes(responseFormat)) {
    throw errors.validation(`response_format must be one of ${RESPONSE_FORMATS.join(', ')}; got "${responseFormat}".`, 'response_format');
  }
  const language = one(raw, 'language')?.trim().toLowerCase() || null;
  if (language !== null && !isLanguageCode(language)) {
    throw errors.validation(`language: "${language}" is not an ISO 639-1 code (for example "en" or "ja").`, 'language');
  }
  const granularities = new Set([...(raw['timestamp_granularities[]'] ?? []), ...(raw.timestamp_granularities ?? [])].flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean));
  for (const g of granularities) {
    if (!(GRANULARITIES as readonly string[]).includes(g)) {
      throw errors.validation(`timestamp_granularities[] must be "word" or "segment"; got "${g}".`, 'timestamp_granularities[]');
    }
  }
  const prompt = one(raw, 'prompt') ?? '';
  if (prompt.length > MAX_PROMPT_CHARS) throw errors.validation(`prompt is longer than ${MAX_PROMPT_CHARS} characters.`, 'prompt');
  const temperature = one(raw, 'temperature');
  if (temperature !== undefined && !(Number(temperature) >= 0 && Number(temperature) <= 1)) {
    throw errors.validation('temperature must be a number from 0 to 1.', 'temperature');
  }
  if (one(raw, 'stream') === 'true') throw errors.unsupportedOption('stream=true is not supported; omit it to get the whole transcript in one response.', 'stream');
  // The one speaker-count rule (LIMITS' bounds, min <= num <= max), as the spec's upload has it.
  const speakers: SpeakerCounts = { numSpeakers: null, minSpeakers: null, maxSpeakers: null };
  const sent: Partial<Record<SpeakerCountField, string>> = {};
  for (const [name, field] of Object.entries(SPEAKER_FIELD) as [SpeakerCountField, string][]) {
    const value = one(raw, field)?.trim();
    if (value === undefined || value === '') continue;
    speakers[name] = Number(value);
    sent[name] = `"${value}"`;
  }
  assertSpeakerCounts(speakers, sent);
  return {
    model: one(raw, 'model')?.trim() || 'whisper-1',
    language,
    prompt,
    responseFormat,
    granularities,
    dictionaryId: one(raw, 'dictionary_id')?.trim() || null,
    speakers: asksForSpeakers(speakers) ? speakerOptions(speakers) : null,
  };
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
    const translators = [...ctx.engines.speechEngines.values()].filter((e) => e.capabilities.translatesToEnglish === true).map((e) => `"${e.name}"`);
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

function languageName(code: string): string {
  return ISO6391.getName(code).toLowerCase() || code;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export const createTranscription: RouteModule = (app, ctx) =>
  registerAudioOperation(app, ctx, {
    url: '/v1/audio/transcriptions',
    task: 'transcribe',
    summary: 'Transcribe an audio file (OpenAI-compatible, synchronous)',
    description:
      'multipart/form-data as OpenAI\'s API: file (required), model ("whisper-1" = the default engine; or "diarization-high", ' +
      '"pocketsphinx", "whisper", "remote"; GET /v1/models lists those usable), language (ISO 639-1; omitted = detected where the engine can, else its first language), ' +
      'prompt (terms to favour), response_format (json, text, srt, vtt, verbose_json), timestamp_granularities[] (word, segment; ' +
      'for verbose_json). Uses the same API keys, as "Authorization: Bearer <key>". Words in verbose_json carry a ' +
      '`probability` when the engine gives one. Errors use OpenAI\'s error body.',
  });

/** One audio operation of OpenAI's API (transcriptions or translations): the same form, upload, engines and answers. */
export function registerAudioOperation(
  app: ApiApp,
  ctx: AppContext,
  operation: { url: string; task: AudioTask; summary: string; description: string },
): void {
  const { task } = operation;
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: ctx.config.uploads.maxBytes, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40 },
    });
    scope.post(
      operation.url,
      {
        schema: {
          summary: operation.summary,
          description: operation.description,
          tags: ['openai'],
          consumes: ['multipart/form-data'],
          response: openAiErrorResponses(400, 401, 404, 413, 429, 503),
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw errors.unsupportedMediaType(`Send the audio as multipart/form-data with a "file" field, as for OpenAI's ${operation.url}.`);
        }
        // Bounded wait: beyond the job slots and KIKITORI_OPENAI_MAX_WAITING, answer 503 before reading the body.
        const admission = admissionOf(ctx);
        if (!admission.tryEnter()) {
          reply.header('retry-after', String(admission.retryAfterSeconds())).header('connection', 'close');
          throw errors.serverBusy(admission.retryAfterSeconds());
        }
        const startedAt = Date.now();
        const limit = ctx.config.uploads.maxBytes;
        const id = randomUUID();
        const prefix = openAiAudioPrefix(id);
        const singletonKey = `openai:${id}`;
        const controller = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
        };
        reply.raw.on('close', onClose);
        let ended = true;
        try {
          const caller = callerOf(request);
          // The team's quota and the disk's reserve, before the body is read: the Content-Length (the whole
          // form, a little more than the file) must fit; without one, what is left bounds the stream.
          // (Node's parser has refused a length that is not a number; one past 2^53 is simply too large.)
          const declared = Number(request.headers['content-length'] ?? NaN);
          const declaredBytes = Number.isNaN(declared) ? null : Math.min(declared, Number.MAX_SAFE_INTEGER);
          const allowance = await uploadAllowance(ctx, { teamId: caller.teamId }, declaredBytes).catch((error: unknown) => {
            reply.header('connection', 'close');
            throw error;
          });
          // 1. The upload, streamed to storage (where any worker can read it).
          const raw: Record<string, string[]> = {};
          let upload: string | null = null;
          try {
            for await (const part of request.parts()) {
              if (part.type === 'file') {
                if (part.fieldname !== 'file' || upload) {
                  part.file.resume();
                  continue;
                }
                const key = `${prefix}/upload${extensionOf(part.filename)}`;
                await ctx.storage.put(key, part.file, { maxBytes: allowance.maxBytes });
                if (part.file.truncated) {
                  reply.header('connection', 'close');
                  throw errors.payloadTooLarge(limit);
                }
                upload = key;
              } else {
                (raw[part.fieldname] ??= []).push(String(part.value));
              }
            }
          } catch (error) {
            const code = (error as { code?: string }).code;
            if (error instanceof ObjectTooLargeError && allowance.quotaBound) {
              reply.header('connection', 'close');
              throw quotaExceededBy(allowance.quotaBytes!, await ctx.storageUsage.audioBytes(caller.teamId), null);
            }
            if (code === 'FST_REQ_FILE_TOO_LARGE' || error instanceof ObjectTooLargeError) {
              reply.header('connection', 'close');
              throw errors.payloadTooLarge(limit);
            }
            if (isDiskFull(error)) {
              reply.header('connection', 'close');
              throw errors.insufficientStorage("The server ran out of disk space while storing this file. Try again later, or ask the server's administrator to free some space.");
            }
            if (typeof code === 'string' && code.startsWith('FST_')) throw errors.validation(`The multipart body is not usable: ${(error as Error).message}.`);
            // The form parser's own complaints (no boundary, a malformed part, a body cut short) are plain
            // Errors without a code: the client's body, not the server (found by `npm run drill`: they were 500s).
            if (code === undefined && error instanceof Error && !(error instanceof AppError) && /^(Multipart|Unexpected end|Malformed)/.test(error.message)) {
              throw errors.validation(`The multipart body is not usable: ${error.message}. Send multipart/form-data with a boundary and a "file" field.`);
            }
            throw error;
          }
          if (!upload) throw errors.validation('Missing the "file" field: send the audio file as the multipart field "file".', 'file');
          if ((await ctx.storage.stat(upload))?.size === 0) throw errors.validation('The uploaded file is empty.', 'file');

          // 2. Which engine, which language, which dictionary, whether speakers.
          const fields = parseFields(raw, task);
          const engine = engineFor(ctx, fields.model, task);
          const supported = engine.capabilities.languages;
          if (fields.language !== null && !supported.includes(fields.language)) {
            throw unsupportedLanguageError([fields.language], recognizesDetail(engine.name, supported, [fields.language]));
          }
          const language = fields.language ?? defaultLanguage(engine);
          if (fields.dictionaryId !== null && !(await ctx.dictionaries.get(caller.teamId, fields.dictionaryId))) {
            throw errors.dictionaryNotFound(fields.dictionaryId, 'dictionary_id');
          }
          // Asked by a speaker field, or by the transcription model that means speakers (where the server separates any).
          const separates = engine.capabilities.speakerSeparation || ctx.engines.speakers !== null;
          if (fields.speakers !== null && !separates) {
            throw errors.unsupportedOption('Speaker labels were asked for, but this server separates no speakers (KIKITORI_SPEAKER_ENGINE=none). Leave out the speaker fields.', 'num_speakers');
          }
          const speakers = fields.speakers ?? (fields.model === 'diarization-high' && separates ? {} : null);

          // 3. The one pipeline, as a job of the shared queue (its concurrency, its cancel).
          const jobId = await ctx.queue.send(
            'openai-transcribe',
            {
              audioKey: upload,
              engine: engine.name,
              language,
              task,
              model: fields.model,
              vocabulary: promptVocabulary(fields.prompt),
              teamId: caller.teamId,
              dictionaryId: fields.dictionaryId,
              speakers,
            },
            { singletonKey, maxAttempts: 1 },
          );
          ended = false;
          const document = await ctx.queue.wait('openai-transcribe', jobId!, { signal: controller.signal, take: true }).catch((error: unknown) => {
            if (error instanceof JobCancelledError) throw new EngineError('transient', 'The transcription was cancelled on the server before it finished. Send the request again.');
            throw error;
          });
          ended = true;
          admission.observe((Date.now() - startedAt) / 1000);

          // 4. The answer, in the requested shape (a translation's document is in English already).
          const { duration, segments, text } = document;
          // OpenAI's language is never unknown: nothing heard to detect it from reads as English, as before.
          const spokenLanguage = document.language === UNDETERMINED_LANGUAGE ? 'en' : document.language;
          const result = { model: document.engine.model };
          switch (fields.responseFormat) {
            case 'json':
              return { text };
            case 'text':
              return reply.type('text/plain; charset=utf-8').send(`${text}\n`);
            case 'srt':
            case 'vtt':
              return reply.type('text/plain; charset=utf-8').send(renderTranscript(document, fields.responseFormat));
            case 'verbose_json': {
              const wantWords = fields.granularities.has('word');
              const wantSegments = fields.granularities.size === 0 || fields.granularities.has('segment');
              return {
                task,
                language: languageName(spokenLanguage),
                duration: round(duration),
                text,
                ...(wantSegments && {
                  segments: segments.map((s) => {
                    const confident = s.words.filter((w) => w.confidence !== null && w.confidence > 0);
                    return {
                      id: s.id,
                      seek: Math.floor(s.start * 100),
                      start: s.start,
                      end: s.end,
                      text: s.text,
                      tokens: [] as number[],
                      temperature: 0,
                      avg_logprob: round(confident.reduce((sum, w) => sum + Math.log(w.confidence!), 0) / (confident.length || 1)),
                      compression_ratio: round(s.text ? Buffer.byteLength(s.text) / deflateSync(s.text).length : 0),
                      no_speech_prob: 0,
                      ...(s.speaker !== null && { speaker: s.speaker }),
                    };
                  }),
                }),
                ...(wantWords && {
                  words: segments.flatMap((s) =>
                    s.words.map((w) => ({ word: w.word, start: w.start, end: w.end, ...(w.confidence !== null && { probability: w.confidence }) })),
                  ),
                }),
                engine: { name: engine.name, model: result.model, ...(document.engine.speakers && { speakers: document.engine.speakers }) },
                ...(document.replacements.length > 0 && { replacements: document.replacements }),
              };
            }
          }
        } finally {
          reply.raw.off('close', onClose);
          admission.leave();
          // The client went away (or the wait failed) while the job ran: stop it, wherever it runs. A cancel
          // that fails (the queue already stopped, on a shutdown) must not hide the answer being sent.
          if (!ended) {
            await ctx.queue.cancel(singletonKey).catch((error: unknown) => requestLog(request).warn({ err: error }, 'could not cancel the job of an OpenAI request'));
          }
          await ctx.storage.delete(prefix);
        }
      },
    );
  });
}
