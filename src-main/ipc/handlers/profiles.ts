import { id, noPayload, payload, str } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function profileHandlers(ctx: HandlerContext): DomainHandlers<'profiles'> {
  return {
    'profiles:list': async (request) => {
      noPayload(request);
      return ctx.settings.profiles();
    },
    'profiles:add': async (request) => {
      const o = payload(request, ['name', 'baseUrl', 'apiKey']);
      return ctx.settings.addProfile({
        name: str(o.name, 'name', { max: 100 }),
        baseUrl: str(o.baseUrl, 'baseUrl', { max: 2000 }),
        apiKey: str(o.apiKey, 'apiKey', { max: 1000 }),
      });
    },
    'profiles:remove': async (request) => {
      const o = payload(request, ['id']);
      await ctx.removeProfile(id(o.id));
    },
    'profiles:activate': async (request) => {
      const o = payload(request, ['id']);
      return ctx.activateProfile(id(o.id));
    },
  };
}
