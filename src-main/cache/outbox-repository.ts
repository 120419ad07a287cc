// Changes waiting to reach the server, replayed in order (docs/decisions/0007-offline-edits.md, 0054).
import type { IpcError } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';

/**
 * 'revision-operations': edits made on a cached revision, as operations (decision 0054); 'review': a whole
 * review text, for servers without revisions and for edits queued before operations.
 */
export type OutboxKind = 'review' | 'revision-operations';
export type OutboxState = 'pending' | 'conflict';

export interface OutboxEntry<P = unknown, B = unknown> {
  seq: number;
  kind: OutboxKind;
  targetId: string;
  payload: P;
  /** The server's value when the change was made; replay checks the server still has it. */
  base: B;
  state: OutboxState;
  revision: number;
  attempts: number;
  lastError: IpcError | null;
  /** What the server had when it refused the change over segments (a conflict to settle per segment). */
  conflict: unknown;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  seq: number;
  kind: OutboxKind;
  target_id: string;
  payload: string;
  base: string | null;
  state: OutboxState;
  revision: number;
  attempts: number;
  last_error: string | null;
  conflict: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): OutboxEntry => ({
  seq: r.seq,
  kind: r.kind,
  targetId: r.target_id,
  payload: JSON.parse(r.payload) as unknown,
  base: r.base === null ? null : (JSON.parse(r.base) as unknown),
  state: r.state,
  revision: r.revision,
  attempts: r.attempts,
  lastError: r.last_error ? (JSON.parse(r.last_error) as IpcError) : null,
  conflict: r.conflict === null ? null : (JSON.parse(r.conflict) as unknown),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class OutboxRepository {
  constructor(private readonly db: CacheDb) {}

  /**
   * Queues a change. A newer change to the same target replaces the queued one (each carries the whole
   * value) but keeps its base and place in line; saving over a conflict takes the given base, which is
   * the server value the user has now been told about.
   */
  enqueue(kind: OutboxKind, targetId: string, payload: unknown, base: unknown): OutboxEntry {
    const now = new Date().toISOString();
    const existing = this.forTarget(kind, targetId);
    if (existing) {
      const rebase = existing.state === 'conflict';
      this.db
        .prepare(
          `UPDATE outbox SET payload = ?, base = ?, state = 'pending', revision = revision + 1, last_error = NULL, conflict = NULL, updated_at = ? WHERE seq = ?`,
        )
        .run(JSON.stringify(payload), JSON.stringify(rebase ? base : existing.base), now, existing.seq);
    } else {
      this.db
        .prepare(
          `INSERT INTO outbox (kind, target_id, payload, base, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(kind, targetId, JSON.stringify(payload), JSON.stringify(base), now, now);
    }
    return this.forTarget(kind, targetId)!;
  }

  /**
   * Replaces the payload and base of an entry (or queues a new one) without touching its state: edits
   * added to a conflict stay in it until it is settled, and are never sent over it.
   */
  put(kind: OutboxKind, targetId: string, payload: unknown, base: unknown): OutboxEntry {
    const now = new Date().toISOString();
    const existing = this.forTarget(kind, targetId);
    if (existing)
      this.db
        .prepare(`UPDATE outbox SET payload = ?, base = ?, revision = revision + 1, updated_at = ? WHERE seq = ?`)
        .run(JSON.stringify(payload), JSON.stringify(base), now, existing.seq);
    else
      this.db
        .prepare(
          `INSERT INTO outbox (kind, target_id, payload, base, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(kind, targetId, JSON.stringify(payload), JSON.stringify(base), now, now);
    return this.forTarget(kind, targetId)!;
  }

  forTarget(kind: OutboxKind, targetId: string): OutboxEntry | null {
    const row = this.db.prepare('SELECT * FROM outbox WHERE kind = ? AND target_id = ?').get(kind, targetId) as
      Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Every entry in replay order. */
  all(): OutboxEntry[] {
    return (this.db.prepare('SELECT * FROM outbox ORDER BY seq').all() as Row[]).map(fromRow);
  }

  pending(): OutboxEntry[] {
    return (this.db.prepare(`SELECT * FROM outbox WHERE state = 'pending' ORDER BY seq`).all() as Row[]).map(fromRow);
  }

  hasEntriesFor(targetId: string): boolean {
    return this.db.prepare('SELECT 1 FROM outbox WHERE target_id = ?').get(targetId) !== undefined;
  }

  markAttempt(seq: number, error: IpcError | null): void {
    this.db
      .prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ?, updated_at = ? WHERE seq = ?')
      .run(error ? JSON.stringify(error) : null, new Date().toISOString(), seq);
  }

  /** `conflict`: the server's side of a conflict over segments; null when it is not about segments. */
  markConflict(seq: number, error: IpcError, conflict: unknown = null): void {
    this.db
      .prepare(`UPDATE outbox SET state = 'conflict', last_error = ?, conflict = ?, updated_at = ? WHERE seq = ?`)
      .run(JSON.stringify(error), conflict === null ? null : JSON.stringify(conflict), new Date().toISOString(), seq);
  }

  /** Removes an entry only if it is still the one that was sent (not replaced meanwhile). */
  removeIfUnchanged(entry: OutboxEntry): boolean {
    return (
      this.db.prepare('DELETE FROM outbox WHERE seq = ? AND revision = ?').run(entry.seq, entry.revision).changes > 0
    );
  }

  remove(seq: number): void {
    this.db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq);
  }

  removeForTarget(targetId: string): void {
    this.db.prepare('DELETE FROM outbox WHERE target_id = ?').run(targetId);
  }
}
