// The test host's stand-in for the preload: defines window.kikitori with the same shape (built from
// the IPC contract by the same builder), carrying calls over HTTP and events over Server-Sent Events.
// Loaded as a classic script before the app, as the preload runs before the page.
import type { FileOffer, IpcEvent, IpcResult } from '../../../src-shared/ipc-contract.js';
import { buildKikitoriApi } from '../../../src-preload/build-api.js';

const listeners = new Map<string, Set<(payload: unknown) => void>>();
const events = new EventSource('/events');
events.onmessage = (message) => {
  const { event, payload } = JSON.parse(message.data) as { event: IpcEvent; payload: unknown };
  listeners.get(event)?.forEach((listener) => listener(payload));
};

async function post<T>(url: string, body: BodyInit, contentType: string): Promise<IpcResult<T>> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
    return (await response.json()) as IpcResult<T>;
  } catch (error) {
    return {
      ok: false,
      error: { code: 'internal', reason: 'app.internal', detail: `Test host unreachable: ${String(error)}` },
    };
  }
}

(window as unknown as { kikitori: unknown }).kikitori = buildKikitoriApi(
  (channel, request) =>
    post(
      `/ipc/${encodeURIComponent(channel)}`,
      JSON.stringify(request === undefined ? null : request),
      'application/json',
    ),
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => void set.delete(listener);
  },
  {
    // A browser File has no path: the bytes go to the host, which stages them and registers where it
    // put them with main, as the preload registers a dropped file's path; the page gets handles.
    async offer(files) {
      const offers: FileOffer[] = [];
      for (const file of Array.from(files)) {
        const result = await post<FileOffer[]>(
          `/stage-file?name=${encodeURIComponent(file.name)}`,
          file,
          'application/octet-stream',
        );
        if (!result.ok) return result;
        offers.push(...result.value);
      }
      return { ok: true, value: offers };
    },
  },
);
