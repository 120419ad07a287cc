import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function appHandlers(ctx: HandlerContext): DomainHandlers<'app'> {
  return {
    'app:info': async () => ({ ...ctx.app }),
  };
}
