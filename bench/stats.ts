// Small statistics the benches share.

/** The middle value; for an even count, the mean of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** p-th percentile (nearest rank) of `values`; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const EXPANSIONS: Record<string, string> = { mr: 'mister', mrs: 'missus', dr: 'doctor', ok: 'okay' };

/** Lower case, no punctuation, common abbreviations spelled out. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[-_]/g, ' ')
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean)
    .map((w) => EXPANSIONS[w] ?? w);
}
