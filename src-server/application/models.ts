// The server's speech models: what is installed and serving, and an operator's downloads and deletions.
// The manager (src-server/models/) does the work; this maps its ModelErrors to the API's closed errors.
import type { Readable } from 'node:stream';
import type { AppContext } from '../app-context.js';
import { describeEngines } from '../engines/engine-setup.js';
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

/** Installs the model from its file (`body`, `declaredBytes` from Content-Length when sent); see ModelManager.install. */
export function installModelFromFile(
  ctx: AppContext,
  name: string,
  file: { body: Readable; declaredBytes: number | null },
) {
  return withModelErrors(() => ctx.models.install(name, file.body, { declaredBytes: file.declaredBytes }));
}

/** Removes the model's file; a running download of it is cancelled first. */
export async function deleteModel(ctx: AppContext, name: string): Promise<void> {
  await withModelErrors(() => ctx.models.delete(name));
}

/**
 * The model ids the audio operations (/v1/audio/*) accept now: "whisper-1" (the default engine, as they read
 * it), "diarization-high", and each speech engine by name, each only when the engine behind it can run on this
 * server (the same check as `kikitori-server engines`).
 */
export async function audioModelIds(ctx: AppContext): Promise<string[]> {
  const reports = await describeEngines(ctx.engines, ctx.config.engines);
  const usable = new Set(reports.filter((r) => r.usable).map((r) => r.name));
  const ids: string[] = [];
  if (usable.has(ctx.engines.speechFor('default').name)) ids.push('whisper-1');
  if (usable.has(ctx.engines.speechFor('diarization-high').name)) ids.push('diarization-high');
  for (const name of ctx.engines.speechEngines.keys()) if (usable.has(name)) ids.push(name);
  return ids;
}
