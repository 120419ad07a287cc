import { noPayload } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function connectionHandlers(ctx: HandlerContext): DomainHandlers<'connection'> {
  return {
    'connection:status': async (request) => {
      noPayload(request);
      return ctx.session().sync.status();
    },
  };
}
