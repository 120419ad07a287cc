import { noPayload } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function appHandlers(ctx: HandlerContext): DomainHandlers<'app'> {
  return {
    'app:info': async (request) => {
      noPayload(request);
      return { ...ctx.app };
    },
  };
}
