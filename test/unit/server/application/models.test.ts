// The model use cases on their own: the model manager is the boundary this test is not about; what is
// tested is how its ModelErrors and missing downloads become the API's closed errors.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../../src-server/app-context.js';
import {
  cancelModelDownload,
  deleteModel,
  getModelDownload,
  startModelDownload,
} from '../../../../src-server/application/models.js';
import { AppError } from '../../../../src-server/application/errors.js';
import { ModelError } from '../../../../src-server/models/model-error.js';

function context() {
  const known = (name: string) => {
    if (name !== 'base') throw new ModelError('not-found', `No speech model "${name}".`);
    return { name };
  };
  const ctx = {
    models: {
      get: known,
      getDownload: () => null,
      cancelDownload: () => Promise.resolve(false),
      startDownload: (name: string) =>
        Promise.reject(new ModelError(name === 'base' ? 'insufficient-storage' : 'not-found', 'No room.')),
      delete: (name: string) =>
        Promise.reject(new ModelError(name === 'base' ? 'not-installed' : 'not-found', 'Not installed.')),
    },
  } as unknown as AppContext;
  return ctx;
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('models', () => {
  it("answers an unknown model as MODEL_NOT_FOUND, and a known one's missing download as MODEL_DOWNLOAD_NOT_FOUND", async () => {
    const ctx = context();
    expect(await refusal(getModelDownload(ctx, 'nope'))).toMatchObject({ statusCode: 404, code: 'MODEL_NOT_FOUND' });
    expect(await refusal(getModelDownload(ctx, 'base'))).toMatchObject({
      statusCode: 404,
      code: 'MODEL_DOWNLOAD_NOT_FOUND',
    });
    expect(await refusal(cancelModelDownload(ctx, 'nope'))).toMatchObject({ code: 'MODEL_NOT_FOUND' });
    expect(await refusal(cancelModelDownload(ctx, 'base'))).toMatchObject({ code: 'MODEL_DOWNLOAD_NOT_FOUND' });
  });

  it("maps the manager's refusals to their closed errors", async () => {
    const ctx = context();
    expect(await refusal(startModelDownload(ctx, 'base'))).toMatchObject({
      statusCode: 507,
      code: 'INSUFFICIENT_STORAGE',
    });
    expect(await refusal(deleteModel(ctx, 'base'))).toMatchObject({ statusCode: 409, code: 'MODEL_NOT_INSTALLED' });
    expect(await refusal(deleteModel(ctx, 'nope'))).toMatchObject({ code: 'MODEL_NOT_FOUND' });
  });
});
