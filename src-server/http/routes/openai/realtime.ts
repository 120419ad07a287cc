// GET /v1/realtime: OpenAI's Realtime API transcription sessions over a WebSocket, so the official `openai`
// client's OpenAIRealtimeWS connects with baseURL set to this server's /v1 (decision 0063). The upgrade is
// authenticated like every /v1 route (Bearer or X-API-KEY; a refusal is an HTTP 401 in OpenAI's body).
// This file parses and validates frames, calls the live session (application/live-transcription.ts) and
// renders its events as frames; a bad frame is an `error` event, never a closed connection.
import type { WebsocketPluginOptions } from '@fastify/websocket';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { Type, type Static } from 'typebox';
import type { WebSocket, RawData } from 'ws';
import {
  LIVE_CLIENT_EVENTS,
  type InputAudioBufferAppendEvent,
  type LiveClientEventType,
  type SessionUpdateEvent,
} from '../../../../src-shared/api/realtime.js';
import { openAiErrorResponses } from '../../../../src-shared/api/openai.js';
import { CLOSE, LiveFailure, liveTranscriptionsOf, type LiveSession } from '../../../application/live-transcription.js';
import { errors } from '../../../application/errors.js';
import { callerOf } from '../../auth.js';
import { validationField } from '../../error-handler.js';
import { requestLog } from '../../request-log.js';
import type { RouteModule } from '../../api-app.js';

/** Frames beyond this many times the configured limit close the connection (1009) before being read whole. */
const HARD_LIMIT_FACTOR = 4;
/** How long a closing client may take to answer the close handshake. */
const CLOSE_GRACE_MS = 2000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });
const validators = Object.fromEntries(
  Object.entries(LIVE_CLIENT_EVENTS).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<LiveClientEventType, ValidateFunction>;

const Query = Type.Object({
  model: Type.Optional(
    Type.String({ maxLength: 100, description: 'Accepted as OpenAI does; the server runs its live engine.' }),
  ),
  intent: Type.Optional(Type.Literal('transcription', { description: 'Only transcription sessions are served.' })),
});

const invalid = (code: LiveFailure['code'], message: string, param: string | null = null) =>
  new LiveFailure('invalid_request_error', code, message, param);

/** The first schema issue of a frame, as OpenAI's error event names it. */
function schemaFailure(issues: readonly ErrorObject[]): LiveFailure {
  const param = validationField(issues) ?? null;
  const deepest = issues.find((i) => (validationField([i]) ?? null) === param) ?? issues[0]!;
  if (deepest.keyword === 'required')
    return invalid('missing_required_parameter', `Missing required parameter: '${param}'.`, param);
  if (deepest.keyword === 'additionalProperties')
    return invalid('unknown_parameter', `Unknown parameter: '${param}'.`, param);
  const allowed = issues
    .filter((i) => (validationField([i]) ?? null) === param && (i.keyword === 'const' || i.keyword === 'enum'))
    .flatMap((i): unknown[] =>
      i.keyword === 'const' ? [i.params.allowedValue] : (i.params.allowedValues as unknown[]),
    );
  const expected =
    allowed.length > 0 ? `one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : (deepest.message ?? 'valid');
  return invalid(
    'invalid_value',
    `Invalid value for '${param ?? 'event'}': expected ${expected.replace(/^must be /, '')}.`,
    param,
  );
}

function frameText(data: RawData): Buffer {
  return Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** One client frame: parsed, validated, handed to the session; a problem is an error event. */
function handleFrame(session: LiveSession, data: RawData, isBinary: boolean, maxBytes: number): void {
  const bytes = frameText(data);
  let eventId: string | null = null;
  try {
    if (bytes.length > maxBytes)
      throw invalid(
        'frame_too_large',
        `The message is ${bytes.length} bytes; this server takes at most ${maxBytes} per message. Send audio in smaller appends (100–500 ms each).`,
      );
    if (isBinary)
      throw invalid('invalid_json', 'Binary messages are not accepted: send each event as a JSON text message.');
    let event: unknown;
    try {
      event = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw invalid(
        'invalid_json',
        `The message is not valid JSON (${(error as Error).message}). Send one JSON event per message.`,
      );
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event))
      throw invalid('invalid_json', 'The message must be a JSON object with a "type".');
    const record = event as Record<string, unknown>;
    if (typeof record.event_id === 'string') eventId = record.event_id;
    if (typeof record.type !== 'string')
      throw invalid('missing_required_parameter', "Missing required parameter: 'type'.", 'type');
    const type = record.type;
    const validate = Object.hasOwn(validators, type) ? validators[type as LiveClientEventType] : undefined;
    if (!validate)
      throw invalid(
        'unsupported_event',
        `Event type "${type.slice(0, 100)}" is not supported by a transcription session: send session.update, input_audio_buffer.append, input_audio_buffer.commit or input_audio_buffer.clear.`,
        'type',
      );
    if (!validate(event)) throw schemaFailure(validate.errors ?? []);
    switch (type as LiveClientEventType) {
      case 'session.update':
        return session.update((event as SessionUpdateEvent).session, eventId);
      case 'input_audio_buffer.append':
        return session.append(decodeAudio((event as InputAudioBufferAppendEvent).audio), eventId);
      case 'input_audio_buffer.commit':
        return session.commit(eventId);
      case 'input_audio_buffer.clear':
        return session.clear(eventId);
    }
  } catch (error) {
    // Never thrown out of a socket listener (that would end the process): an unexpected failure is logged
    // by the session and answered as internal_error.
    session.reject(error instanceof LiveFailure ? error : session.unexpected(error), eventId);
  }
}

/** Base64 PCM16 little-endian mono -> samples. */
function decodeAudio(audio: string): Int16Array {
  if (audio.length % 4 !== 0 || !BASE64.test(audio))
    throw invalid('invalid_audio', 'audio is not valid base64. Send base64-encoded 16-bit PCM.', 'audio');
  const bytes = Buffer.from(audio, 'base64');
  if (bytes.length % 2 !== 0)
    throw invalid(
      'invalid_audio',
      `audio has ${bytes.length} bytes, an odd number: 16-bit PCM has two bytes per sample.`,
      'audio',
    );
  const samples = new Int16Array(bytes.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(2 * i);
  return samples;
}

/**
 * The WebSocket plugin's options (app.ts registers it before every scope, so upgrades pass its hooks
 * first and a refused upgrade's socket is closed after the answer). Server shutdown: each session says so
 * (error event, close 1001) and gives its decoder back before the HTTP server closes.
 */
export function websocketOptions(ctx: AppContext): WebsocketPluginOptions {
  const live = liveTranscriptionsOf(ctx);
  return {
    options: { maxPayload: ctx.config.live.maxFrameBytes * HARD_LIMIT_FACTOR },
    preClose(this: FastifyInstance, done) {
      const server = this.websocketServer;
      live.shutdown().then(
        () => {
          for (const client of server.clients) client.close(CLOSE.goingAway, 'server_shutting_down');
          server.close();
          done();
        },
        (error: unknown) => done(error as Error),
      );
    },
  };
}

export const realtimeTranscription: RouteModule = (app, ctx) => {
  const live = liveTranscriptionsOf(ctx);
  const maxBytes = ctx.config.live.maxFrameBytes;
  app.route({
    method: 'GET',
    url: '/v1/realtime',
    schema: {
      summary: 'Live transcription (OpenAI Realtime API transcription sessions, WebSocket)',
      description:
        'Upgrade to a WebSocket. Client events: session.update (session.type "transcription"; audio.input.format ' +
        'audio/pcm at rate 24000, or 16000 as an extension; transcription.model/language/prompt; turn_detection ' +
        'server_vad or null; extensions dictionary_id and words), input_audio_buffer.append (base64 PCM16), ' +
        '.commit, .clear. Server events: session.created/updated, input_audio_buffer.speech_started/' +
        'speech_stopped/committed/cleared, conversation.item.input_audio_transcription.delta/completed (with ' +
        "the turn's `words` and times as an extension)/failed, and `error`. See docs/decisions/0063-realtime-transcription.md.",
      tags: ['openai'],
      querystring: Query,
      response: openAiErrorResponses(400, 401),
    },
    handler: async () => {
      throw errors.validation(
        "GET /v1/realtime is a WebSocket endpoint: connect with a WebSocket client (such as the openai package's OpenAIRealtimeWS).",
      );
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest<{ Querystring: Static<typeof Query> }>) => {
      const caller = callerOf(request);
      const log = requestLog(request);
      const sink = {
        send(event: object) {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
        },
        close(code: number, reason: string) {
          if (socket.readyState !== socket.OPEN) return;
          socket.close(code, reason);
          setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
        },
      };
      const session = live.open(caller, { model: request.query.model ?? null }, sink, log);
      if (!session) return;
      socket.on('message', (data, isBinary) => {
        session.activity();
        handleFrame(session, data, isBinary, maxBytes);
      });
      socket.on('close', () => void session.disconnected());
    },
  });
};
