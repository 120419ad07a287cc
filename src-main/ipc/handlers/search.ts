import { int, payload, str } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function searchHandlers(ctx: HandlerContext): DomainHandlers<'search'> {
  return {
    'search:query': async (request) => {
      const o = payload(request, ['text', 'limit']);
      return ctx.session().store.search.search(str(o.text, 'text', { max: 500 }), o.limit === undefined ? 50 : int(o.limit, 'limit', 1, 500));
    },
  };
}
