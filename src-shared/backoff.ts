// The one retry delay of the code base: exponential steps, capped, with jitter. Used by the API
// client, uploads, background sync, the embedded server's restarts, the job queues and LLM calls.
// No imports: main, server and renderer may all use it.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 5000 };

/**
 * Delay before retry number `attempt` (0-based): the exponential step, capped, half of it fixed and
 * half random ("equal jitter"), so clients that failed together do not retry together yet never
 * hammer the server with near-zero waits.
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + (random() * step) / 2);
}
