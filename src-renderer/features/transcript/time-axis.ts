// One mapping between time and horizontal position for everything drawn on the player's time axis:
// the waveform, the speaker lanes, the emotion bands, the playhead and clicks that seek. The waveform
// and every lane track occupy the same column of the player (styles.css: the track column starts
// after --lane-label and --lane-gap), so equal fractions are equal pixels.

/** Where `seconds` falls along an axis of `duration` seconds, from 0 to 1. */
export function fractionAt(seconds: number, duration: number): number {
  if (!(duration > 0) || !Number.isFinite(seconds)) return 0;
  return Math.min(1, Math.max(0, seconds / duration));
}

/** The x of `seconds` on a track `width` units wide. */
export function xAt(seconds: number, duration: number, width: number): number {
  return fractionAt(seconds, duration) * width;
}

/** The time at `x` on a track that starts at `left` and is `width` wide (a click's clientX and the track's box). */
export function timeAtX(x: number, left: number, width: number, duration: number): number {
  if (!(width > 0) || !(duration > 0)) return 0;
  return fractionAt(((x - left) / width) * duration, duration) * duration;
}

/** CSS left of the playhead over the player's lanes, in the track column. */
export function playheadLeft(fraction: number): string {
  return `calc(var(--lane-label) + var(--lane-gap) + (100% - var(--lane-label) - var(--lane-gap)) * ${fraction})`;
}
