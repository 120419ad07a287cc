import { describe, expect, it } from 'vitest';
import { createRequestTracker, together } from '../../../../src-renderer/lib/request-tracker';
import type { IpcError, IpcResult } from '../../../../src-shared/ipc-contract';

interface State {
  value: string | null;
  busy: boolean;
  error: IpcError | null;
}

function harness() {
  const state: State = { value: null, busy: false, error: null };
  const tracker = createRequestTracker<State>((patch) => Object.assign(state, patch), { busy: 'busy', error: 'error' });
  return { state, tracker };
}

/** A call whose answer the test releases when it wants. */
function deferred<T>() {
  let resolve!: (result: IpcResult<T>) => void;
  const promise = new Promise<IpcResult<T>>((r) => (resolve = r));
  return {
    call: () => promise,
    answer: (value: T) => resolve({ ok: true, value }),
    fail: (error: IpcError) => resolve({ ok: false, error }),
  };
}

describe('request tracker', () => {
  it('sets the busy flag while a call runs, then stores its value and clears the error', async () => {
    const { state, tracker } = harness();
    state.error = { code: 'offline', detail: 'earlier' };
    const a = deferred<string>();
    const running = tracker.run(a.call, (value) => ({ value }));
    expect(state.busy).toBe(true);
    a.answer('A');
    expect(await running).toEqual({ ok: true, value: 'A' });
    expect(state).toEqual({ value: 'A', busy: false, error: null });
  });

  it('keeps the value and records the error of a failed call', async () => {
    const { state, tracker } = harness();
    state.value = 'kept';
    const a = deferred<string>();
    const running = tracker.run(a.call, (value) => ({ value }));
    a.fail({ code: 'offline', detail: 'down' });
    await running;
    expect(state).toEqual({ value: 'kept', busy: false, error: { code: 'offline', detail: 'down' } });
  });

  it('drops the answer of a call superseded by a newer one, whichever arrives first', async () => {
    const { state, tracker } = harness();
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = tracker.run(older.call, (value) => ({ value }));
    const second = tracker.run(newer.call, (value) => ({ value }));
    newer.answer('new');
    older.answer('old');
    expect(await first).toBeNull();
    expect(await second).toEqual({ ok: true, value: 'new' });
    expect(state.value).toBe('new');
  });

  it('lets joined calls land side by side until renew() drops them all', async () => {
    const { state, tracker } = harness();
    const landed: string[] = [];
    const [a, b, c] = [deferred<string>(), deferred<string>(), deferred<string>()];
    const runs = [a, b].map((d) =>
      tracker.run(d.call, (value) => (landed.push(value), {}), { supersede: false, markBusy: false }),
    );
    a.answer('a');
    b.answer('b');
    await Promise.all(runs);
    expect(landed).toEqual(['a', 'b']);
    expect(state.busy).toBe(false);

    const late = tracker.run(c.call, (value) => ({ value }), { supersede: false });
    tracker.renew();
    c.answer('c');
    expect(await late).toBeNull();
    expect(state.value).toBeNull();
  });

  it('combines calls so each part lands on its own', async () => {
    const result = await together(
      Promise.resolve({ ok: true as const, value: 1 }),
      Promise.resolve({ ok: false as const, error: { code: 'not-found' as const, detail: 'x' } }),
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { ok: true, value: 1 },
        { ok: false, error: { code: 'not-found', detail: 'x' } },
      ],
    });
  });
});
