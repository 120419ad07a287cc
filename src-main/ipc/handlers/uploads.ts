import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function uploadHandlers(ctx: HandlerContext): DomainHandlers<'uploads'> {
  return {
    'uploads:pick': async () => ctx.dialogs.openAudioFiles(),
    'uploads:add': async ({ paths, options }) => ctx.session().uploads.add(paths, options),
    'uploads:pick-folder': async () => ctx.dialogs.openFolder(),
    'uploads:add-folder': async ({ path, options }) => ctx.session().uploads.addFolder(path, options),
    'uploads:list': async () => ctx.session().uploads.list(),
    'uploads:cancel': async ({ id }) => ctx.session().uploads.cancel(id),
    'uploads:clear-finished': async () => ctx.session().uploads.clearFinished(),
    'uploads:retry': async ({ id }) => ctx.session().uploads.retry(id),
  };
}
