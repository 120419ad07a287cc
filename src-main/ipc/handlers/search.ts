import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function searchHandlers(ctx: HandlerContext): DomainHandlers<'search'> {
  return {
    'search:query': async ({ text, limit }) => ctx.session().store.search.search(text, limit ?? 50),
  };
}
