// Where a transcript's revisions are kept and the one place that writes a new one (decision 0052). The
// database holds them (changes, with a snapshot every SNAPSHOT_EVERY). The object at transcriptKey stays the
// recognized document, the source of revision 1; transcription_path serves the latest revision from here.
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { ReviewRepository } from '../db/review-repository.js';
import type { NewRevision, RevisionInfo, RevisionRepository } from '../db/revision-repository.js';
import type { Storage } from '../storage/storage.js';
import { nowIso, type TranscriptionRecord } from './records.js';
import {
  applyChange,
  diffDocuments,
  isEmptyChange,
  reviewSegments,
  SNAPSHOT_EVERY,
  summarizeChange,
  touchedBy,
  type RevisionSource,
  type Touched,
} from './revisions.js';

export interface Author {
  userId: string;
  name: string;
}

export interface Revisioned {
  revision: number;
  document: TranscriptDocument;
}

export type Produced<E> = { document: TranscriptDocument; summary: string; rebased?: boolean } | { refusal: E };

export type Commit<E> =
  | { kind: 'written'; info: RevisionInfo; document: TranscriptDocument; rebased: boolean }
  /** Nothing changed, and nothing asked for a revision anyway. */
  | { kind: 'unchanged'; revision: number; document: TranscriptDocument }
  /** `ifMatch` named a revision that is no longer the latest. */
  | { kind: 'moved-on'; current: number }
  | { kind: 'refused'; refusal: E };

export interface CommitOptions {
  author: Author;
  source: RevisionSource;
  /** The revision the writer says is the latest (If-Match); undefined: whatever is latest. */
  ifMatch?: number;
  /** Make a revision even when the document does not change (a review confirms the text). */
  always?: boolean;
}

/** How often a writer that lost the race for the next revision number tries again. */
const ATTEMPTS = 8;
/**
 * Transcripts whose latest revision this process keeps parsed: a revision never changes once written, so a
 * document held by its number is never stale, whichever process wrote the revisions since. Documents are
 * never mutated (every edit makes new objects for what it changes), so one copy is shared.
 */
const RECENT = 8;

export class RevisionStore {
  constructor(
    private readonly revisions: RevisionRepository,
    private readonly storage: Storage,
    /** Reviews saved before revisions: read once, into revision 2. */
    private readonly reviews: ReviewRepository,
  ) {}

  private readonly recent = new Map<string, Revisioned>();

  private remember(record: TranscriptionRecord, revisioned: Revisioned): void {
    const known = this.recent.get(record.transcriptionId);
    if (known && known.revision > revisioned.revision) return;
    this.recent.delete(record.transcriptionId);
    this.recent.set(record.transcriptionId, revisioned);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!);
  }

  /** The latest revision of a COMPLETED transcription. */
  async latest(record: TranscriptionRecord): Promise<Revisioned> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      await this.ensure(record);
      const revision = await this.revisions.latest(record.transcriptionId);
      const document = revision === null ? null : await this.at(record, revision);
      // A null here is a transcription deleted while being read: the caller's next lookup says so.
      if (revision !== null && document) {
        this.remember(record, { revision, document });
        return { revision, document };
      }
    }
    throw new Error(`transcription ${record.transcriptionId} has no readable revision`);
  }

  /** That revision's document, or null when there is no such revision. */
  async at(record: TranscriptionRecord, revision: number): Promise<TranscriptDocument | null> {
    const known = this.recent.get(record.transcriptionId);
    if (known?.revision === revision) return known.document;
    await this.ensure(record);
    const chain = await this.revisions.chain(record.transcriptionId, revision);
    const last = chain.at(-1);
    if (!last || last.revision !== revision || !chain[0]!.snapshot) return null;
    let document = chain[0]!.snapshot;
    for (const stored of chain.slice(1)) document = applyChange(document, stored.change!);
    return { ...document, revision };
  }

  /** The latest revision's number, without reading its document. */
  async latestNumber(record: TranscriptionRecord): Promise<number> {
    await this.ensure(record);
    const latest = await this.revisions.latest(record.transcriptionId);
    if (latest === null) throw new Error(`transcription ${record.transcriptionId} has no revision`);
    return latest;
  }

  async list(record: TranscriptionRecord): Promise<RevisionInfo[]> {
    await this.ensure(record);
    return this.revisions.list(record.transcriptionId);
  }

  /** What the revisions after `after` touched; `base` is revision `after`'s document. */
  async touchedSince(record: TranscriptionRecord, after: number, base: TranscriptDocument): Promise<Touched> {
    return touchedBy(await this.revisions.changesSince(record.transcriptionId, after), base);
  }

  /** One revision's description, or null when there is none. */
  async info(record: TranscriptionRecord, revision: number): Promise<RevisionInfo | null> {
    await this.ensure(record);
    return this.revisions.info(record.transcriptionId, revision);
  }

  /**
   * Writes the next revision: `produce` gets the latest and answers the new document (or a refusal). Of two
   * writers of the same revision number one is refused by the database and produces again on the newer one.
   */
  async commit<E>(
    record: TranscriptionRecord,
    options: CommitOptions,
    produce: (latest: Revisioned) => Produced<E> | Promise<Produced<E>>,
  ): Promise<Commit<E>> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const latest = await this.latest(record);
      if (options.ifMatch !== undefined && options.ifMatch !== latest.revision)
        return { kind: 'moved-on', current: latest.revision };
      const produced = await produce(latest);
      if ('refusal' in produced) return { kind: 'refused', refusal: produced.refusal };
      const change = diffDocuments(latest.document, produced.document);
      if (isEmptyChange(change) && !options.always)
        return { kind: 'unchanged', revision: latest.revision, document: latest.document };
      const number = latest.revision + 1;
      const document = { ...applyChange(latest.document, change), revision: number };
      const info: RevisionInfo = {
        revision: number,
        createdAt: nowIso(),
        author: options.author,
        source: options.source,
        summary: produced.summary,
      };
      const written = await this.revisions.insert(record.transcriptionId, {
        ...info,
        change,
        snapshot: number % SNAPSHOT_EVERY === 0 ? document : null,
      });
      if (!written) continue;
      this.remember(record, { revision: number, document });
      return { kind: 'written', info, document, rebased: produced.rebased ?? false };
    }
    throw new Error(`too many concurrent writers of transcription ${record.transcriptionId}`);
  }

  /**
   * Revision 1 (the recognized document as stored) for a transcription that has none yet, and a review saved
   * before revisions as revision 2, in one transaction.
   */
  private async ensure(record: TranscriptionRecord): Promise<void> {
    if ((await this.revisions.latest(record.transcriptionId)) !== null) return;
    if (!record.transcriptKey) throw new Error(`transcription ${record.transcriptionId} has no transcript`);
    const recognized: TranscriptDocument = { ...(await this.readStored(record.transcriptKey)), revision: 1 };
    const author = { userId: record.userId, name: record.userName };
    const first: NewRevision[] = [
      {
        revision: 1,
        createdAt: recognized.created_at,
        author,
        source: 'recognized',
        summary: `Recognized by ${recognized.engine.name}/${recognized.engine.model}`,
        change: null,
        snapshot: recognized,
      },
    ];
    const review = await this.reviews.get(record.transcriptionId);
    if (review !== null) {
      const segments = reviewSegments(recognized, review);
      const reviewed = diffDocuments(recognized, { ...recognized, segments });
      first.push({
        revision: 2,
        createdAt: nowIso(),
        author,
        source: 'review',
        summary: summarizeChange(reviewed, 'Review saved before revisions were kept'),
        change: reviewed,
        snapshot: null,
      });
    }
    // Whoever wrote them first wins; both would have written the same. A failure (the transcription deleted
    // meanwhile) is found by the caller's next read.
    await this.revisions.insertFirst(record.transcriptionId, first).catch(() => false);
  }

  private async readStored(key: string): Promise<TranscriptDocument> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.read(key)) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as TranscriptDocument;
  }
}
