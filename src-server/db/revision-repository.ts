// A transcript's revisions (decision 0052): rows of changes with a full snapshot now and then. The revision
// number is the row's key, so of two writers of the same next revision one is refused and tries again.
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { RevisionChange, RevisionSource } from '../domain/revisions.js';
import type { Kdb } from './schema.js';

export interface RevisionInfo {
  revision: number;
  createdAt: string;
  author: { userId: string; name: string };
  source: RevisionSource;
  summary: string;
}

export interface NewRevision extends RevisionInfo {
  change: RevisionChange | null;
  snapshot: TranscriptDocument | null;
}

/** A stored revision with what it holds: its change, and its snapshot when it has one. */
export type StoredRevision = NewRevision;

export interface RevisionRepository {
  /** Every revision's description, oldest first. */
  list(transcriptionId: string): Promise<RevisionInfo[]>;
  latest(transcriptionId: string): Promise<number | null>;
  info(transcriptionId: string, revision: number): Promise<RevisionInfo | null>;
  /** The revisions needed to build `revision`: from the nearest snapshot at or before it, through it. */
  chain(transcriptionId: string, revision: number): Promise<StoredRevision[]>;
  /** The changes of the revisions after `after`, oldest first. */
  changesSince(transcriptionId: string, after: number): Promise<RevisionChange[]>;
  /** False when that revision number is taken (another writer got there first). */
  insert(transcriptionId: string, revision: NewRevision): Promise<boolean>;
  /** Writes the first revisions of a transcription that has none, all or nothing; false when it had some. */
  insertFirst(transcriptionId: string, revisions: readonly NewRevision[]): Promise<boolean>;
}

type Row = {
  revision: number;
  created_at: string;
  author_user_id: string;
  author_name: string;
  source: string;
  summary: string;
};

const info = (row: Row): RevisionInfo => ({
  revision: Number(row.revision),
  createdAt: row.created_at,
  author: { userId: row.author_user_id, name: row.author_name },
  source: row.source as RevisionSource,
  summary: row.summary,
});

const INFO_COLUMNS = ['revision', 'created_at', 'author_user_id', 'author_name', 'source', 'summary'] as const;

export class KyselyRevisionRepository implements RevisionRepository {
  constructor(private readonly db: Kdb) {}

  async list(transcriptionId: string) {
    const rows = await this.db
      .selectFrom('transcript_revisions')
      .select(INFO_COLUMNS)
      .where('transcription_id', '=', transcriptionId)
      .orderBy('revision')
      .execute();
    return rows.map(info);
  }

  async latest(transcriptionId: string) {
    const row = await this.db
      .selectFrom('transcript_revisions')
      .select((eb) => eb.fn.max('revision').as('latest'))
      .where('transcription_id', '=', transcriptionId)
      .executeTakeFirst();
    return row?.latest === null || row?.latest === undefined ? null : Number(row.latest);
  }

  async info(transcriptionId: string, revision: number) {
    const row = await this.db
      .selectFrom('transcript_revisions')
      .select(INFO_COLUMNS)
      .where('transcription_id', '=', transcriptionId)
      .where('revision', '=', revision)
      .executeTakeFirst();
    return row ? info(row) : null;
  }

  async chain(transcriptionId: string, revision: number) {
    const base = await this.db
      .selectFrom('transcript_revisions')
      .select((eb) => eb.fn.max('revision').as('snapshot'))
      .where('transcription_id', '=', transcriptionId)
      .where('revision', '<=', revision)
      .where('snapshot', 'is not', null)
      .executeTakeFirst();
    if (base?.snapshot === null || base?.snapshot === undefined) return [];
    const rows = await this.db
      .selectFrom('transcript_revisions')
      .select([...INFO_COLUMNS, 'change', 'snapshot'])
      .where('transcription_id', '=', transcriptionId)
      .where('revision', '>=', Number(base.snapshot))
      .where('revision', '<=', revision)
      .orderBy('revision')
      .execute();
    return rows.map((row) => ({
      ...info(row),
      change: row.change === null ? null : (JSON.parse(row.change) as RevisionChange),
      // Only the first row's snapshot is replayed on; the others are not parsed.
      snapshot:
        row.snapshot !== null && Number(row.revision) === Number(base.snapshot)
          ? (JSON.parse(row.snapshot) as TranscriptDocument)
          : null,
    }));
  }

  async changesSince(transcriptionId: string, after: number) {
    const rows = await this.db
      .selectFrom('transcript_revisions')
      .select('change')
      .where('transcription_id', '=', transcriptionId)
      .where('revision', '>', after)
      .orderBy('revision')
      .execute();
    return rows.flatMap((row) => (row.change === null ? [] : [JSON.parse(row.change) as RevisionChange]));
  }

  async insert(transcriptionId: string, revision: NewRevision) {
    const result = await this.db
      .insertInto('transcript_revisions')
      .values(this.row(transcriptionId, revision))
      .onConflict((oc) => oc.columns(['transcription_id', 'revision']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async insertFirst(transcriptionId: string, revisions: readonly NewRevision[]) {
    return this.db.transaction().execute(async (trx) => {
      const first = await trx
        .insertInto('transcript_revisions')
        .values(this.row(transcriptionId, revisions[0]!))
        .onConflict((oc) => oc.columns(['transcription_id', 'revision']).doNothing())
        .executeTakeFirst();
      if (Number(first.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      for (const revision of revisions.slice(1))
        await trx.insertInto('transcript_revisions').values(this.row(transcriptionId, revision)).execute();
      return true;
    });
  }

  private row(transcriptionId: string, revision: NewRevision) {
    return {
      transcription_id: transcriptionId,
      revision: revision.revision,
      created_at: revision.createdAt,
      author_user_id: revision.author.userId,
      author_name: revision.author.name,
      source: revision.source,
      summary: revision.summary,
      change: revision.change === null ? null : JSON.stringify(revision.change),
      snapshot: revision.snapshot === null ? null : JSON.stringify(revision.snapshot),
    };
  }
}
