// The "start a transcription" use case on its own, in file mode (no presigned uploads): the caller's
// ticket only, and the service's answer as a closed error. The repository and service are the boundary.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../../src-server/app-context.js';
import { startTranscription } from '../../../../src-server/application/start-transcription.js';
import type { StartOutcome } from '../../../../src-server/domain/transcription-service.js';
import { AppError } from '../../../../src-server/application/errors.js';

const caller = { teamId: 'acme', userId: 'alice' } as never;

function context(outcome: StartOutcome): AppContext {
  const records = new Map([
    ['t1', { transcriptionId: 't1', teamId: 'acme', status: outcome === 'ended' ? 'COMPLETED' : 'IN_PROGRESS' }],
  ]);
  return {
    storage: {},
    transcriptions: {
      get: (teamId: string, id: string) => Promise.resolve(records.get(id)?.teamId === teamId ? records.get(id) : null),
      getById: (id: string) => Promise.resolve({ ...records.get(id), progress: 0.01 }),
    },
    service: { start: () => Promise.resolve(outcome) },
  } as unknown as AppContext;
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('start a transcription', () => {
  it('answers the record as it is once started', async () => {
    expect(await startTranscription(context('started'), caller, 't1')).toMatchObject({
      transcriptionId: 't1',
      progress: 0.01,
    });
    expect(await startTranscription(context('already-running'), caller, 't1')).toMatchObject({ transcriptionId: 't1' });
  });

  it("refuses another team's ticket as unknown, a ticket without audio, and one that has ended", async () => {
    expect(
      await refusal(startTranscription(context('started'), { teamId: 'globex', userId: 'bob' } as never, 't1')),
    ).toMatchObject({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect(await refusal(startTranscription(context('upload-missing'), caller, 't1'))).toMatchObject({
      code: 'UPLOAD_NOT_COMPLETE',
    });
    expect(await refusal(startTranscription(context('ended'), caller, 't1'))).toMatchObject({
      code: 'TRANSCRIPTION_ALREADY_ENDED',
    });
  });
});
