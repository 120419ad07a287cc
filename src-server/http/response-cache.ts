// Serialized list pages, reused while the data behind them has not changed. Desktop clients poll the
// transcription list; each poll would otherwise read and sign every item again. An entry is valid while
// its version (bumped by database triggers on any change) matches, and for at most maxAgeMs so the
// signed URLs inside stay far from expiry.

interface Entry {
  version: number;
  storedAt: number;
  body: string;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxAgeMs = 60_000,
  ) {}

  get(key: string, version: number, now = Date.now()): string | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || now - entry.storedAt > this.maxAgeMs) return null;
    return entry.body;
  }

  set(key: string, version: number, body: string, now = Date.now()): void {
    // Maps iterate in insertion order: dropping the first key evicts the oldest entry.
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { version, storedAt: now, body });
  }
}
