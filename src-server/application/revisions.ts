// A transcript's revisions (issue 24, decision 0052): the history, one revision's document, edit operations
// (rebased on the latest when nobody touched their segments since their base) and restoring a revision.
import type { AppContext } from '../app-context.js';
import type { RevisionInfo } from '../db/revision-repository.js';
import type { Caller, TranscriptionRecord } from '../domain/records.js';
import type { Commit } from '../domain/revision-store.js';
import { isEmptyTouched, rebaseOperations, summarizeOperations, type Touched } from '../domain/revisions.js';
import type { EditOperation } from '../../src-shared/transcript-editing.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';

/** What the revision use cases reach: only these parts of the context. */
export type RevisionsContext = Pick<AppContext, 'transcriptions' | 'revisions'>;

export type { RevisionInfo };

export interface WrittenRevision {
  transcriptionId: string;
  info: RevisionInfo;
  rebased: boolean;
  /** False when nothing changed and no revision was made: `info` is the latest's. */
  changed: boolean;
}

/** The caller's transcription, which must have a transcript to have revisions. */
export async function transcriptWithRevisions(
  ctx: RevisionsContext,
  caller: Caller,
  transcriptionId: string,
): Promise<TranscriptionRecord> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  if (record.status !== 'COMPLETED' || !record.transcriptKey)
    throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
  return record;
}

export async function listRevisions(ctx: RevisionsContext, caller: Caller, transcriptionId: string) {
  const record = await transcriptWithRevisions(ctx, caller, transcriptionId);
  const revisions = await ctx.revisions.list(record);
  return { transcriptionId: record.transcriptionId, latest: revisions.at(-1)!.revision, revisions };
}

export async function readRevision(
  ctx: RevisionsContext,
  caller: Caller,
  transcriptionId: string,
  revision: number,
): Promise<{ transcriptionId: string; info: RevisionInfo; document: TranscriptDocument }> {
  const record = await transcriptWithRevisions(ctx, caller, transcriptionId);
  const [info, document] = await Promise.all([
    ctx.revisions.info(record, revision),
    ctx.revisions.at(record, revision),
  ]);
  if (!info || !document) throw await noSuchRevision(ctx, record, revision, 'revision');
  return { transcriptionId: record.transcriptionId, info, document };
}

type EditRefusal =
  | { kind: 'invalid'; index: number; field: string; message: string }
  | { kind: 'conflict'; current: number; touched: Touched };

/** Operations made on `baseRevision`, as a new revision by the caller. */
export async function editTranscript(
  ctx: RevisionsContext,
  caller: Caller,
  transcriptionId: string,
  request: { baseRevision: number; operations: readonly EditOperation[]; ifMatch?: number },
): Promise<WrittenRevision> {
  const record = await transcriptWithRevisions(ctx, caller, transcriptionId);
  const base = await ctx.revisions.at(record, request.baseRevision);
  if (!base) throw await noSuchRevision(ctx, record, request.baseRevision, 'base_revision');
  const commit = await ctx.revisions.commit<EditRefusal>(
    record,
    { author: authorOf(caller), source: 'edit', ifMatch: request.ifMatch },
    async (latest) => {
      const current = latest.revision === request.baseRevision;
      const since = current
        ? { segments: [], speakers: [] }
        : await ctx.revisions.touchedSince(record, request.baseRevision, base);
      const outcome = rebaseOperations(base, latest.document, since, request.operations, current);
      switch (outcome.kind) {
        case 'invalid':
          return { refusal: outcome };
        case 'conflict':
          return { refusal: { kind: 'conflict', current: latest.revision, touched: outcome.touched } };
        case 'applied':
          return {
            document: outcome.document,
            summary: summarizeOperations(request.operations),
            rebased: outcome.rebased,
          };
      }
    },
  );
  return written(ctx, record, commit, (refusal) =>
    refusal.kind === 'invalid'
      ? errors.validation(refusal.message, `operations.${refusal.index}.${refusal.field}`)
      : errors.revisionConflict(refusal.current, isEmptyTouched(refusal.touched) ? undefined : refusal.touched),
  );
}

/** A new revision equal to `revision`. */
export async function restoreRevision(
  ctx: RevisionsContext,
  caller: Caller,
  transcriptionId: string,
  revision: number,
  ifMatch?: number,
): Promise<WrittenRevision> {
  const record = await transcriptWithRevisions(ctx, caller, transcriptionId);
  const target = await ctx.revisions.at(record, revision);
  if (!target) throw await noSuchRevision(ctx, record, revision, 'revision');
  const commit = await ctx.revisions.commit<never>(
    record,
    { author: authorOf(caller), source: 'restore', ifMatch },
    () => ({ document: target, summary: `Restored revision ${revision}` }),
  );
  return written(ctx, record, commit, (never) => never);
}

export const authorOf = (caller: Caller) => ({ userId: caller.userId, name: caller.userName });

/** A commit's outcome as the use case answers it: the revision written (or the latest), or a closed error. */
export async function written<E>(
  ctx: RevisionsContext,
  record: TranscriptionRecord,
  commit: Commit<E>,
  refused: (refusal: E) => Error,
): Promise<WrittenRevision> {
  switch (commit.kind) {
    case 'moved-on':
      throw errors.revisionConflict(commit.current);
    case 'refused':
      throw refused(commit.refusal);
    case 'written':
      return { transcriptionId: record.transcriptionId, info: commit.info, rebased: commit.rebased, changed: true };
    case 'unchanged': {
      const info = await ctx.revisions.info(record, commit.revision);
      if (!info) throw new Error(`revision ${commit.revision} of ${record.transcriptionId} vanished`);
      return { transcriptionId: record.transcriptionId, info, rebased: false, changed: false };
    }
  }
}

async function noSuchRevision(ctx: RevisionsContext, record: TranscriptionRecord, revision: number, field: string) {
  const latest = (await ctx.revisions.latest(record)).revision;
  return errors.validation(
    `Transcription "${record.transcriptionId}" has revisions 1 to ${latest}; there is no revision ${revision}.`,
    field,
  );
}
