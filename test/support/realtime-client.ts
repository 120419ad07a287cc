// A plain client of GET /v1/realtime for tests (no TLS, `ws`): every event it received, in order, and a way
// to wait for the next one that matches. The official client's tests feed the same Inbox.
import WebSocket from 'ws';

export type RealtimeEvent = { type: string; [key: string]: any };

/** Every event a connection received, in order, and a way to wait for the next one that matches. */
export class Inbox {
  readonly events: RealtimeEvent[] = [];
  /** When each event arrived (ms), for the report's figures; never asserted. */
  readonly arrivals: number[] = [];
  private waiters: { from: number; match: (e: RealtimeEvent) => boolean; resolve: (e: RealtimeEvent) => void }[] = [];

  push(event: RealtimeEvent): void {
    this.events.push(event);
    this.arrivals.push(performance.now());
    this.waiters = this.waiters.filter((w) => {
      if (this.events.length - 1 < w.from || !w.match(event)) return true;
      w.resolve(event);
      return false;
    });
  }

  /** The first event (at or after index `from`) matching; waits for it if it has not arrived. */
  next(match: (e: RealtimeEvent) => boolean, from = 0): Promise<RealtimeEvent> {
    const found = this.events.slice(from).find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ from, match, resolve }));
  }

  ofType(type: string): Promise<RealtimeEvent> {
    return this.next((e) => e.type === type);
  }
}

/** A WebSocket to a server's /v1/realtime (`serverUrl` is its http:// URL) with these upgrade headers. */
export function realtimeClient(serverUrl: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/v1/realtime?intent=transcription`, { headers });
  const inbox = new Inbox();
  socket.on('message', (data) => inbox.push(JSON.parse((data as Buffer).toString('utf8')) as RealtimeEvent));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const send = (event: unknown) => socket.send(typeof event === 'string' ? event : JSON.stringify(event));
  return { socket, inbox, closed, send };
}

/**
 * A `session.update` for a transcription session of 16 kHz PCM (the engines' rate, no resampling):
 * `language` when given, `turnDetection` (null: the client commits turns), and any extension fields.
 */
export function transcriptionUpdate(options: {
  language?: string;
  turnDetection: Record<string, unknown> | null;
  extra?: Record<string, unknown>;
}) {
  return {
    type: 'session.update',
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 16000 },
          ...(options.language === undefined ? {} : { transcription: { language: options.language } }),
          turn_detection: options.turnDetection,
        },
      },
      ...options.extra,
    },
  };
}
