// Why an aborted operation stopped, as an Error: `signal.reason` is whatever abort() was given
// (usually a DOMException named AbortError), and promise rejections should always carry an Error.

export function abortReason(signal: AbortSignal, fallback = 'The operation was cancelled.'): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(fallback, { cause: signal.reason });
}
