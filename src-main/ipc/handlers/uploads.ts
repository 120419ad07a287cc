import type { DomainHandlers, HandlerContext } from './handler-context.js';

// Paths come only from main's own dialogs (and drops, through the preload: files.ts); the renderer
// sees handles and gives them back (decision 0046).
export function uploadHandlers(ctx: HandlerContext): DomainHandlers<'uploads'> {
  return {
    'uploads:pick': async () => ctx.files.offer(await ctx.dialogs.openAudioFiles()),
    'uploads:add': async ({ files, options }) => {
      const paths = ctx.files.takeAll(files, 'file', 'files');
      return ctx.session().uploads.add(paths, options);
    },
    'uploads:pick-folder': async () => {
      const folder = await ctx.dialogs.openFolder();
      return folder === null ? null : ((await ctx.files.offer([folder]))[0] ?? null);
    },
    'uploads:add-folder': async ({ folder, options }) => {
      const root = ctx.files.take(folder, 'folder', 'folder');
      return ctx.session().uploads.addFolder(root, options);
    },
    'uploads:list': async () => ctx.session().uploads.list(),
    'uploads:cancel': async ({ id }) => ctx.session().uploads.cancel(id),
    'uploads:clear-finished': async () => ctx.session().uploads.clearFinished(),
    'uploads:retry': async ({ id }) => ctx.session().uploads.retry(id),
  };
}
