// The transcription read and delete use cases on their own: the repository and the service are the
// boundary this test is not about; what is tested is team scoping, the DELETE role and the closed errors.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../../src-server/app-context.js';
import {
  deleteTranscription,
  getTranscription,
  listTranscriptions,
  listVersion,
} from '../../../../src-server/application/transcriptions.js';
import { AppError } from '../../../../src-server/application/errors.js';

const alice = { teamId: 'acme', userId: 'alice', roles: ['READ', 'DELETE'] } as never;
const reader = { teamId: 'acme', userId: 'carol', roles: ['READ'] } as never;
const bob = { teamId: 'globex', userId: 'bob', roles: ['READ', 'DELETE'] } as never;

function context() {
  const deleted: string[] = [];
  const lists: Array<[string, number, number]> = [];
  const ctx = {
    config: { pageSize: 7 },
    transcriptions: {
      get: (teamId: string, id: string) =>
        Promise.resolve(teamId === 'acme' && id === 't1' ? { transcriptionId: 't1', teamId } : null),
      list: (teamId: string, page: number, pageSize: number) => {
        lists.push([teamId, page, pageSize]);
        return Promise.resolve([]);
      },
      listVersion: (teamId: string) => Promise.resolve(teamId === 'acme' ? 3 : 9),
    },
    service: {
      delete: (_caller: unknown, record: { transcriptionId: string }) =>
        Promise.resolve(void deleted.push(record.transcriptionId)),
    },
  } as unknown as AppContext;
  return { ctx, deleted, lists };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('transcriptions', () => {
  it("lists the caller's team's page at the configured size, under its team's version", async () => {
    const { ctx, lists } = context();
    await listTranscriptions(ctx, bob, 2);
    expect(lists).toEqual([['globex', 2, 7]]);
    expect(await listVersion(ctx, alice)).toBe(3);
  });

  it("reads the caller's transcription, and another team's as unknown", async () => {
    const { ctx } = context();
    expect(await getTranscription(ctx, alice, 't1')).toMatchObject({ transcriptionId: 't1' });
    expect(await refusal(getTranscription(ctx, bob, 't1'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
  });

  it("deletes for a caller with the DELETE role only, and never another team's", async () => {
    const { ctx, deleted } = context();
    expect(await refusal(deleteTranscription(ctx, reader, 't1'))).toMatchObject({ code: 'ROLE_REQUIRED' });
    expect(await refusal(deleteTranscription(ctx, bob, 't1'))).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect(deleted).toEqual([]);
    await deleteTranscription(ctx, alice, 't1');
    expect(deleted).toEqual(['t1']);
  });
});
