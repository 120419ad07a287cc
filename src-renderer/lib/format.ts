// Small formatting helpers for times, sizes and dates.

/** 75.4 -> "1:15", 3725 -> "1:02:05". */
export function formatClock(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '–';
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** Audio shorter than this shows tenths of a second on the player's clock. */
export const TENTHS_UNDER_SECONDS = 10;

/**
 * A time on the player's clock for audio `duration` seconds long: formatClock, with tenths for audio under
 * TENTHS_UNDER_SECONDS ("0:00.2"), where whole seconds would read 0:00 / 0:00 for a 0.2-second file.
 */
export function formatPlayerClock(seconds: number | null | undefined, duration: number): string {
  if (seconds == null || !Number.isFinite(seconds) || !(duration > 0 && duration < TENTHS_UNDER_SECONDS))
    return formatClock(seconds);
  const tenths = Math.max(0, Math.round(seconds * 10));
  return `${formatClock(Math.floor(tenths / 10))}.${tenths % 10}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatDate(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** Splits a search snippet on its [[ ]] markers: odd indexes are matches. */
export function snippetParts(snippet: string): string[] {
  return snippet.split(/\[\[|\]\]/);
}
