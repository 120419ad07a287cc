// The server's speech models: what is installed and serving, and an operator's downloads and deletions.
// The manager (src-server/models/) does the work; this maps its ModelErrors to the API's closed errors.
import type { AppContext } from '../app-context.js';
import { modelErrors, withModelErrors } from './model-errors.js';
import { servingModels } from './serving-models.js';

export async function listModels(ctx: AppContext) {
  return { models: ctx.models.list(), serving: await servingModels(ctx) };
}

/** Starts the model's download; one already running answers the same. */
export function startModelDownload(ctx: AppContext, name: string) {
  return withModelErrors(() => ctx.models.startDownload(name));
}

/** The running or last download of a known model; none is an error. */
export async function getModelDownload(ctx: AppContext, name: string) {
  const entry = await withModelErrors(() => ctx.models.get(name));
  const download = ctx.models.getDownload(entry.name);
  if (!download) throw modelErrors.downloadNotFound(entry.name);
  return download;
}

/** Resolves once the download has stopped and its partial file is gone; none running is an error. */
export async function cancelModelDownload(ctx: AppContext, name: string): Promise<void> {
  const entry = await withModelErrors(() => ctx.models.get(name));
  if (!(await ctx.models.cancelDownload(entry.name))) throw modelErrors.downloadNotFound(entry.name);
}

/** Removes the model's file; a running download of it is cancelled first. */
export async function deleteModel(ctx: AppContext, name: string): Promise<void> {
  await withModelErrors(() => ctx.models.delete(name));
}
