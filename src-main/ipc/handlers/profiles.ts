import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function profileHandlers(ctx: HandlerContext): DomainHandlers<'profiles'> {
  return {
    'profiles:list': async () => ctx.settings.profiles(),
    'profiles:add': async (input) => ctx.settings.addProfile(input),
    'profiles:remove': async ({ id }) => ctx.removeProfile(id),
    'profiles:activate': async ({ id }) => ctx.activateProfile(id),
  };
}
