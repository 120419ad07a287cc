// In-memory stand-ins for the revision store's boundaries (its repository, object storage and the legacy
// reviews), for unit tests about the store's logic rather than its database: the same contract as
// KyselyRevisionRepository, which the integration tests run on SQLite and PostgreSQL.
import { Readable } from 'node:stream';
import type { NewRevision, RevisionRepository } from '../../src-server/db/revision-repository.js';
import type { ReviewRepository } from '../../src-server/db/review-repository.js';
import type { RevisionChange } from '../../src-server/domain/revisions.js';
import type { Storage } from '../../src-server/storage/storage.js';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class MemoryRevisionRepository implements RevisionRepository {
  readonly rows = new Map<string, NewRevision[]>();
  /** How many snapshot and change rows the last chain() returned (what a read replays). */
  lastChainLength = 0;

  private of(id: string) {
    return this.rows.get(id) ?? [];
  }
  list(id: string) {
    return Promise.resolve(this.of(id).map(({ change: _c, snapshot: _s, ...info }) => info));
  }
  latest(id: string) {
    return Promise.resolve(this.of(id).at(-1)?.revision ?? null);
  }
  info(id: string, revision: number) {
    const row = this.of(id).find((r) => r.revision === revision);
    if (!row) return Promise.resolve(null);
    const { change: _c, snapshot: _s, ...info } = row;
    return Promise.resolve(info);
  }
  chain(id: string, revision: number) {
    const upTo = this.of(id).filter((r) => r.revision <= revision);
    const base = upTo.filter((r) => r.snapshot !== null).at(-1);
    const chain = base ? upTo.filter((r) => r.revision >= base.revision).map(clone) : [];
    this.lastChainLength = chain.length;
    return Promise.resolve(chain);
  }
  changesSince(id: string, after: number) {
    return Promise.resolve(
      this.of(id)
        .filter((r) => r.revision > after && r.change !== null)
        .map((r) => clone(r.change) as RevisionChange),
    );
  }
  insert(id: string, revision: NewRevision) {
    const rows = this.of(id);
    if (rows.some((r) => r.revision === revision.revision)) return Promise.resolve(false);
    this.rows.set(
      id,
      [...rows, clone(revision)].sort((a, b) => a.revision - b.revision),
    );
    return Promise.resolve(true);
  }
  insertFirst(id: string, revisions: readonly NewRevision[]) {
    if (this.of(id).length > 0) return Promise.resolve(false);
    this.rows.set(id, revisions.map(clone));
    return Promise.resolve(true);
  }
}

/** Objects in a map: put and read, the two the revision store uses. */
export function memoryStorage(objects = new Map<string, Buffer>()): Storage & { objects: Map<string, Buffer> } {
  return {
    objects,
    async put(key, source) {
      const chunks: Buffer[] = [];
      for await (const chunk of source) chunks.push(chunk as Buffer);
      objects.set(key, Buffer.concat(chunks));
      return { size: objects.get(key)!.length };
    },
    read(key) {
      const object = objects.get(key);
      if (!object) return Promise.reject(new Error(`no object ${key}`));
      return Promise.resolve(Readable.from([object]));
    },
    stat: (key) => Promise.resolve(objects.has(key) ? { size: objects.get(key)!.length } : null),
    localPath: () => Promise.reject(new Error('not in memory storage')),
    delete: (key) => Promise.resolve(void objects.delete(key)),
    list: () => Promise.resolve([]),
  };
}

export function memoryReviews(texts = new Map<string, string>()): ReviewRepository {
  return {
    get: (id) => Promise.resolve(texts.get(id) ?? null),
  };
}
