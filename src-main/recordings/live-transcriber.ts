// Live text while recording (decision 0073): main holds one Realtime session (GET /v1/realtime, decision
// 0063) per recording with the active profile's server, feeds it the renderer's 16 kHz PCM and reports the
// text heard so far. Live text is a preview only: the recording is kept on disk as before, so a dropped
// connection pauses the preview (audio sent meanwhile is not transcribed live) and loses nothing; the
// saved transcription made from the file after Stop replaces it.
import WebSocket from 'ws';
import type { LiveText, LiveTextState, LiveTurnText } from '../../src-shared/ipc-contract.js';
import type { LiveServerEvent, LiveSessionSettings } from '../../src-shared/api/realtime.js';
import { backoffDelay, type RetryPolicy } from '../../src-shared/backoff.js';
import type { ConnectionProvider } from '../api-client/api-client.js';

export interface LiveTranscriberOptions {
  recordingId: string;
  connection: ConnectionProvider;
  /** Spoken language (an ISO code); null lets the server choose. */
  language: string | null;
  dictionaryId: string | null;
  onText: (text: LiveText) => void;
  retry?: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
}

/** The engines' own rate: no resampling on the server. */
export const LIVE_PCM_RATE = 16000;
/** Audio waiting in the socket beyond this (about 4 s) is dropped rather than queued: live text must stay live. */
const MAX_BUFFERED_BYTES = LIVE_PCM_RATE * 2 * 4;
/**
 * Audio recorded while the first session is still opening is held (up to about 10 s, then the oldest goes)
 * and sent once the server is live: dropped, the first words were lost and live text began mid-word.
 */
const MAX_OPENING_BYTES = LIVE_PCM_RATE * 2 * 10;
const RETRY = { baseDelayMs: 500, maxDelayMs: 10_000 };
/**
 * A turn that starts this close to the start of a resumed session's audio was already being spoken when
 * the connection came back (the server pads 300 ms before speech): its first words are cut, so it is shown
 * after an ellipsis rather than as a sentence that begins there.
 */
const CUT_TURN_MS = 400;
/** HTTP answers to the upgrade that retrying will not change: no live endpoint, or the key is refused. */
const FINAL_STATUSES = new Set([401, 403, 404, 405, 426, 501]);

export class LiveTranscriber {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private state: LiveTextState = 'connecting';
  private readonly finals: LiveTurnText[] = [];
  /** Connections opened so far; after the first, a turn at the very start of the audio is cut (CUT_TURN_MS). */
  private connections = 0;
  private readonly cutTurns = new Set<string>();
  /** Text of turns not yet completed, by item id (deltas append to it). */
  private readonly partials = new Map<string, string>();
  /** Audio pushed before the first session went live (MAX_OPENING_BYTES); null once it has. */
  private opening: Buffer[] | null = [];
  private openingBytes = 0;

  constructor(private readonly options: LiveTranscriberOptions) {
    this.connect();
  }

  /** PCM16 little-endian mono at 16 kHz; dropped while the connection is down. */
  push(pcm: Buffer): void {
    if (this.opening && !this.closed) return this.hold(pcm);
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.state !== 'live') return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    this.send(pcm);
  }

  private send(pcm: Buffer): void {
    this.socket?.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') }));
  }

  /** Ends the session (Stop or Discard); no more text is reported. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = null;
  }

  private hold(pcm: Buffer): void {
    const opening = this.opening!;
    opening.push(Buffer.from(pcm));
    this.openingBytes += pcm.length;
    while (this.openingBytes > MAX_OPENING_BYTES && opening.length > 1) this.openingBytes -= opening.shift()!.length;
  }

  private connect(): void {
    if (this.closed) return;
    const connection = this.options.connection();
    if ('unavailable' in connection) return this.retryLater();
    const url = new URL(connection.baseUrl.replace(/\/+$/, '') + '/v1/realtime');
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('intent', 'transcription');
    const socket = new WebSocket(url, { headers: { 'x-api-key': connection.apiKey }, handshakeTimeout: 10_000 });
    this.socket = socket;
    this.connections++;
    let answered = false;
    socket.on('unexpected-response', (_request, response) => {
      answered = true;
      const status = response.statusCode ?? 0;
      response.resume();
      socket.terminate();
      if (FINAL_STATUSES.has(status)) this.giveUp();
    });
    socket.on('open', () => {
      const session: LiveSessionSettings = {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: LIVE_PCM_RATE },
            transcription: this.options.language ? { language: this.options.language } : {},
            turn_detection: { type: 'server_vad' },
          },
        },
        ...(this.options.dictionaryId ? { dictionary_id: this.options.dictionaryId } : {}),
      };
      socket.send(JSON.stringify({ type: 'session.update', session }));
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary || socket !== this.socket) return;
      let event: LiveServerEvent;
      try {
        // binaryType is the default 'nodebuffer': one Buffer per text frame.
        event = JSON.parse((data as Buffer).toString('utf8')) as LiveServerEvent;
      } catch {
        return;
      }
      this.receive(event);
    });
    // Errors are followed by 'close'; the close decides what happens next.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (socket !== this.socket || this.closed) return;
      this.socket = null;
      if (answered && this.state === 'unavailable') return;
      this.retryLater();
    });
  }

  private receive(event: LiveServerEvent): void {
    switch (event.type) {
      case 'session.updated': {
        this.attempt = 0;
        this.setState('live');
        // All of it, past MAX_BUFFERED_BYTES: it is bounded, and a gap in the first words is what it avoids.
        for (const pcm of this.opening ?? []) this.send(pcm);
        this.opening = null;
        this.openingBytes = 0;
        return;
      }
      case 'input_audio_buffer.speech_started':
        if (this.connections > 1 && event.audio_start_ms < CUT_TURN_MS) this.cutTurns.add(event.item_id);
        return;
      case 'conversation.item.input_audio_transcription.delta':
        this.partials.set(event.item_id, (this.partials.get(event.item_id) ?? '') + event.delta);
        return this.report();
      case 'conversation.item.input_audio_transcription.completed': {
        this.partials.delete(event.item_id);
        const text = event.transcript.trim();
        if (text)
          this.finals.push({
            text: this.cutTurns.has(event.item_id) ? `… ${text}` : text,
            speaker: event.speaker_name ?? null,
          });
        this.cutTurns.delete(event.item_id);
        return this.report();
      }
      case 'conversation.item.input_audio_transcription.failed':
        this.partials.delete(event.item_id);
        this.cutTurns.delete(event.item_id);
        return this.report();
      case 'error':
        // The session's settings were refused (the language, the dictionary): this server cannot serve
        // this recording live, and asking again would be refused the same way.
        if (this.state !== 'live' && event.error.type === 'invalid_request_error') {
          this.giveUp();
          this.socket?.close(1000);
        }
        return;
      default:
        return;
    }
  }

  private retryLater(): void {
    if (this.closed || this.state === 'unavailable') return;
    // Turns cut off by the drop will never complete.
    this.partials.clear();
    // Audio held for a first session that did not open is stale by the time another does: it goes, as
    // audio sent during any drop does.
    this.opening = null;
    this.openingBytes = 0;
    this.setState('paused');
    const delay = backoffDelay(this.attempt++, this.options.retry ?? RETRY);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  private giveUp(): void {
    this.partials.clear();
    this.opening = null;
    this.openingBytes = 0;
    this.setState('unavailable');
  }

  private setState(state: LiveTextState): void {
    if (this.state === state) return;
    this.state = state;
    this.report();
  }

  private report(): void {
    if (this.closed) return;
    this.options.onText({
      id: this.options.recordingId,
      state: this.state,
      finals: [...this.finals],
      partial: [...this.partials]
        .map(([item, text]) => (this.cutTurns.has(item) && text.trim() ? `… ${text.trim()}` : text))
        .join(' ')
        .trim(),
    });
  }
}
