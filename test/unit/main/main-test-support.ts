// Light helpers for the main-process tests: clients, event recorders, polling. The helpers that make speech or
// transcriptions on a real server are in test/integration/main/main-test-support.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { IpcEvent, IpcEvents } from '../../../src-shared/ipc-contract.js';
import { ApiClient, type ApiClientOptions } from '../../../src-main/api-client/api-client.js';
import type { EventSink } from '../../../src-main/event-sink.js';
import type { UserNotification } from '../../../src-main/host-capabilities.js';

/** A copy of `file` in `dir` under `name` (uploads are keyed by path, so tests use their own copies). */
export function copyAs(file: string, dir: string, name: string): string {
  const target = path.join(dir, name);
  fs.copyFileSync(file, target);
  return target;
}

export function clientOf(server: { url: string }, key: string, options: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    connection: () => ({ baseUrl: server.url, apiKey: key }),
    retry: { retries: 2, baseDelayMs: 20, maxDelayMs: 50 },
    ...options,
  });
}

export interface RecordedEvent<E extends IpcEvent = IpcEvent> {
  event: E;
  payload: IpcEvents[E];
}

/** An EventSink that records and lets a test wait for an event matching a predicate. */
export function eventRecorder() {
  const events: RecordedEvent[] = [];
  const waiters: Array<{ event: IpcEvent; test: (payload: any) => boolean; resolve: (payload: any) => void }> = [];
  const emit: EventSink = (event, payload) => {
    events.push({ event, payload });
    for (const waiter of [...waiters]) {
      if (waiter.event === event && waiter.test(payload)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(payload);
      }
    }
  };
  return {
    emit,
    events,
    of<E extends IpcEvent>(event: E): Array<IpcEvents[E]> {
      return events.filter((e) => e.event === event).map((e) => e.payload as IpcEvents[E]);
    },
    /** Resolves with the first matching event, past or future. */
    next<E extends IpcEvent>(event: E, test: (payload: IpcEvents[E]) => boolean = () => true): Promise<IpcEvents[E]> {
      const past = events.find((e) => e.event === event && test(e.payload as IpcEvents[E]));
      if (past) return Promise.resolve(past.payload as IpcEvents[E]);
      return new Promise((resolve) => waiters.push({ event, test, resolve }));
    },
    /** Like next(), but only events emitted from now on. */
    upcoming<E extends IpcEvent>(
      event: E,
      test: (payload: IpcEvents[E]) => boolean = () => true,
    ): Promise<IpcEvents[E]> {
      return new Promise((resolve) => waiters.push({ event, test, resolve }));
    },
  };
}

/** Records notifications: what the notifier shows (the default), or the events services raise (NotificationEvent). */
export function notificationRecorder<N = UserNotification>() {
  const notifications: N[] = [];
  const waiters: Array<(n: N) => void> = [];
  return {
    notifications,
    notifier: {
      notify(n: N) {
        notifications.push(n);
        for (const w of waiters.splice(0)) w(n);
      },
    },
    next(): Promise<N> {
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/** Polls a condition (a state, not a sleep) until it holds; the test timeout bounds it. */
export async function until<T>(
  probe: () => T | Promise<T>,
  intervalMs = 50,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A loopback port with nothing listening: "offline". */
export async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise((resolve) => s.close(resolve));
  return url;
}
