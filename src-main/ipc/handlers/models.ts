import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function modelHandlers(ctx: HandlerContext): DomainHandlers<'models'> {
  return {
    'models:list': async () => ctx.session().models.list(),
    'models:download': async ({ name }) => ctx.session().models.download(name),
    'models:cancel': async ({ name }) => ctx.session().models.cancel(name),
    'models:delete': async ({ name }) => ctx.session().models.remove(name),
    'models:dismiss-offer': async () => ctx.session().models.dismissOffer(),
  };
}
