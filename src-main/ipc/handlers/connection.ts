import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function connectionHandlers(ctx: HandlerContext): DomainHandlers<'connection'> {
  return {
    'connection:status': async () => ctx.session().sync.status(),
  };
}
