// The live transcription protocol of GET /v1/realtime (WebSocket): OpenAI's Realtime API transcription
// sessions, as its clients speak them, plus this server's documented extensions (decision 0063).
// Client events are TypeBox schemas (the server validates every frame against them); server events are
// types. Pure TypeBox: no electron, node or DOM imports.
import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { NonBlank } from './common.js';

const EventId = Type.Optional(Type.String({ maxLength: 256, description: 'Client-chosen id, echoed in errors.' }));

/** Sample rates accepted for audio/pcm: OpenAI's 24 kHz, and 16 kHz (the engines' own rate) as an extension. */
const LiveSampleRateSchema = Type.Union([Type.Literal(24000), Type.Literal(16000)]);
export type LiveSampleRate = Static<typeof LiveSampleRateSchema>;

export const LiveAudioFormat = Type.Object(
  {
    type: Type.Literal('audio/pcm', { description: '16-bit little-endian mono PCM (pcmu/pcma are not accepted).' }),
    rate: Type.Optional(LiveSampleRateSchema),
  },
  { additionalProperties: false },
);

export const LiveServerVad = Type.Object(
  {
    type: Type.Literal('server_vad'),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    prefix_padding_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
    silence_duration_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 10000 })),
    // Accepted for clients that send them: a transcription session creates no responses.
    create_response: Type.Optional(Type.Boolean()),
    interrupt_response: Type.Optional(Type.Boolean()),
    idle_timeout_ms: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const LiveTranscriptionSettings = Type.Object(
  {
    model: Type.Optional(Type.String({ maxLength: 100 })),
    language: Type.Optional(Type.String({ maxLength: 16 })),
    prompt: Type.Optional(Type.String({ maxLength: 4000 })),
    delay: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);

/**
 * Extension: an ad-hoc word to recognize, with an optional phonetic respelling; bounded as a dictionary's words
 * are (a saved session's words become its transcription's dictionary), the reading checked as theirs are.
 */
export const LiveWord = Type.Union([
  NonBlank(LIMITS.word),
  Type.Object(
    {
      word: NonBlank(LIMITS.word),
      reading: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.reading }), Type.Null()])),
    },
    { additionalProperties: false },
  ),
]);

export const LiveSessionSettings = Type.Object(
  {
    type: Type.Literal('transcription'),
    audio: Type.Optional(
      Type.Object(
        {
          input: Type.Optional(
            Type.Object(
              {
                format: Type.Optional(LiveAudioFormat),
                transcription: Type.Optional(LiveTranscriptionSettings),
                turn_detection: Type.Optional(Type.Union([LiveServerVad, Type.Null()])),
                noise_reduction: Type.Optional(
                  Type.Union([
                    Type.Null(),
                    Type.Object({ type: Type.Optional(Type.String()) }, { additionalProperties: false }),
                  ]),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    include: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10 })),
    /** Extension: a dictionary of the caller's team; its words are recognized and its forced replacements applied. */
    dictionary_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
    /** Extension: words to recognize in this session, beside the dictionary's. */
    words: Type.Optional(Type.Array(LiveWord, { maxItems: 200 })),
    /**
     * Extension: keep the session's audio (from now on) as a transcription of the team; when the session
     * ends it runs through the batch pipeline like an upload. Cannot be turned off once on.
     */
    save: Type.Optional(Type.Boolean()),
    /**
     * Extension: name each turn spoken by an enrolled voice of the team's voice library (on by default,
     * as for uploads); false leaves every turn unnamed, and a saved session's transcription too.
     */
    recognize_speakers: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type LiveSessionSettings = Static<typeof LiveSessionSettings>;

export const SessionUpdateEvent = Type.Object(
  { type: Type.Literal('session.update'), event_id: EventId, session: LiveSessionSettings },
  { additionalProperties: false },
);
export const InputAudioBufferAppendEvent = Type.Object(
  {
    type: Type.Literal('input_audio_buffer.append'),
    event_id: EventId,
    audio: Type.String({ description: 'Base64 of PCM16 mono little-endian samples at the session rate.' }),
  },
  { additionalProperties: false },
);
export const InputAudioBufferCommitEvent = Type.Object(
  { type: Type.Literal('input_audio_buffer.commit'), event_id: EventId },
  { additionalProperties: false },
);
export const InputAudioBufferClearEvent = Type.Object(
  { type: Type.Literal('input_audio_buffer.clear'), event_id: EventId },
  { additionalProperties: false },
);

/** Every client event a transcription session accepts, by type. */
export const LIVE_CLIENT_EVENTS = {
  'session.update': SessionUpdateEvent,
  'input_audio_buffer.append': InputAudioBufferAppendEvent,
  'input_audio_buffer.commit': InputAudioBufferCommitEvent,
  'input_audio_buffer.clear': InputAudioBufferClearEvent,
} as const;
export type LiveClientEventType = keyof typeof LIVE_CLIENT_EVENTS;
export type SessionUpdateEvent = Static<typeof SessionUpdateEvent>;
export type InputAudioBufferAppendEvent = Static<typeof InputAudioBufferAppendEvent>;

/**
 * The `code` of every error event this server sends (closed: docs/api/errors.md lists them). The names
 * follow OpenAI's where OpenAI has one for the same failure.
 */
export const LIVE_ERROR_CODES = [
  'invalid_json',
  'unsupported_event',
  'missing_required_parameter',
  'unknown_parameter',
  'invalid_value',
  'invalid_audio',
  'frame_too_large',
  'input_audio_buffer_commit_empty',
  'unsupported_language',
  'dictionary_not_found',
  'insufficient_quota',
  'engine_unavailable',
  'transcription_failed',
  'too_many_sessions',
  'audio_backlog',
  'session_expired',
  'idle_timeout',
  'server_shutting_down',
  'internal_error',
] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

export type LiveErrorType = 'invalid_request_error' | 'rate_limit_error' | 'server_error';

/** OpenAI's error object of an `error` event. */
export interface LiveError {
  type: LiveErrorType;
  code: LiveErrorCode;
  message: string;
  param: string | null;
  /** The client event at fault, when it had an event_id. */
  event_id: string | null;
}

/** Extension on `.completed`: the turn's words, timed in seconds from the start of the session's audio. */
export interface LiveWordTiming {
  word: string;
  start: number;
  end: number;
  confidence: number | null;
}

/**
 * Extension on `.completed`, present only when the turn's voice is an enrolled voice of the team,
 * recognized above the library's threshold: the same fields a transcript's segments carry.
 */
export interface LiveTurnSpeaker {
  speaker_id: string;
  speaker_name: string;
  /** 0.5 at the acceptance threshold, 1 for prints that match exactly; not a probability. */
  speaker_confidence: number;
}

/** The effective session, as session.created and session.updated show it. */
export interface LiveSessionView {
  type: 'transcription';
  object: 'realtime.transcription_session';
  id: string;
  audio: {
    input: {
      format: { type: 'audio/pcm'; rate: LiveSampleRate };
      transcription: { model: string; language: string; prompt: string };
      turn_detection: {
        type: 'server_vad';
        threshold: number;
        prefix_padding_ms: number;
        silence_duration_ms: number;
      } | null;
      noise_reduction: null;
    };
  };
  include: string[];
  dictionary_id: string | null;
  words: { word: string; reading: string | null }[];
  save: boolean;
  recognize_speakers: boolean;
  /** With `save`: the transcription the session's audio becomes (GET /api/v1/transcriptions/{id}). */
  transcription_id: string | null;
}

/** Server events, without the `event_id` every one gets when sent. */
export type LiveServerEvent =
  | { type: 'session.created' | 'session.updated'; session: LiveSessionView }
  | { type: 'input_audio_buffer.speech_started'; audio_start_ms: number; item_id: string }
  | { type: 'input_audio_buffer.speech_stopped'; audio_end_ms: number; item_id: string }
  | { type: 'input_audio_buffer.committed'; item_id: string; previous_item_id: string | null }
  | { type: 'input_audio_buffer.cleared' }
  | { type: 'conversation.item.input_audio_transcription.delta'; item_id: string; content_index: 0; delta: string }
  | ({
      type: 'conversation.item.input_audio_transcription.completed';
      item_id: string;
      content_index: 0;
      transcript: string;
      usage: { type: 'duration'; seconds: number };
      words: LiveWordTiming[];
    } & Partial<LiveTurnSpeaker>)
  | {
      type: 'conversation.item.input_audio_transcription.failed';
      item_id: string;
      content_index: 0;
      error: { type: LiveErrorType; code: LiveErrorCode; message: string; param: string | null };
    }
  | { type: 'error'; error: LiveError };
