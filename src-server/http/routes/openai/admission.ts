// The OpenAI route's bounded wait queue (issue 11): a request holds a place from before its body is read
// until it is answered. At most the job slots (KIKITORI_JOB_CONCURRENCY) plus KIKITORI_OPENAI_MAX_WAITING
// requests per server process; one more is answered 503 with a Retry-After estimated from how long
// recent requests took, before its upload is written anywhere.
import type { AppContext } from '../../../app-context.js';

const DEFAULT_SECONDS = 10;
const MAX_RETRY_AFTER = 300;

export class Admission {
  private inFlight = 0;
  /** Moving average of a request's seconds (upload to answer). */
  private averageSeconds = DEFAULT_SECONDS;

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
  ) {}

  tryEnter(): boolean {
    if (this.inFlight >= this.slots + this.maxWaiting) return false;
    this.inFlight++;
    return true;
  }

  /** Requests holding a place now (answered or not yet). */
  occupied(): number {
    return this.inFlight;
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  observe(seconds: number): void {
    this.averageSeconds = 0.7 * this.averageSeconds + 0.3 * seconds;
  }

  /** When a place is likely to be free: the queue ahead of a new request, drained by the slots. */
  retryAfterSeconds(): number {
    const waves = Math.max(1, (this.inFlight - this.slots + 1) / this.slots);
    return Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil(this.averageSeconds * waves)));
  }
}

const admissions = new WeakMap<AppContext, Admission>();

export function admissionOf(ctx: AppContext): Admission {
  let admission = admissions.get(ctx);
  if (!admission)
    admissions.set(ctx, (admission = new Admission(ctx.config.jobs.concurrency, ctx.config.openai.maxWaiting)));
  return admission;
}
