// The request state a store keeps for one kind of call to main (open a transcript, search, load a
// page): a busy flag while it runs, the error of the last one, and no stale answers. An answer that
// arrives after a newer call of the same kind started (another transcript opened, more text typed,
// a new filter) is dropped, so it can never overwrite fresher state. Stores keep their own field
// names; this only writes them.
import type { IpcError, IpcResult } from '../../src-shared/ipc-contract';

type KeyOf<S, V> = { [K in keyof S]-?: V extends S[K] ? K : never }[keyof S];

export interface RequestTracker<S> {
  /**
   * Runs `call`; when its answer is still current, stores what `apply` makes of the value and sets
   * the flags. Resolves with the result, or null when a newer call or `renew()` made it stale.
   */
  run<T>(
    call: () => Promise<IpcResult<T>>,
    apply: (value: T) => Partial<S>,
    options?: RunOptions,
  ): Promise<IpcResult<T> | null>;
  /** Makes every call under way stale (the transcript was closed, the filter changed). */
  renew(): void;
}

export interface RunOptions {
  /**
   * false: the call joins the calls under way instead of superseding them, as pages of one list
   * do; a later `renew()` still drops them all. Default true.
   */
  supersede?: boolean;
  /** false: leave the busy flag alone while it runs (a background refresh keeps the screen as is). Default true. */
  markBusy?: boolean;
}

export function createRequestTracker<S>(
  set: (patch: Partial<S>) => void,
  keys: { busy?: KeyOf<S, boolean>; error?: KeyOf<S, IpcError | null> } = {},
): RequestTracker<S> {
  let round = 0;
  const flags = (busy: boolean, error?: IpcError | null): Partial<S> =>
    ({
      ...(keys.busy ? { [keys.busy]: busy } : {}),
      ...(keys.error && error !== undefined ? { [keys.error]: error } : {}),
    }) as Partial<S>;
  return {
    async run(call, apply, { supersede = true, markBusy = true } = {}) {
      if (supersede) round++;
      const mine = round;
      if (markBusy && keys.busy) set(flags(true));
      const result = await call();
      if (mine !== round) return null;
      set({ ...(result.ok ? apply(result.value) : {}), ...flags(false, result.ok ? null : result.error) });
      return result;
    },
    renew() {
      round++;
    },
  };
}

/** Several calls as one answer that always arrives, each with its own result: for partial results. */
export async function together<R extends readonly Promise<IpcResult<unknown>>[]>(
  ...calls: R
): Promise<IpcResult<{ -readonly [K in keyof R]: Awaited<R[K]> }>> {
  return { ok: true, value: await Promise.all<R>(calls) };
}
