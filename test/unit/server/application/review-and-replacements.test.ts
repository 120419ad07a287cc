// The review and apply-replacements use cases on their own: the repositories and the service are the
// boundary this test is not about; what is tested is which record they act on and their closed errors.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../../src-server/app-context.js';
import { applyDictionary } from '../../../../src-server/application/apply-dictionary.js';
import { readReview, saveReview } from '../../../../src-server/application/review.js';
import type { ApplyOutcome } from '../../../../src-server/domain/transcription-service.js';
import { AppError } from '../../../../src-server/application/errors.js';
import { RevisionStore } from '../../../../src-server/domain/revision-store.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { MemoryRevisionRepository, memoryReviews, memoryStorage } from '../../../support/memory-revisions.js';

const alice = { teamId: 'acme', userId: 'alice', userName: 'Alice' } as never;
const bob = { teamId: 'globex', userId: 'bob' } as never;

const recognized: TranscriptDocument = {
  transcription_id: 't1',
  text: 'recognised',
  language: 'en',
  duration: 1,
  speaking_duration: 1,
  segments: [{ id: 0, start: 0, end: 1, speaker: null, text: 'recognised', words: [] }],
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
};

function context(status: string, outcome: ApplyOutcome = { kind: 'applied', replaced: 1, revision: 2 }) {
  const reviews = new Map<string, string>();
  const applied: Array<string | undefined> = [];
  // The revision store is real; its database and object storage are in memory.
  const revisionRows = new MemoryRevisionRepository();
  const storage = memoryStorage(new Map([['transcripts/t1.json', Buffer.from(JSON.stringify(recognized))]]));
  const ctx = {
    transcriptions: {
      get: (teamId: string, id: string) =>
        Promise.resolve(
          teamId === 'acme' && id === 't1'
            ? {
                transcriptionId: 't1',
                teamId,
                status,
                transcriptKey: status === 'COMPLETED' ? 'transcripts/t1.json' : null,
                userId: 'alice',
                userName: 'Alice',
              }
            : null,
        ),
    },
    revisions: new RevisionStore(revisionRows, storage, memoryReviews(reviews)),
    service: {
      applyDictionary: (_caller: unknown, _record: unknown, dictionaryId?: string) => {
        applied.push(dictionaryId);
        return Promise.resolve(outcome);
      },
    },
  } as unknown as AppContext;
  return { ctx, reviews, applied, revisionRows };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('review', () => {
  it('keeps the text of a completed transcription and reads it back', async () => {
    const { ctx } = context('COMPLETED');
    expect(await refusal(readReview(ctx, alice, 't1'))).toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    expect(await saveReview(ctx, alice, 't1', 'corrected')).toEqual({
      transcriptionId: 't1',
      reviewedText: 'corrected',
      revision: 2,
    });
    expect(await readReview(ctx, alice, 't1')).toEqual({
      transcriptionId: 't1',
      reviewedText: 'corrected',
      revision: 2,
    });
  });

  it("refuses a transcription still running, and another team's as unknown", async () => {
    const { ctx, reviews, revisionRows } = context('IN_PROGRESS');
    expect(await refusal(saveReview(ctx, alice, 't1', 'early'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_COMPLETED' });
    expect(await refusal(saveReview(ctx, bob, 't1', 'theirs'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect(await refusal(readReview(ctx, bob, 't1'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect(reviews.size).toBe(0);
    expect(revisionRows.rows.size).toBe(0);
  });
});

describe('apply replacements', () => {
  it("applies the dictionary asked for, or the transcription's own, and answers the record", async () => {
    const { ctx, applied } = context('COMPLETED');
    expect(await applyDictionary(ctx, alice, 't1', 'd1')).toMatchObject({ transcriptionId: 't1' });
    await applyDictionary(ctx, alice, 't1', undefined);
    expect(applied).toEqual(['d1', undefined]);
  });

  it("answers each refusal with its closed error, and another team's transcription as unknown", async () => {
    expect(
      await refusal(
        applyDictionary(context('COMPLETED', { kind: 'not-completed', status: 'FAILED' }).ctx, alice, 't1', undefined),
      ),
    ).toMatchObject({ code: 'TRANSCRIPTION_NOT_COMPLETED' });
    expect(
      await refusal(applyDictionary(context('COMPLETED', { kind: 'no-dictionary' }).ctx, alice, 't1', undefined)),
    ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'dictionary_id' });
    expect(
      await refusal(
        applyDictionary(
          context('COMPLETED', { kind: 'dictionary-not-found', dictionaryId: 'd9' }).ctx,
          alice,
          't1',
          'd9',
        ),
      ),
    ).toMatchObject({ code: 'DICTIONARY_NOT_FOUND' });
    const { ctx, applied } = context('COMPLETED');
    expect(await refusal(applyDictionary(ctx, bob, 't1', 'd1'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect(applied).toEqual([]);
  });
});
