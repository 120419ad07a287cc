// Live transcription (GET /v1/realtime, decision 0063): one use case, one place. A session takes
// validated client events (the route parses and validates frames), runs the audio through server VAD turn
// detection and a streaming recognizer, and hands OpenAI Realtime server events to its sink. Everything a
// session does runs in order on one chain (a decoder takes one call at a time); a closed session stops
// at the next step and gives its decoder back. Limits (sessions per server and per key, longest session,
// idle client) are configured once (config.ts `live`) and answered with OpenAI-shaped error events.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { AppContext } from '../app-context.js';
import type { LiveConfig } from '../config.js';
import type { Caller } from '../domain/records.js';
import type { EnrolledVoice } from '../domain/voice-prints.js';
import { applyReplacements, type ReplacementRule } from '../domain/replacements.js';
import { TurnDetector } from '../domain/turn-detection.js';
import { isEngineError, operatorMessage } from '../domain/engine-error.js';
import { SAMPLE_RATE } from '../engines/audio/ffmpeg.js';
import { Resampler24To16 } from '../engines/audio/resample.js';
import { SileroVad, SILERO_WINDOW } from '../engines/vad/silero-vad.js';
import type { RecognizedWord, VocabularyWord } from '../engines/speech/speech-engine.js';
import {
  isStreamingRecognizer,
  type RecognitionStream,
  type StreamingRecognizer,
} from '../engines/speech/streaming-recognizer.js';
import { wavHeader } from '../engines/speech/openai-remote-engine.js';
import { promptVocabulary } from './transcribe-now.js';
import { createUploadTicket } from './create-upload-ticket.js';
import { checkReadings } from './dictionaries.js';
import { AppError } from './errors.js';
import { storeUploadedAudio } from './signed-files.js';
import type {
  LiveError,
  LiveErrorCode,
  LiveErrorType,
  LiveSampleRate,
  LiveServerEvent,
  LiveSessionSettings,
  LiveSessionView,
  LiveTurnSpeaker,
} from '../../src-shared/api/realtime.js';
import { joinWords } from '../../src-shared/word-text.js';

/** Where a session reports what went wrong on the server's side (the request's logger). */
export interface LiveLog {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Where a session's events go: the route renders them as frames. */
export interface LiveEventSink {
  send(event: LiveServerEvent & { event_id: string }): void;
  /** Ends the connection, after the events sent so far. */
  close(code: number, reason: string): void;
}

/** WebSocket close codes a session ends with (RFC 6455). */
export const CLOSE = { normal: 1000, goingAway: 1001, internal: 1011, tryAgainLater: 1013 } as const;

/** An error for the client, before it becomes an error event. */
export class LiveFailure extends Error {
  constructor(
    readonly type: LiveErrorType,
    readonly code: LiveErrorCode,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

const invalid = (code: LiveErrorCode, message: string, param: string | null = null) =>
  new LiveFailure('invalid_request_error', code, message, param);

const DEFAULT_VAD = { threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 };
/** A turn is ended after this long even while speech goes on (one decoder utterance, kept in memory). */
const MAX_TURN_SECONDS = 30;
const TRANSCRIPTION_PARAM = 'session.audio.input.transcription';
/** Audio received but not yet heard (VAD and decoder behind the client): more is refused, not queued. */
const MAX_BACKLOG_SECONDS = 20;
/**
 * After this much silence in a turn (at most half the turn's silence duration) the decoder's utterance is
 * ended, so its second passes run while the rest of the silence is still awaited, not after it; speech
 * resuming before the turn ends opens the next utterance of the same turn. The batch VAD cuts utterances
 * at pauses of 300 ms too.
 */
const EARLY_END_MS = 300;

interface SessionState {
  rate: LiveSampleRate;
  model: string;
  language: string;
  prompt: string;
  vad: { threshold: number; prefix_padding_ms: number; silence_duration_ms: number } | null;
  include: string[];
  dictionaryId: string | null;
  words: { word: string; reading: string | null }[];
  save: boolean;
  recognizeSpeakers: boolean;
}

/** With `save`: the transcription the session's audio becomes, and where that audio is written meanwhile. */
interface Recording {
  transcriptionId: string;
  file: string;
  out: fs.WriteStream;
  bytes: number;
}

interface Turn {
  itemId: string;
  /** Where the turn's audio starts, in 16 kHz samples from the session's start. */
  startSample: number;
  samples: number;
  /** Final words of the turn's decoder utterances ended so far (it is ended early at a pause). */
  words: RecognizedWord[];
  /**
   * While the decoder's utterance is ended at a pause: the silence heard since, fed as the start of the
   * next utterance if speech resumes, dropped if the turn ends. Null while the utterance is open.
   */
  held: { start: number; windows: Int16Array[] } | null;
  /** Words already sent as deltas. */
  sent: string[];
  /** The previous partial hypothesis (a word is sent once two in a row agree on it). */
  previous: string[];
  /** The turn's audio, kept only while the team has voices to recognize in it. */
  audio: Int16Array[] | null;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

/** The live sessions of one server process. */
export class LiveTranscriptions {
  private readonly sessions = new Set<LiveSession>();
  private readonly perKey = new Map<string, number>();
  private shuttingDown = false;
  /** One VAD model for every session (each keeps its own recurrent state). */
  readonly vad = new SileroVad();

  constructor(
    readonly ctx: AppContext,
    readonly config: LiveConfig,
  ) {}

  /** Sessions open now. */
  get active(): number {
    return this.sessions.size;
  }

  /**
   * The recognizers live sessions can run on now, best first: the engine a batch transcription would use
   * (the default model's, e.g. whisper once a model is installed), then the other configured engines
   * that stream. One that cannot run now (whisper without a model) lists no languages and is left out.
   */
  recognizers(): StreamingRecognizer[] {
    const engines = new Set([this.ctx.engines.speechFor('default'), ...this.ctx.engines.speechEngines.values()]);
    return [...engines].filter(isStreamingRecognizer).filter((engine) => engine.liveLanguages.length > 0);
  }

  /** The recognizer for a language: the first of recognizers() that recognizes it live. */
  recognizerFor(language: string): StreamingRecognizer | null {
    return this.recognizers().find((engine) => engine.liveLanguages.includes(language)) ?? null;
  }

  /** Every language some recognizer serves live, the best recognizer's first. */
  liveLanguages(): string[] {
    return [...new Set(this.recognizers().flatMap((engine) => engine.liveLanguages))];
  }

  /**
   * Opens a session for the caller: session.created is sent at once. When a limit refuses it, the error
   * event is sent, the connection closed, and the answer is null.
   */
  open(caller: Caller, query: { model: string | null }, sink: LiveEventSink, logger: LiveLog): LiveSession | null {
    const refuse = (failure: LiveFailure, code: number) => {
      sink.send({ type: 'error', event_id: id('event'), error: errorOf(failure, null) });
      sink.close(code, failure.code);
      return null;
    };
    if (this.shuttingDown)
      return refuse(
        new LiveFailure('server_error', 'server_shutting_down', 'The server is shutting down. Connect again shortly.'),
        CLOSE.goingAway,
      );
    const recognizer = this.recognizerFor('en') ?? this.recognizers()[0];
    if (!recognizer || this.config.maxSessions === 0)
      return refuse(
        new LiveFailure(
          'server_error',
          'engine_unavailable',
          'Live transcription is not available on this server. Upload the recording to /v1/audio/transcriptions instead.',
        ),
        CLOSE.internal,
      );
    if (this.sessions.size >= this.config.maxSessions)
      return refuse(
        new LiveFailure(
          'rate_limit_error',
          'too_many_sessions',
          `This server runs at most ${this.config.maxSessions} live sessions at once and all are in use. Try again later.`,
        ),
        CLOSE.tryAgainLater,
      );
    const held = this.perKey.get(caller.keyId) ?? 0;
    if (held >= this.config.maxSessionsPerKey)
      return refuse(
        new LiveFailure(
          'rate_limit_error',
          'too_many_sessions',
          `This API key has ${held} live sessions open, the most it may have at once. Close one, then connect again.`,
        ),
        CLOSE.tryAgainLater,
      );
    this.perKey.set(caller.keyId, held + 1);
    const session = new LiveSession(this, recognizer, caller, query.model, sink, logger, () => {
      this.sessions.delete(session);
      const left = (this.perKey.get(caller.keyId) ?? 1) - 1;
      if (left > 0) this.perKey.set(caller.keyId, left);
      else this.perKey.delete(caller.keyId);
    });
    this.sessions.add(session);
    session.start();
    return session;
  }

  /** Server shutdown: every session gets an error event and close code 1001, and gives its decoder back. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    const ending = [...this.sessions].map((s) =>
      s.end(
        new LiveFailure('server_error', 'server_shutting_down', 'The server is shutting down. Connect again shortly.'),
        CLOSE.goingAway,
      ),
    );
    await Promise.all(ending);
  }
}

export class LiveSession {
  readonly id = id('sess');
  private state: SessionState;
  private rules: ReplacementRule[] = [];
  private dictionaryWords: VocabularyWord[] = [];
  private vocabulary: VocabularyWord[] = [];
  /** The open decoder stream, or its opening; reopened at the next turn when the vocabulary changed. */
  private stream: Promise<RecognitionStream> | null = null;
  private streamStale = false;
  private chain: Promise<void> = Promise.resolve();
  /** Seconds of appended audio not yet heard. */
  private backlog = 0;
  private closed = false;
  private finished: Promise<void> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private lifeTimer: NodeJS.Timeout | null = null;

  // Audio
  private resampler: Resampler24To16 | null = null;
  /** 16 kHz samples received so far: the session's audio clock. */
  private received = 0;
  private detector: TurnDetector | null = null;
  private scorer: Promise<Awaited<ReturnType<SileroVad['scorer']>>> | null = null;
  /** Samples not yet scored (less than one VAD window). */
  private unscored = new Int16Array(0);
  /** Recent audio before a turn, kept for prefix padding. */
  private recent: Int16Array[] = [];
  private recentSamples = 0;
  /** Where the last turn ended (prefix padding never reaches back into it). */
  private lastTurnEnd = 0;
  private turn: Turn | null = null;
  private previousItemId: string | null = null;
  private recording: Recording | null = null;
  /** The team's enrolled voices, read at the first turn that needs them (and again after an update). */
  private voices: Promise<EnrolledVoice[]> | null = null;

  constructor(
    private readonly owner: LiveTranscriptions,
    /** The recognizer of the session's language (chosen again when the language changes). */
    private recognizer: StreamingRecognizer,
    private readonly caller: Caller,
    model: string | null,
    private readonly sink: LiveEventSink,
    private readonly logger: LiveLog,
    private readonly onEnd: () => void,
  ) {
    this.state = {
      rate: 24000,
      model: model ?? recognizer.liveModel,
      language: recognizer.liveLanguages.includes('en') ? 'en' : recognizer.liveLanguages[0]!,
      prompt: '',
      vad: { ...DEFAULT_VAD },
      include: [],
      dictionaryId: null,
      words: [],
      save: false,
      recognizeSpeakers: true,
    };
  }

  start(): void {
    this.armIdle();
    this.lifeTimer = setTimeout(
      () =>
        void this.end(
          invalid(
            'session_expired',
            `The session reached its longest duration (${this.owner.config.maxSessionSeconds} s). Open a new session to continue.`,
          ),
          CLOSE.normal,
        ),
      this.owner.config.maxSessionSeconds * 1000,
    );
    this.lifeTimer.unref();
    this.emit({ type: 'session.created', session: this.view() });
    // A warm decoder before the first word, so the first turn does not wait for one.
    this.stream = this.openStream();
  }

  /** Something arrived from the client (even a bad frame): the idle timer starts again. */
  activity(): void {
    this.armIdle();
  }

  /** A client frame that was not a valid event: an error event, the session goes on. */
  reject(failure: LiveFailure, clientEventId: string | null): void {
    this.emit({ type: 'error', error: errorOf(failure, clientEventId) });
  }

  /** A failure nobody expected: logged with the session, told to the client as internal_error. */
  unexpected(error: unknown): LiveFailure {
    this.logger.error({ err: error, session: this.id }, 'live session step failed');
    return new LiveFailure('server_error', 'internal_error', 'The server could not process this event. Try again.');
  }

  update(settings: LiveSessionSettings, eventId: string | null): void {
    this.enqueue(eventId, () => this.applyUpdate(settings));
  }

  /** `pcm`: the samples at the session's rate, as the client sent them. */
  append(pcm: Int16Array, eventId: string | null): void {
    const rate = this.state.rate;
    const seconds = pcm.length / rate;
    if (this.backlog + seconds > MAX_BACKLOG_SECONDS)
      return this.reject(
        new LiveFailure(
          'rate_limit_error',
          'audio_backlog',
          `Audio is arriving faster than it can be transcribed (${Math.round(this.backlog)} s are waiting), so this append was dropped. Send audio at the pace it is recorded.`,
          'audio',
        ),
        eventId,
      );
    this.backlog += seconds;
    this.enqueue(null, async () => {
      try {
        await this.hear(rate === 16000 ? pcm : (this.resampler ??= new Resampler24To16()).push(pcm));
      } finally {
        this.backlog -= seconds;
      }
    });
  }

  commit(eventId: string | null): void {
    this.enqueue(eventId, async () => {
      if (!this.turn || this.turn.samples === 0)
        throw invalid(
          'input_audio_buffer_commit_empty',
          'Error committing input audio buffer: the buffer is empty. Append audio before committing.',
        );
      this.detector?.reset();
      await this.finishTurn(this.received, false);
    });
  }

  clear(eventId: string | null): void {
    this.enqueue(eventId, async () => {
      const turn = this.turn;
      this.turn = null;
      this.detector?.reset();
      this.recent = [];
      this.recentSamples = 0;
      this.unscored = new Int16Array(0);
      if (turn) {
        // A fresh decoder state for the next turn: the open utterance is dropped with its stream.
        const stream = this.stream;
        this.stream = null;
        await (await stream?.catch(() => null))?.close();
        this.stream = this.openStream();
      }
      this.emit({ type: 'input_audio_buffer.cleared' });
    });
  }

  /** The client went away: everything is freed, nothing more is sent. */
  disconnected(): Promise<void> {
    return this.finish();
  }

  /** Ends the session with an error event and a close code (limits, shutdown). */
  async end(failure: LiveFailure, code: number): Promise<void> {
    if (this.closed) return this.finished ?? undefined;
    this.emit({ type: 'error', error: errorOf(failure, null) });
    this.sink.close(code, failure.code);
    await this.finish();
  }

  private finish(): Promise<void> {
    if (this.finished) return this.finished;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.lifeTimer) clearTimeout(this.lifeTimer);
    this.onEnd();
    // After the step in progress (a native call may be using the decoder, or opening the next one).
    this.finished = this.chain.then(async () => {
      const stream = this.stream;
      this.stream = null;
      await (await stream?.catch(() => null))?.close();
      await this.saveRecording();
    });
    return this.finished;
  }

  private armIdle(): void {
    if (this.closed) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const seconds = this.owner.config.idleTimeoutSeconds;
    this.idleTimer = setTimeout(
      () =>
        void this.end(
          invalid(
            'idle_timeout',
            `Nothing was received for ${seconds} s, so the session was ended. Keep sending audio (silence included) while the session is open.`,
          ),
          CLOSE.normal,
        ),
      seconds * 1000,
    );
    this.idleTimer.unref();
  }

  private emit(event: LiveServerEvent): void {
    if (this.closed && event.type !== 'error') return;
    this.sink.send({ ...event, event_id: id('event') });
  }

  /** Runs `step` after the previous ones; a LiveFailure becomes an error event naming the client event. */
  private enqueue(eventId: string | null, step: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await step();
      } catch (error) {
        if (this.closed) return;
        this.reject(error instanceof LiveFailure ? error : this.unexpected(error), eventId);
      }
    });
  }

  private openStream(): Promise<RecognitionStream> {
    const opening = this.recognizer.openStream({ language: this.state.language, vocabulary: this.vocabulary });
    opening.catch(() => undefined); // reported where it is awaited
    this.streamStale = false;
    return opening;
  }

  /** The stream for a new turn: reopened when the vocabulary changed or the last one failed. */
  private async streamForTurn(): Promise<RecognitionStream> {
    if (this.streamStale || !this.stream) {
      const old = this.stream;
      this.stream = null;
      await (await old?.catch(() => null))?.close();
      this.stream = this.openStream();
    }
    try {
      return await this.stream;
    } catch (error) {
      this.stream = null; // the next turn tries again
      throw recognizerFailure(error);
    }
  }

  private async applyUpdate(settings: LiveSessionSettings): Promise<void> {
    const input = settings.audio?.input;
    const next: SessionState = { ...this.state };
    if (input?.format) next.rate = input.format.rate ?? 24000;
    const t = input?.transcription;
    let recognizer = this.recognizer;
    if (t?.language !== undefined) {
      const language = t.language.trim().toLowerCase();
      const chosen = language ? this.owner.recognizerFor(language) : this.owner.recognizers()[0];
      if (!chosen)
        throw invalid(
          'unsupported_language',
          `Live transcription on this server recognizes ${this.owner.liveLanguages().join(', ')}; "${t.language}" is not among them. Leave language out, or upload the recording to /v1/audio/transcriptions.`,
          `${TRANSCRIPTION_PARAM}.language`,
        );
      recognizer = chosen;
      next.language = language || chosen.liveLanguages[0]!;
    }
    // The model names the recognizer unless the client named one (its name is echoed, as OpenAI's is).
    if (t?.model !== undefined) next.model = t.model.trim() || recognizer.liveModel;
    else if (recognizer !== this.recognizer && next.model === this.recognizer.liveModel)
      next.model = recognizer.liveModel;
    if (t?.prompt !== undefined) next.prompt = t.prompt;
    if (input && 'turn_detection' in input) {
      const td = input.turn_detection;
      next.vad = td
        ? {
            threshold: td.threshold ?? DEFAULT_VAD.threshold,
            prefix_padding_ms: td.prefix_padding_ms ?? DEFAULT_VAD.prefix_padding_ms,
            silence_duration_ms: td.silence_duration_ms ?? DEFAULT_VAD.silence_duration_ms,
          }
        : null;
    }
    if (settings.include !== undefined) next.include = settings.include;
    if (settings.words !== undefined) {
      next.words = settings.words.map((w) =>
        typeof w === 'string' ? { word: w, reading: null } : { word: w.word, reading: w.reading ?? null },
      );
      try {
        checkReadings(next.words, (i) => `words.${i}`);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw invalid('invalid_value', error.message, `session.${error.field}`);
      }
    }
    let rules = this.rules;
    let dictionaryWords: VocabularyWord[] | null = null;
    if (settings.dictionary_id !== undefined) {
      next.dictionaryId = settings.dictionary_id;
      rules = [];
      dictionaryWords = [];
      if (settings.dictionary_id !== null) {
        const { dictionaries } = this.owner.ctx;
        const dictionary = await dictionaries.get(this.caller.teamId, settings.dictionary_id);
        if (!dictionary)
          throw invalid(
            'dictionary_not_found',
            `No dictionary with id "${settings.dictionary_id}" in your team.`,
            'session.dictionary_id',
          );
        const [words, found] = await Promise.all([
          dictionaries.words(dictionary.dictionaryId),
          dictionaries.replacementRules(dictionary.dictionaryId),
        ]);
        dictionaryWords = words.map((w) => ({ word: w.word, reading: w.reading }));
        rules = found.map((r) => ({ pattern: r.pattern, replacement: r.replacement }));
      }
    }
    if (settings.save === false && this.recording)
      throw invalid(
        'invalid_value',
        "save cannot be turned off once on: the session's audio is becoming a transcription. Delete that transcription if it is not wanted.",
        'session.save',
      );
    if (settings.save !== undefined) next.save = settings.save;
    if (settings.recognize_speakers !== undefined) next.recognizeSpeakers = settings.recognize_speakers;
    const startRecording = next.save && !this.recording && !this.closed;
    const recording = startRecording ? await this.startRecording(next) : null;
    if (this.closed) {
      if (recording) await this.discard(recording);
      return;
    }
    if (recording) this.recording = recording;
    // Applied whole, only once every part was accepted.
    const vocabularyBefore = JSON.stringify([this.state.language, this.vocabulary]);
    if (recognizer !== this.recognizer) this.streamStale = true;
    this.recognizer = recognizer;
    const changedFormat = next.rate !== this.state.rate;
    const changedVad = JSON.stringify(next.vad) !== JSON.stringify(this.state.vad);
    this.state = next;
    this.rules = rules;
    this.voices = null;
    if (dictionaryWords !== null) this.dictionaryWords = dictionaryWords;
    this.vocabulary = [...this.dictionaryWords, ...next.words, ...promptVocabulary(next.prompt)];
    if (JSON.stringify([next.language, this.vocabulary]) !== vocabularyBefore) this.streamStale = true;
    if (changedFormat) this.resampler = null;
    if (changedVad) {
      this.detector = null;
      this.scorer = null;
      this.unscored = new Int16Array(0);
    }
    this.emit({ type: 'session.updated', session: this.view() });
  }

  private view(): LiveSessionView {
    const s = this.state;
    return {
      type: 'transcription',
      object: 'realtime.transcription_session',
      id: this.id,
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: s.rate },
          transcription: { model: s.model, language: s.language, prompt: s.prompt },
          turn_detection: s.vad ? { type: 'server_vad', ...s.vad } : null,
          noise_reduction: null,
        },
      },
      include: s.include,
      dictionary_id: s.dictionaryId,
      words: s.words,
      save: s.save,
      recognize_speakers: s.recognizeSpeakers,
      transcription_id: this.recording?.transcriptionId ?? null,
    };
  }

  /**
   * `save`: the ticket is made now, as an upload's would be (the caller's options and the team's quota
   * checked once, in createUploadTicket), so the client learns the transcription's id while connected;
   * the audio is written to the work dir as it is heard, and stored and started when the session ends.
   */
  private async startRecording(state: SessionState): Promise<Recording> {
    const { ctx } = this.owner;
    let record;
    try {
      record = await createUploadTicket(ctx, this.caller, {
        filename: `Live session ${new Date().toISOString().slice(0, 19).replace('T', ' ')}.wav`,
        dictionaryId: state.dictionaryId,
        languages: [state.language],
        model: 'default',
        speakers: { numSpeakers: null, minSpeakers: null, maxSpeakers: null },
        // A dictionary brings its own words; ad-hoc words alone become the ticket's temporary dictionary.
        words: state.dictionaryId ? [] : state.words,
        recognizeSpeakers: state.recognizeSpeakers,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'QUOTA_EXCEEDED') throw invalid('insufficient_quota', error.message, 'session.save');
      throw invalid('invalid_value', error.message, 'session.save');
    }
    const dir = path.join(ctx.config.dataDir, 'work');
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `live-${this.id}.pcm`);
    const out = fs.createWriteStream(file, { mode: 0o600 });
    out.on('error', (error) => this.logger.error({ err: error, session: this.id }, 'live recording write failed'));
    return { transcriptionId: record.transcriptionId, file, out, bytes: 0 };
  }

  private async discard(recording: Recording): Promise<void> {
    recording.out.end();
    await finished(recording.out).catch(() => undefined);
    await fsp.rm(recording.file, { force: true });
  }

  /** The session ended: its recorded audio becomes the transcription's upload, and the transcription starts. */
  private async saveRecording(): Promise<void> {
    const recording = this.recording;
    if (!recording) return;
    this.recording = null;
    const { ctx } = this.owner;
    try {
      recording.out.end();
      await finished(recording.out);
      const record = await ctx.transcriptions.getById(recording.transcriptionId);
      if (!record) return;
      if (recording.bytes === 0) {
        await ctx.service.end(record.transcriptionId, { status: 'CANCELLED' });
        return;
      }
      const body = Readable.from(
        (async function* () {
          yield wavHeader(recording.bytes);
          yield* fs.createReadStream(recording.file);
        })(),
      );
      await storeUploadedAudio(ctx, record, {
        body,
        declaredBytes: 44 + recording.bytes,
        contentType: 'audio/wav',
        expectedSha256: undefined,
      });
      const stored = await ctx.transcriptions.getById(record.transcriptionId);
      if (stored) await ctx.service.start(stored);
    } catch (error) {
      this.logger.error(
        { err: error, session: this.id, transcription_id: recording.transcriptionId },
        'could not save the live session as a transcription',
      );
    } finally {
      await fsp.rm(recording.file, { force: true });
    }
  }

  /** 16 kHz audio from the client, in order. */
  private async hear(samples: Int16Array): Promise<void> {
    if (samples.length === 0) return;
    if (this.recording) {
      const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
      this.recording.bytes += bytes.length;
      this.recording.out.write(bytes);
    }
    if (!this.state.vad) {
      // Turns are the client's: everything between commits is one turn.
      if (!this.turn) await this.beginTurn(this.received, [], false);
      this.received += samples.length;
      await this.feed([samples]);
      return;
    }
    const vad = this.state.vad;
    this.detector ??= new TurnDetector({
      threshold: vad.threshold,
      silenceSamples: (vad.silence_duration_ms * SAMPLE_RATE) / 1000,
      maxTurnSamples: MAX_TURN_SECONDS * SAMPLE_RATE,
    });
    this.scorer ??= this.owner.vad.scorer();
    let scorer;
    try {
      scorer = await this.scorer;
    } catch (error) {
      this.scorer = null;
      this.logger.warn({ detail: operatorMessage(error), session: this.id }, 'live server VAD unavailable');
      throw new LiveFailure(
        'server_error',
        'engine_unavailable',
        'Server VAD cannot run on this server. Send turn_detection: null and commit each turn yourself.',
        'session.audio.input.turn_detection',
      );
    }
    const all = new Int16Array(this.unscored.length + samples.length);
    all.set(this.unscored);
    all.set(samples, this.unscored.length);
    // The clock counts scored windows: the samples of `unscored` are not yet placed in a turn.
    const probability = new Float32Array(1);
    const toFeed: Int16Array[] = [];
    let at = 0;
    for (; at + SILERO_WINDOW <= all.length; at += SILERO_WINDOW) {
      if (this.closed) return;
      const window = all.subarray(at, at + SILERO_WINDOW);
      await scorer.score(window, probability, 0);
      const start = this.received;
      this.received += SILERO_WINDOW;
      const decision = this.detector.push(probability[0]!, start, this.received);
      if (!this.turn) {
        this.remember(window);
        if (decision === 'start') {
          const padding = (vad.prefix_padding_ms * SAMPLE_RATE) / 1000;
          const from = Math.max(this.lastTurnEnd, this.received - this.recentSamples, start - padding);
          const prefix = this.takeRecent(this.received - from);
          await this.beginTurn(from, prefix, true);
        }
        continue;
      }
      const turn = this.turn;
      if (decision === 'stop') {
        if (!turn.held) await this.feed([...toFeed.splice(0), window.slice()]);
        await this.finishTurn(this.received, true);
        continue;
      }
      if (turn.held) {
        if (this.detector.silence > 0) turn.held.windows.push(window.slice());
        else await this.resumeUtterance(turn, [...turn.held.windows, window.slice()], turn.held.start);
        continue;
      }
      toFeed.push(window.slice());
      const earlyEnd = (Math.min(EARLY_END_MS, vad.silence_duration_ms / 2) * SAMPLE_RATE) / 1000;
      if (this.detector.silence >= earlyEnd) {
        await this.feed(toFeed.splice(0));
        await this.endUtteranceEarly(turn);
      }
    }
    this.unscored = all.slice(at);
    if (this.turn && toFeed.length > 0) await this.feed(toFeed);
  }

  private remember(window: Int16Array): void {
    this.recent.push(window.slice());
    this.recentSamples += window.length;
    const keep = (2000 * SAMPLE_RATE) / 1000;
    while (this.recentSamples - this.recent[0]!.length >= keep) this.recentSamples -= this.recent.shift()!.length;
  }

  /** The last `count` samples heard before the turn. */
  private takeRecent(count: number): Int16Array[] {
    const out: Int16Array[] = [];
    let need = count;
    for (let i = this.recent.length - 1; i >= 0 && need > 0; i--) {
      const chunk = this.recent[i]!;
      out.unshift(chunk.length <= need ? chunk : chunk.subarray(chunk.length - need));
      need -= chunk.length;
    }
    this.recent = [];
    this.recentSamples = 0;
    return out;
  }

  private async beginTurn(startSample: number, prefix: Int16Array[], announce: boolean): Promise<void> {
    const turn: Turn = {
      itemId: id('item'),
      startSample,
      samples: 0,
      words: [],
      held: null,
      sent: [],
      previous: [],
      audio: (await this.enrolledVoices()).length > 0 ? [] : null,
    };
    this.turn = turn;
    if (announce)
      this.emit({
        type: 'input_audio_buffer.speech_started',
        audio_start_ms: Math.round((startSample * 1000) / SAMPLE_RATE),
        item_id: turn.itemId,
      });
    try {
      const stream = await this.streamForTurn();
      stream.startUtterance(startSample / SAMPLE_RATE);
    } catch (error) {
      this.turn = null;
      this.failTurn(turn, error);
      return;
    }
    if (prefix.length > 0) await this.feed(prefix);
  }

  /** Audio of the open turn to the decoder, then any newly agreed words as a delta. */
  private async feed(chunks: Int16Array[]): Promise<void> {
    const turn = this.turn;
    if (!turn || chunks.length === 0) return;
    const samples = chunks.length === 1 ? chunks[0]! : concat(chunks);
    try {
      const stream = await this.stream;
      if (!stream || this.closed) return;
      await stream.feed(samples);
      turn.samples += samples.length;
      turn.audio?.push(samples);
      if (this.closed) return;
      this.sendAgreed(turn, this.replaced([...turn.words.map((w) => w.word), ...stream.partial()]));
    } catch (error) {
      this.turn = null;
      this.streamStale = true;
      this.failTurn(turn, error);
    }
  }

  /** A pause in the turn: the decoder's utterance ends now, and the silence that follows is held. */
  private async endUtteranceEarly(turn: Turn): Promise<void> {
    if (this.turn !== turn) return; // the feed before failed
    try {
      const stream = await this.stream;
      if (!stream || this.closed) return;
      turn.held = { start: this.received, windows: [] };
      turn.words.push(...(await stream.endUtterance()));
    } catch (error) {
      this.turn = null;
      this.streamStale = true;
      this.failTurn(turn, error);
    }
  }

  /** Speech again before the turn ended: the next utterance of the turn, from the silence held since the pause. */
  private async resumeUtterance(turn: Turn, windows: Int16Array[], startSample: number): Promise<void> {
    turn.held = null;
    try {
      const stream = await this.stream;
      if (!stream || this.closed) return;
      stream.startUtterance(startSample / SAMPLE_RATE);
    } catch (error) {
      this.turn = null;
      this.streamStale = true;
      this.failTurn(turn, error);
      return;
    }
    await this.feed(windows);
  }

  /**
   * Deltas only grow: a word is sent once two partial hypotheses in a row agree on it and it is not the
   * last one (the last word is still being heard). A hypothesis that revises words already sent sends
   * nothing; the turn's `.completed` transcript is what counts.
   */
  private sendAgreed(turn: Turn, hypothesis: string[]): void {
    let agreed = 0;
    const limit = Math.min(hypothesis.length - 1, turn.previous.length);
    while (agreed < limit && hypothesis[agreed] === turn.previous[agreed]) agreed++;
    turn.previous = hypothesis;
    if (agreed <= turn.sent.length || !turn.sent.every((w, i) => hypothesis[i] === w)) return;
    const fresh = hypothesis.slice(turn.sent.length, agreed);
    this.emit({
      type: 'conversation.item.input_audio_transcription.delta',
      item_id: turn.itemId,
      content_index: 0,
      delta: (turn.sent.length > 0 ? ' ' : '') + joinWords(fresh.map(asWord), this.state.language),
    });
    turn.sent = hypothesis.slice(0, agreed);
  }

  private async finishTurn(endSample: number, detected: boolean): Promise<void> {
    const turn = this.turn;
    if (!turn) return;
    this.turn = null;
    this.lastTurnEnd = endSample;
    if (detected)
      this.emit({
        type: 'input_audio_buffer.speech_stopped',
        audio_end_ms: Math.round((endSample * 1000) / SAMPLE_RATE),
        item_id: turn.itemId,
      });
    this.emit({ type: 'input_audio_buffer.committed', item_id: turn.itemId, previous_item_id: this.previousItemId });
    this.previousItemId = turn.itemId;
    const words = turn.words;
    try {
      const stream = await this.stream;
      if (!stream || this.closed) return;
      if (!turn.held) words.push(...(await stream.endUtterance()));
    } catch (error) {
      this.streamStale = true;
      this.failTurn(turn, error);
      return;
    }
    const final = this.replacedWords(words);
    const transcript = joinWords(final, this.state.language);
    const sentText = joinWords(turn.sent.map(asWord), this.state.language);
    if (transcript.startsWith(sentText) && transcript.length > sentText.length)
      this.emit({
        type: 'conversation.item.input_audio_transcription.delta',
        item_id: turn.itemId,
        content_index: 0,
        delta: transcript.slice(sentText.length),
      });
    const speaker = await this.recognizeVoice(turn);
    if (this.closed) return;
    this.emit({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: turn.itemId,
      content_index: 0,
      transcript,
      usage: { type: 'duration', seconds: round((endSample - turn.startSample) / SAMPLE_RATE) },
      words: final.map((w) => ({ word: w.word, start: w.start, end: w.end, confidence: w.confidence })),
      ...speaker,
    });
  }

  /** The team's enrolled voices when this session names speakers; none otherwise, or when they cannot be read. */
  private enrolledVoices(): Promise<EnrolledVoice[]> {
    if (!this.state.recognizeSpeakers) return Promise.resolve([]);
    this.voices ??= this.owner.ctx.voices.enrolled(this.caller.teamId).catch((error: unknown) => {
      this.logger.warn({ err: error, session: this.id }, 'live session could not read the voice library');
      this.voices = null; // asked again at the next turn
      return [];
    });
    return this.voices;
  }

  /**
   * The enrolled voice that spoke the turn, by the same prints and threshold as a transcription's speakers
   * (decision 0065): the turn is one speaker, as a turn of server VAD or a commit is. A name is a bonus, so a
   * failure leaves the turn unnamed and is logged, never sent.
   */
  private async recognizeVoice(turn: Turn): Promise<LiveTurnSpeaker | Record<string, never>> {
    const voices = turn.audio ? await this.enrolledVoices() : [];
    if (!turn.audio || turn.audio.length === 0 || voices.length === 0) return {};
    const { ctx } = this.owner;
    const pcm = concat(turn.audio);
    turn.audio = null;
    const dir = path.join(ctx.config.dataDir, 'work');
    const file = path.join(dir, `live-${this.id}-${turn.itemId}.pcm`);
    try {
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      await fsp.writeFile(file, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), { mode: 0o600 });
      const turnOnly = [{ start: 0, end: pcm.length / SAMPLE_RATE, speaker: turn.itemId }];
      const found = (await ctx.voicePrints.recognize(file, turnOnly, voices, AbortSignal.timeout(10_000))).get(
        turn.itemId,
      );
      return found
        ? { speaker_id: found.speakerId, speaker_name: found.name, speaker_confidence: found.confidence }
        : {};
    } catch (error) {
      this.logger.warn({ err: error, session: this.id }, 'live voice recognition failed');
      return {};
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  private failTurn(turn: Turn, error: unknown): void {
    const failure = recognizerFailure(error);
    if (!(error instanceof LiveFailure))
      this.logger.error({ err: error, detail: operatorMessage(error), session: this.id }, 'live recognition failed');
    this.emit({
      type: 'conversation.item.input_audio_transcription.failed',
      item_id: turn.itemId,
      content_index: 0,
      error: { type: failure.type, code: failure.code, message: failure.message, param: failure.param },
    });
  }

  /** The team's forced replacements, on words as recognized (the same code as every transcript). */
  private replacedWords(words: RecognizedWord[]): RecognizedWord[] {
    if (this.rules.length === 0 || words.length === 0) return words;
    const segment = { id: 0, start: 0, end: 0, speaker: null, text: '', words };
    return applyReplacements([segment], this.rules, this.state.language).segments[0]!.words;
  }

  private replaced(partial: string[]): string[] {
    return this.replacedWords(partial.map(asWord)).map((w) => w.word);
  }
}

function asWord(word: string): RecognizedWord {
  return { word, start: 0, end: 0, confidence: null };
}

function concat(chunks: Int16Array[]): Int16Array {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** An engine's failure as the client reads it: its user-facing message; the detail stays in the log. */
function recognizerFailure(error: unknown): LiveFailure {
  if (error instanceof LiveFailure) return error;
  if (isEngineError(error, 'unavailable')) return new LiveFailure('server_error', 'engine_unavailable', error.message);
  if (isEngineError(error, 'unsupported'))
    return error.field === 'language'
      ? invalid('unsupported_language', error.message, `${TRANSCRIPTION_PARAM}.language`)
      : invalid('invalid_value', error.message, TRANSCRIPTION_PARAM);
  return new LiveFailure(
    'server_error',
    'transcription_failed',
    'This turn could not be transcribed. The session goes on; speak again or commit the next turn.',
  );
}

export function errorOf(failure: LiveFailure, clientEventId: string | null): LiveError {
  return {
    type: failure.type,
    code: failure.code,
    message: failure.message,
    param: failure.param,
    event_id: clientEventId,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const registries = new WeakMap<object, LiveTranscriptions>();

/** The live sessions of an app context (one per server process). */
export function liveTranscriptionsOf(ctx: AppContext): LiveTranscriptions {
  let live = registries.get(ctx);
  if (!live) registries.set(ctx, (live = new LiveTranscriptions(ctx, ctx.config.live)));
  return live;
}
