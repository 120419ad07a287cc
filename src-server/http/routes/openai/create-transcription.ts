// POST /v1/audio/transcriptions: OpenAI's speech-to-text operation, served by this server's own engines,
// so OpenAI clients and SDKs (and another kikitori-server's remote engine) can use it unchanged. The
// adapter of the "transcribe now" use case (application/transcribe-now.ts): this file reads OpenAI's
// multipart form, keeps the bounded wait (admission.ts: 503 with Retry-After before the body is read),
// and renders OpenAI's shapes. Same API keys as the rest of the API (Bearer or X-API-KEY).
// The same operation with task "translate" is POST /v1/audio/translations (create-translation.ts).
// Errors are AppErrors with the bad form field as `field`; the error handler renders them in OpenAI's
// error body under /v1/ (`param` = the field); engine failures reach it as EngineErrors, mapped in
// application/engine-errors.ts.
import { deflateSync } from 'node:zlib';
import multipart from '@fastify/multipart';
import ISO6391 from 'iso-639-1';
import type { AppContext } from '../../../app-context.js';
import { renderTranscript } from '../../../domain/transcript-formats.js';
import { SPEAKER_FIELD } from '../../../application/speaker-counts.js';
import { TranscribeNow, type AudioTask, type TranscribeNowRequest } from '../../../application/transcribe-now.js';
import type { SpeakerCountField, SpeakerCounts } from '../../../../src-shared/speaker-count.js';
import { callerOf } from '../../auth.js';
import { requestLog } from '../../request-log.js';
import { AppError, errors } from '../../../application/errors.js';
import { isLanguageCode, UNDETERMINED_LANGUAGE } from '../../../../src-shared/languages.js';
import { admissionOf } from './admission.js';
import {
  knownSpeakers,
  MAX_KNOWN_SPEAKERS,
  MAX_REFERENCE_BYTES,
  MAX_REFERENCE_CHARS,
  NAMES_FIELD,
  REFERENCES_FIELD,
  type KnownSpeaker,
} from '../../../application/known-speakers.js';
import { openAiErrorResponses } from '../../../../src-shared/api/openai.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
type ResponseFormat = (typeof RESPONSE_FORMATS)[number];
/** OpenAI's formats of each task: a translation has no speakers. */
const TASK_FORMATS: Record<AudioTask, readonly ResponseFormat[]> = {
  transcribe: RESPONSE_FORMATS,
  translate: RESPONSE_FORMATS.filter((f) => f !== 'diarized_json'),
};
const GRANULARITIES = ['word', 'segment'] as const;
const MAX_PROMPT_CHARS = 4000;
/** Any form field but a speaker reference. */
const MAX_FIELD_CHARS = 64 * 1024;
/** All the form's fields together. */
const MAX_FORM_FIELD_CHARS = MAX_KNOWN_SPEAKERS * MAX_REFERENCE_CHARS + 4 * MAX_FIELD_CHARS;

/** The use case's request, and how to answer. */
interface Fields extends TranscribeNowRequest {
  responseFormat: ResponseFormat;
  granularities: Set<string>;
  knownSpeakers: KnownSpeaker[];
}

/** Kikitori's own form fields, beside OpenAI's (an OpenAI client sends them as extra body fields). */
const EXTENSION_FIELDS = ['dictionary_id', 'num_speakers', 'min_speakers', 'max_speakers'] as const;

function one(fields: Record<string, string[]>, name: string): string | undefined {
  const values = fields[name];
  if (values && values.length > 1)
    throw errors.validation(`Field "${name}" was sent ${values.length} times; send it once.`, name);
  return values?.[0];
}

/** The form fields each task takes, as OpenAI's API: translations have no language and no timestamp granularities. */
const FIELDS: Record<AudioTask, readonly string[]> = {
  transcribe: [
    ...EXTENSION_FIELDS,
    'model',
    'language',
    'prompt',
    'response_format',
    'temperature',
    'timestamp_granularities[]',
    'timestamp_granularities',
    'stream',
    'chunking_strategy',
    NAMES_FIELD,
    REFERENCES_FIELD,
  ],
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
  if (!TASK_FORMATS[task].includes(responseFormat)) {
    throw errors.validation(
      `response_format must be one of ${TASK_FORMATS[task].join(', ')}; got "${responseFormat}".`,
      'response_format',
    );
  }
  const diarize = responseFormat === 'diarized_json';
  const language = one(raw, 'language')?.trim().toLowerCase() || null;
  if (language !== null && !isLanguageCode(language)) {
    throw errors.validation(`language: "${language}" is not an ISO 639-1 code (for example "en" or "ja").`, 'language');
  }
  const granularities = new Set(
    [...(raw['timestamp_granularities[]'] ?? []), ...(raw.timestamp_granularities ?? [])]
      .flatMap((g) => g.split(','))
      .map((g) => g.trim())
      .filter(Boolean),
  );
  for (const g of granularities) {
    if (!(GRANULARITIES as readonly string[]).includes(g)) {
      throw errors.validation(
        `timestamp_granularities[] must be "word" or "segment"; got "${g}".`,
        'timestamp_granularities[]',
      );
    }
  }
  // As OpenAI's diarizing model: no timestamp granularities with diarized_json, known speakers only with it.
  if (diarize && granularities.size > 0)
    throw errors.validation(
      'timestamp_granularities[] is for verbose_json; diarized_json always has segment times. Leave it out.',
      'timestamp_granularities[]',
    );
  const names = raw[NAMES_FIELD] ?? [];
  const references = raw[REFERENCES_FIELD] ?? [];
  if (!diarize && (names.length > 0 || references.length > 0))
    throw errors.validation(
      `${names.length > 0 ? NAMES_FIELD : REFERENCES_FIELD} is for response_format diarized_json; ask for it, or leave the known speakers out.`,
      names.length > 0 ? NAMES_FIELD : REFERENCES_FIELD,
    );
  const speakersKnown = knownSpeakers(names, references);
  const prompt = one(raw, 'prompt') ?? '';
  if (prompt.length > MAX_PROMPT_CHARS)
    throw errors.validation(`prompt is longer than ${MAX_PROMPT_CHARS} characters.`, 'prompt');
  const temperature = one(raw, 'temperature');
  if (temperature !== undefined && !(Number(temperature) >= 0 && Number(temperature) <= 1)) {
    throw errors.validation('temperature must be a number from 0 to 1.', 'temperature');
  }
  if (one(raw, 'stream') === 'true')
    throw errors.unsupportedOption(
      'stream=true is not supported; omit it to get the whole transcript in one response.',
      'stream',
    );
  // Numbers here; the use case holds them to the speaker-count rule (LIMITS' bounds, min <= num <= max).
  const speakers: SpeakerCounts = { numSpeakers: null, minSpeakers: null, maxSpeakers: null };
  for (const [name, field] of Object.entries(SPEAKER_FIELD) as [SpeakerCountField, string][]) {
    const value = one(raw, field)?.trim();
    if (value === undefined || value === '') continue;
    const n = Number(value);
    if (Number.isNaN(n)) throw errors.validation(`${field} must be a whole number; got "${value}".`, field);
    speakers[name] = n;
  }
  return {
    task,
    model: one(raw, 'model')?.trim() || 'whisper-1',
    language,
    prompt,
    responseFormat,
    granularities,
    diarize,
    knownSpeakers: speakersKnown,
    dictionaryId: one(raw, 'dictionary_id')?.trim() || null,
    speakers: Object.values(speakers).some((n) => n !== null) ? speakers : null,
  };
}

function languageName(code: string): string {
  return ISO6391.getName(code).toLowerCase() || code;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** OpenAI's speaker labels: A, B, ... Z, AA, AB, ... for the n-th speaker (0-based). */
function letterLabel(n: number): string {
  return (n >= 26 ? letterLabel(Math.floor(n / 26) - 1) : '') + String.fromCharCode(65 + (n % 26));
}

/**
 * The document's speakers as OpenAI answers them: a known speaker recognized in the team's voice library by its
 * name (decision 0065), the others (SPEAKER_1, ...) as letters in order of first appearance.
 */
function diarizedLabels(
  segments: readonly { speaker: string | null; speaker_name?: string }[],
): (segment: { speaker: string | null; speaker_name?: string }) => string {
  const letters = new Map<string | null, string>();
  for (const s of segments)
    if (s.speaker_name === undefined && !letters.has(s.speaker)) letters.set(s.speaker, letterLabel(letters.size));
  return (segment) => segment.speaker_name ?? letters.get(segment.speaker) ?? 'A';
}

export const createTranscription: RouteModule = (app, ctx) =>
  registerAudioOperation(app, ctx, {
    url: '/v1/audio/transcriptions',
    task: 'transcribe',
    summary: 'Transcribe an audio file (OpenAI-compatible, synchronous)',
    description:
      'multipart/form-data as OpenAI\'s API: file (required), model ("whisper-1" = the default engine; or "diarization-high", ' +
      '"pocketsphinx", "whisper", "remote"; GET /v1/models lists those usable), language (ISO 639-1; omitted = detected where the engine can, else its first language), ' +
      'prompt (terms to favour), response_format (json, text, srt, vtt, verbose_json, diarized_json), timestamp_granularities[] ' +
      "(word, segment; for verbose_json). diarized_json answers as OpenAI's gpt-4o-transcribe-diarize: `segments` of " +
      '{ type: "transcript.text.segment", id, speaker, start, end, text }, speakers labelled A, B, ... in order of first ' +
      'appearance (separated with an automatic count unless num_speakers, min_speakers or max_speakers are sent; ' +
      'model "diarization-high" for the enhanced separation). known_speaker_names[] with known_speaker_references[] ' +
      "(up to 4; base64 data URLs of 2-10 s audio clips, at most 2 MiB each) name the speakers they match: a name that is a voice of the team's " +
      'library (/api/v1/speakers) by that voice, any other by its clip; a speaker matched confidently by none stays A, B, .... Uses the same API keys, as "Authorization: Bearer <key>". ' +
      "Words in verbose_json carry a `probability` when the engine gives one. Errors use OpenAI's error body.",
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
      limits: {
        fileSize: ctx.config.uploads.maxBytes,
        files: 1,
        fields: 30,
        fieldSize: MAX_REFERENCE_CHARS,
        parts: 40,
      },
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
          throw errors.unsupportedMediaType(
            `Send the audio as multipart/form-data with a "file" field, as for OpenAI's ${operation.url}.`,
          );
        }
        // Bounded wait: beyond the job slots and KIKITORI_OPENAI_MAX_WAITING, answer 503 before reading the body.
        const admission = admissionOf(ctx);
        if (!admission.tryEnter()) {
          reply.header('retry-after', String(admission.retryAfterSeconds()));
          throw errors.serverBusy(admission.retryAfterSeconds());
        }
        const startedAt = Date.now();
        const limit = ctx.config.uploads.maxBytes;
        const controller = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
        };
        reply.raw.on('close', onClose);
        let session: TranscribeNow | null = null;
        try {
          // (Node's parser has refused a length that is not a number; one past 2^53 is simply too large.)
          const declared = Number(request.headers['content-length'] ?? NaN);
          const declaredBytes = Number.isNaN(declared) ? null : Math.min(declared, Number.MAX_SAFE_INTEGER);
          session = await TranscribeNow.begin(ctx, callerOf(request), declaredBytes);
          const raw: Record<string, string[]> = {};
          let fieldChars = 0;
          try {
            for await (const part of request.parts()) {
              if (part.type === 'file') {
                if (part.fieldname !== 'file' || session.hasUpload) {
                  part.file.resume();
                  continue;
                }
                await session.storeUpload(part.filename, part.file);
              } else {
                const value = String(part.value);
                fieldChars += value.length;
                const bound = part.fieldname === REFERENCES_FIELD ? MAX_REFERENCE_CHARS : MAX_FIELD_CHARS;
                // The parser cuts a longer value silently (valueTruncated): refused, never used cut.
                if (part.valueTruncated || value.length > bound || fieldChars > MAX_FORM_FIELD_CHARS) {
                  throw errors.validation(
                    part.fieldname === REFERENCES_FIELD
                      ? `${REFERENCES_FIELD}: a reference is larger than ${MAX_REFERENCE_BYTES / (1024 * 1024)} MiB; send a clip of 2 to 10 seconds.`
                      : `Field "${part.fieldname}" is too large: the form's fields (all but the file) may have ${MAX_FORM_FIELD_CHARS} characters, ${MAX_FIELD_CHARS} each apart from known speaker references.`,
                    part.fieldname,
                  );
                }
                (raw[part.fieldname] ??= []).push(value);
              }
            }
          } catch (error) {
            const code = (error as { code?: string }).code;
            if (code === 'FST_REQ_FILE_TOO_LARGE') throw errors.payloadTooLarge(limit);
            if (typeof code === 'string' && code.startsWith('FST_'))
              throw errors.validation(`The multipart body is not usable: ${(error as Error).message}.`);
            // The form parser's own complaints (no boundary, a malformed part, a body cut short) are plain
            // Errors without a code: the client's body, not the server (found by `npm run drill`: they were 500s).
            if (
              code === undefined &&
              error instanceof Error &&
              !(error instanceof AppError) &&
              /^(Multipart|Unexpected end|Malformed)/.test(error.message)
            ) {
              throw errors.validation(
                `The multipart body is not usable: ${error.message}. Send multipart/form-data with a boundary and a "file" field.`,
              );
            }
            throw error;
          }
          await session.checkUpload();
          const fields = parseFields(raw, task);
          const { document, engine } = await session.run(fields, controller.signal);
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
            case 'diarized_json': {
              const label = diarizedLabels(segments);
              return {
                task: 'transcribe' as const,
                duration: round(duration),
                text,
                segments: segments.map((s) => ({
                  type: 'transcript.text.segment' as const,
                  id: `seg_${s.id}`,
                  start: s.start,
                  end: s.end,
                  text: s.text,
                  speaker: label(s),
                })),
                usage: { type: 'duration' as const, seconds: Math.ceil(duration) },
              };
            }
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
                      avg_logprob: round(
                        confident.reduce((sum, w) => sum + Math.log(w.confidence!), 0) / (confident.length || 1),
                      ),
                      compression_ratio: round(s.text ? Buffer.byteLength(s.text) / deflateSync(s.text).length : 0),
                      no_speech_prob: 0,
                      ...(s.speaker !== null && { speaker: s.speaker }),
                    };
                  }),
                }),
                ...(wantWords && {
                  words: segments.flatMap((s) =>
                    s.words.map((w) => ({
                      word: w.word,
                      start: w.start,
                      end: w.end,
                      ...(w.confidence !== null && { probability: w.confidence }),
                    })),
                  ),
                }),
                engine: {
                  name: engine,
                  model: result.model,
                  ...(document.engine.speakers && { speakers: document.engine.speakers }),
                },
                ...(document.replacements.length > 0 && { replacements: document.replacements }),
              };
            }
          }
        } finally {
          reply.raw.off('close', onClose);
          admission.leave();
          await session?.end((error) =>
            requestLog(request).warn({ err: error }, 'could not cancel the job of an OpenAI request'),
          );
        }
      },
    );
  });
}
