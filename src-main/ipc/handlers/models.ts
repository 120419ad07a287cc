import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function modelHandlers(ctx: HandlerContext): DomainHandlers<'models'> {
  return {
    'models:list': async () => ctx.session().models.list(),
    'models:download': async ({ name }) => ctx.session().models.download(name),
    'models:cancel': async ({ name }) => ctx.session().models.cancel(name),
    'models:delete': async ({ name }) => ctx.session().models.remove(name),
    // The path comes only from main's own dialog, never from the renderer.
    'models:install-file': async ({ name }) => {
      const file = await ctx.dialogs.openModelFile();
      return file === null ? ctx.session().models.list() : ctx.session().models.installFromFile(name, file);
    },
    'models:dismiss-offer': async () => ctx.session().models.dismissOffer(),
  };
}
