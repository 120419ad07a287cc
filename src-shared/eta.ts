// How long a running transcription still needs, from its measured speed (docs/decisions/0023-progress-eta.md).
// Pure: the renderer keeps the previous estimate and passes it back in, so the figure counts down
// smoothly instead of jumping with every progress step.

/** No estimate before this much of the work is done: the conversion's speed says little about recognition's. */
export const ETA_MIN_PROGRESS = 0.1;
/** Nor before this many seconds of processing. */
export const ETA_MIN_ELAPSED_SECONDS = 5;
/** Weight of a new measurement against the running estimate (exponential smoothing). */
export const ETA_SMOOTHING = 0.3;

export interface EtaEstimate {
  /** Start of the run the estimate belongs to; another start (a retry) starts a new estimate. */
  startedAt: string;
  /** When it was made (ms since the epoch). */
  at: number;
  /** Seconds left, smoothed. */
  seconds: number;
  /** Seconds of audio processed per second, when the audio's length is known: 3 means three times real time. */
  speed: number | null;
}

export interface EtaInput {
  /** 0..1, or null when the server does not say. */
  progress: number | null;
  /** When processing began (ISO date-time), or null while queued. */
  startedAt: string | null;
  /** Now, in ms since the epoch. */
  now: number;
  /** The audio's length in seconds, once known. */
  durationSeconds?: number | null;
  /** The estimate made last time for the same transcription. */
  previous?: EtaEstimate | null;
}

/**
 * The time left, or null while it would be a guess: no progress or start time, too little done, or
 * a clock that says processing has not started yet. The rate is the average since the start
 * (progress / elapsed), which a single slow or fast step barely moves; the result is blended with the
 * previous estimate, counted down by the time since, so it falls steadily.
 */
export function estimateRemaining(input: EtaInput): EtaEstimate | null {
  const { progress, startedAt, now } = input;
  if (progress === null || startedAt === null) return null;
  const started = Date.parse(startedAt);
  if (!Number.isFinite(started)) return null;
  const elapsed = (now - started) / 1000;
  if (progress < ETA_MIN_PROGRESS || elapsed < ETA_MIN_ELAPSED_SECONDS) return null;
  const done = Math.min(1, progress);
  const raw = (elapsed * (1 - done)) / done;
  const previous = input.previous && input.previous.startedAt === startedAt && input.previous.at <= now ? input.previous : null;
  const seconds = previous ? blend(Math.max(0, previous.seconds - (now - previous.at) / 1000), raw) : raw;
  const duration = input.durationSeconds ?? null;
  return { startedAt, at: now, seconds, speed: duration !== null && duration > 0 ? (duration * done) / elapsed : null };
}

const blend = (before: number, measured: number) => before + ETA_SMOOTHING * (measured - before);

/** The time left as people say it: "less than a minute", "about 3 min", "about 1 h 20 min". */
export type EtaWords = { kind: 'under-minute' } | { kind: 'minutes'; minutes: number } | { kind: 'hours'; hours: number; minutes: number };

export function etaWords(seconds: number): EtaWords {
  if (seconds < 60) return { kind: 'under-minute' };
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return { kind: 'minutes', minutes };
  // Past an hour and a half, to five minutes: more precision than that would be false.
  const rounded = Math.round(seconds / 300) * 5;
  return { kind: 'hours', hours: Math.floor(rounded / 60), minutes: rounded % 60 };
}
