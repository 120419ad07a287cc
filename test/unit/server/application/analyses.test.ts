// The analysis use cases on their own: the repository and the AnalysisService are the boundary this test
// is not about; what is tested is team scoping, the translation's language check and the closed errors.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../../src-server/app-context.js';
import { readAnalysis, requestAnalysis } from '../../../../src-server/application/analyses.js';
import type { AnalysisRefusal } from '../../../../src-server/domain/analysis-service.js';
import { AppError } from '../../../../src-server/application/errors.js';

const alice = { teamId: 'acme', userId: 'alice' } as never;
const bob = { teamId: 'globex', userId: 'bob' } as never;
const names = { label: 'translation', segment: 'translate' };

function context(refusal: AnalysisRefusal | null = null) {
  const requested: string[] = [];
  const ctx = {
    transcriptions: {
      get: (teamId: string, id: string) =>
        Promise.resolve(
          teamId === 'acme' && id === 't1' ? { transcriptionId: 't1', teamId, status: 'COMPLETED' } : null,
        ),
    },
    analysisService: {
      request: (_record: unknown, kind: string, language: string) => {
        requested.push(`${kind}:${language}`);
        return Promise.resolve(refusal);
      },
    },
    analyses: {
      get: (id: string, kind: string, language?: string) =>
        Promise.resolve(kind === 'translation' && language === 'es' ? { transcriptionId: id, kind, language } : null),
    },
  } as unknown as AppContext;
  return { ctx, requested };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('analyses', () => {
  it('queues a translation to a lower-cased target, and a summary without one', async () => {
    const { ctx, requested } = context();
    expect(await requestAnalysis(ctx, alice, 't1', 'translation', 'ES')).toEqual({
      transcriptionId: 't1',
      language: 'es',
    });
    expect(await requestAnalysis(ctx, alice, 't1', 'summary', 'ES')).toEqual({ transcriptionId: 't1', language: '' });
    expect(requested).toEqual(['translation:es', 'summary:']);
  });

  it("refuses a target that is no language code, and another team's transcription as unknown", async () => {
    const { ctx, requested } = context();
    expect(await refusal(requestAnalysis(ctx, alice, 't1', 'translation', 'klingon'))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'language',
    });
    expect(await refusal(requestAnalysis(ctx, alice, 't1', 'translation', undefined))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'language',
    });
    expect(await refusal(requestAnalysis(ctx, bob, 't1', 'summary', undefined))).toMatchObject({
      code: 'TRANSCRIPTION_NOT_FOUND',
    });
    expect(await refusal(readAnalysis(ctx, bob, 't1', 'translation', 'es', names))).toMatchObject({
      code: 'TRANSCRIPTION_NOT_FOUND',
    });
    expect(requested).toEqual([]);
  });

  it("answers the service's refusals with their closed errors", async () => {
    expect(
      await refusal(requestAnalysis(context({ kind: 'not-completed' }).ctx, alice, 't1', 'summary', undefined)),
    ).toMatchObject({ code: 'TRANSCRIPTION_NOT_COMPLETED' });
    const unsupported = { kind: 'unsupported-language', message: 'No engine.' } as const;
    expect(await refusal(requestAnalysis(context(unsupported).ctx, alice, 't1', 'translation', 'fr'))).toMatchObject({
      code: 'UNSUPPORTED_LANGUAGE',
      field: 'language',
    });
  });

  it('reads the latest result for the target asked, and none yet is not found', async () => {
    const { ctx } = context();
    expect(await readAnalysis(ctx, alice, 't1', 'translation', 'ES', names)).toMatchObject({ language: 'es' });
    expect(await refusal(readAnalysis(ctx, alice, 't1', 'translation', 'de', names))).toMatchObject({
      code: 'ANALYSIS_NOT_FOUND',
    });
  });
});
