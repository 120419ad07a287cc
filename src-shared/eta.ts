// How long a running transcription still needs, from its measured speed (docs/decisions/0024-progress-and-eta.md).
// Pure: the renderer keeps the previous estimate and passes it back in, so the figure counts down
// smoothly instead of jumping with every progress step.

/** No estimate before this much of the work is done. */
export const ETA_MIN_PROGRESS = 0.1;
/** Nor before this many seconds of processing. */
export const ETA_MIN_ELAPSED_SECONDS = 5;
/** A stage's speed is measured once it moved this much, over at least ETA_MIN_ELAPSED_SECONDS... */
export const ETA_MIN_STEP = 0.02;
/** ...or once this many seconds went by without that (a stall, which then shows as a growing estimate). */
export const ETA_STALL_SECONDS = 30;
/** Weight of a new measurement against the running estimate (exponential smoothing). */
export const ETA_SMOOTHING = 0.3;

export interface EtaEstimate {
  /** Start of the run the estimate belongs to; another start (a retry) starts a new estimate. */
  startedAt: string;
  /** When it was made (ms since the epoch). */
  at: number;
  /** Seconds left, smoothed; null while the current stage's speed is not measured yet. */
  seconds: number | null;
  /** Seconds of audio processed per second in this stage, when the audio's length is known: 3 means three times real time. */
  speed: number | null;
  /** Where the current stage was first seen: its speed is measured from there. */
  anchor: { stage: string | null; progress: number; at: number };
}

export interface EtaInput {
  /** 0..1, or null when the server does not say. */
  progress: number | null;
  /** When processing began (ISO date-time), or null while queued. */
  startedAt: string | null;
  /** The stage the server reports, if any. */
  stage?: string | null;
  /** Now, in ms since the epoch. */
  now: number;
  /** The audio's length in seconds, once known. */
  durationSeconds?: number | null;
  /** The estimate made last time for the same transcription. */
  previous?: EtaEstimate | null;
}

/**
 * The time left, or null (or `seconds: null`) while it would be a guess: no progress or start time,
 * too little done, a clock that says processing has not started yet, or a stage whose speed is not
 * measured yet.
 *
 * The speed is the current stage's, measured from where that stage was first seen: the stages do not
 * run at one speed (the conversion and the speech detection race through their share of the bar,
 * recognition is slow), so the average since the start would promise far too little time while
 * recognizing. The result is blended with the previous estimate, counted down by the time since, so
 * it falls steadily instead of jumping with each progress step.
 */
export function estimateRemaining(input: EtaInput): EtaEstimate | null {
  const { progress, startedAt, now } = input;
  const stage = input.stage ?? null;
  if (progress === null || startedAt === null) return null;
  const started = Date.parse(startedAt);
  if (!Number.isFinite(started) || (now - started) / 1000 < ETA_MIN_ELAPSED_SECONDS) return null;
  const done = Math.min(1, progress);
  const previous =
    input.previous && input.previous.startedAt === startedAt && input.previous.at <= now ? input.previous : null;
  const anchor =
    previous && previous.anchor.stage === stage && previous.anchor.progress <= done
      ? previous.anchor
      : { stage, progress: done, at: now };
  const counted = previous?.seconds != null ? Math.max(0, previous.seconds - (now - previous.at) / 1000) : null;
  const span = (now - anchor.at) / 1000;
  const step = done - anchor.progress;
  const measured = (step >= ETA_MIN_STEP && span >= ETA_MIN_ELAPSED_SECONDS) || span >= ETA_STALL_SECONDS;
  let seconds = counted;
  let speed = previous && anchor === previous.anchor ? previous.speed : null;
  if (measured && done >= ETA_MIN_PROGRESS) {
    const raw = (span * (1 - done)) / Math.max(step, ETA_MIN_STEP / 2);
    seconds = counted === null ? raw : blend(counted, raw);
    const duration = input.durationSeconds ?? null;
    speed = duration !== null && duration > 0 ? (duration * step) / span : null;
  } else if (done < ETA_MIN_PROGRESS) {
    seconds = null;
  }
  return { startedAt, at: now, seconds, speed, anchor };
}

const blend = (before: number, measured: number) => before + ETA_SMOOTHING * (measured - before);

/** The time left as people say it: "less than a minute", "about 3 min", "about 1 h 20 min". */
export type EtaWords =
  { kind: 'under-minute' } | { kind: 'minutes'; minutes: number } | { kind: 'hours'; hours: number; minutes: number };

export function etaWords(seconds: number): EtaWords {
  if (seconds < 60) return { kind: 'under-minute' };
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return { kind: 'minutes', minutes };
  // Past an hour and a half, to five minutes: more precision than that would be false.
  const rounded = Math.round(seconds / 300) * 5;
  return { kind: 'hours', hours: Math.floor(rounded / 60), minutes: rounded % 60 };
}
