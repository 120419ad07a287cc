// Values reused while the data behind them has not changed: list pages (desktop clients poll the
// transcription list; each poll would otherwise read and sign every item again) and callers by API key.
// An entry is valid while the version it was stored under is the current one (a team's list_version, or
// the change generation of db/change-watch.ts), and for at most maxAgeMs (so that signed URLs inside a
// page stay far from expiry).

interface Entry<Body> {
  version: number;
  storedAt: number;
  body: Body;
}

export class VersionedCache<Body> {
  private readonly entries = new Map<string, Entry<Body>>();

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxAgeMs = 60_000,
  ) {}

  get(key: string, version: number, now = Date.now()): Body | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || now - entry.storedAt > this.maxAgeMs) return null;
    return entry.body;
  }

  set(key: string, version: number, body: Body, now = Date.now()): void {
    // Maps iterate in insertion order: dropping the first key evicts the oldest entry.
    if (this.entries.size >= this.maxEntries && !this.entries.has(key))
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { version, storedAt: now, body });
  }
}
