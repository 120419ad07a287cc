// Errors a job handler throws to steer the runner.

/** The input can never succeed (corrupt audio, unsupported language...): fail at once, no retries. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}
