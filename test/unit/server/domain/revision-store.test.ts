// The revision store (decision 0052) over in-memory stand-ins for its database and object storage: revision 1
// from the stored document, a legacy review as revision 2, snapshots every SNAPSHOT_EVERY revisions so a read
// replays at most that many changes, every revision readable, and the stored recognized document left as it was.
import { describe, expect, it } from 'vitest';
import type { TranscriptionRecord } from '../../../../src-server/domain/records.js';
import { RevisionStore } from '../../../../src-server/domain/revision-store.js';
import { SNAPSHOT_EVERY } from '../../../../src-server/domain/revisions.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { encodeReview, applyOperation, applyOperations } from '../../../../src-shared/transcript-editing.js';
import { MemoryRevisionRepository, memoryReviews, memoryStorage } from '../../../support/memory-revisions.js';

const recognized: TranscriptDocument = {
  transcription_id: 't1',
  text: 'alpha beta gamma delta',
  language: 'en',
  duration: 4,
  speaking_duration: 4,
  segments: [
    {
      id: 0,
      start: 0,
      end: 2,
      speaker: 'SPEAKER_1',
      text: 'alpha beta',
      words: [
        { word: 'alpha', start: 0, end: 1, confidence: 1 },
        { word: 'beta', start: 1, end: 2, confidence: 1 },
      ],
    },
    {
      id: 1,
      start: 2,
      end: 4,
      speaker: 'SPEAKER_2',
      text: 'gamma delta',
      words: [
        { word: 'gamma', start: 2, end: 3, confidence: 1 },
        { word: 'delta', start: 3, end: 4, confidence: 1 },
      ],
    },
  ],
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
};

const record = {
  transcriptionId: 't1',
  transcriptKey: 'transcripts/t1.json',
  userId: 'u1',
  userName: 'Uma',
} as TranscriptionRecord;
const author = { userId: 'u2', name: 'Ken' };

function store(legacyReview?: string) {
  const rows = new MemoryRevisionRepository();
  const storage = memoryStorage(new Map([[record.transcriptKey!, Buffer.from(JSON.stringify(recognized))]]));
  const reviews = new Map<string, string>(legacyReview === undefined ? [] : [['t1', legacyReview]]);
  return { rows, storage, revisions: new RevisionStore(rows, storage, memoryReviews(reviews)) };
}
const storedObject = (storage: ReturnType<typeof memoryStorage>) =>
  JSON.parse(storage.objects.get(record.transcriptKey!)!.toString('utf8')) as TranscriptDocument;

async function editText(revisions: RevisionStore, segmentId: number, text: string) {
  return revisions.commit<string>(record, { author, source: 'edit' }, ({ document }) => {
    const outcome = applyOperations(document, [{ kind: 'text', segmentId, text }]);
    return outcome.ok ? { document: outcome.document, summary: 'edit' } : { refusal: outcome.message };
  });
}

describe('the revision store', () => {
  it('makes revision 1 of the stored document, by the transcription owner, numbered', async () => {
    const { revisions, storage } = store();
    expect(await revisions.latest(record)).toEqual({ revision: 1, document: { ...recognized, revision: 1 } });
    expect(await revisions.list(record)).toEqual([
      {
        revision: 1,
        createdAt: recognized.created_at,
        author: { userId: 'u1', name: 'Uma' },
        source: 'recognized',
        summary: 'Recognized by e/m',
      },
    ]);
    // The recognized document stays in storage as it was: the source of revision 1.
    expect(storedObject(storage)).toEqual(recognized);
  });

  it('reads a review saved before revisions, structure line included, as revision 2', async () => {
    const merged = applyOperation(
      recognized.segments,
      { kind: 'merge', segmentId: 0 },
      { language: 'en', speakers: new Set(['SPEAKER_1', 'SPEAKER_2']) },
    );
    if (!merged.ok) throw new Error(merged.message);
    const { revisions, storage } = store(encodeReview(recognized, merged.segments));
    const latest = await revisions.latest(record);
    expect(latest.revision).toBe(2);
    expect(latest.document.segments.map((s) => s.text)).toEqual(['alpha beta gamma delta']);
    expect((await revisions.list(record)).map((r) => r.source)).toEqual(['recognized', 'review']);
    expect(storedObject(storage)).toEqual(recognized);
  });

  it(`keeps a snapshot every ${SNAPSHOT_EVERY} revisions: the latest replays fewer than ${SNAPSHOT_EVERY} changes, and every revision reads as it was`, async () => {
    const { revisions, rows, storage } = store();
    const texts: string[] = [];
    for (let i = 2; i <= 2 * SNAPSHOT_EVERY + 7; i++) {
      const text = `edit number ${i}`;
      texts[i] = text;
      const written = await editText(revisions, i % 2, text);
      expect(written).toMatchObject({ kind: 'written', info: { revision: i, author } });
    }
    const stored = rows.rows.get('t1')!;
    expect(stored.filter((r) => r.snapshot !== null).map((r) => r.revision)).toEqual([
      1,
      SNAPSHOT_EVERY,
      2 * SNAPSHOT_EVERY,
    ]);
    // Changes are small: the one segment each edit wrote.
    expect(stored.slice(1).every((r) => r.change!.set.length === 1 && !r.change!.order)).toBe(true);

    // Another process (a store that holds nothing parsed) reads the snapshot and replays the changes since.
    const latest = await new RevisionStore(rows, storage, memoryReviews()).latest(record);
    expect(latest.revision).toBe(2 * SNAPSHOT_EVERY + 7);
    expect(rows.lastChainLength).toBe(8);
    expect(await revisions.latest(record)).toEqual(latest);
    expect(storedObject(storage)).toEqual(recognized);
    for (const n of [1, 2, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, 2 * SNAPSHOT_EVERY + 6]) {
      const document = (await revisions.at(record, n))!;
      expect(document.revision).toBe(n);
      const segment = n === 1 ? recognized.segments[0]!.text : texts[n];
      expect(document.segments[n % 2 === 0 || n === 1 ? 0 : 1]!.text).toBe(segment);
    }
    expect(await revisions.at(record, 2 * SNAPSHOT_EVERY + 8)).toBeNull();
  });

  it('answers If-Match for a revision that is no longer the latest without writing', async () => {
    const { revisions, rows } = store();
    await editText(revisions, 0, 'first');
    const refused = await revisions.commit<string>(record, { author, source: 'edit', ifMatch: 1 }, () => {
      throw new Error('produce must not run');
    });
    expect(refused).toEqual({ kind: 'moved-on', current: 2 });
    expect(rows.rows.get('t1')).toHaveLength(2);
  });

  it('produces again on the newer revision when another writer took the number first', async () => {
    const { revisions, rows } = store();
    await revisions.latest(record);
    let calls = 0;
    const outcome = await revisions.commit<string>(
      record,
      { author, source: 'edit' },
      async ({ revision, document }) => {
        calls += 1;
        // The first time, someone else writes revision 2 meanwhile.
        if (calls === 1) await editText(new RevisionStore(rows, memoryStorage(), memoryReviews()), 1, 'theirs');
        const outcome = applyOperations(document, [{ kind: 'text', segmentId: 0, text: `mine on ${revision}` }]);
        return outcome.ok ? { document: outcome.document, summary: 'mine' } : { refusal: outcome.message };
      },
    );
    expect(calls).toBe(2);
    expect(outcome).toMatchObject({ kind: 'written', info: { revision: 3 } });
    const latest = await revisions.latest(record);
    expect(latest.document.segments.map((s) => s.text)).toEqual(['mine on 2', 'theirs']);
  });

  it('writes no revision for a change that changes nothing, unless asked to', async () => {
    const { revisions } = store();
    const same = (latest: { document: TranscriptDocument }) => ({ document: latest.document, summary: 'same' });
    expect(await revisions.commit(record, { author, source: 'edit' }, same)).toMatchObject({
      kind: 'unchanged',
      revision: 1,
    });
    expect(await revisions.commit(record, { author, source: 'review', always: true }, same)).toMatchObject({
      kind: 'written',
      info: { revision: 2, source: 'review' },
    });
  });
});
