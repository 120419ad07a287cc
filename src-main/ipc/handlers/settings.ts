import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function settingsHandlers(ctx: HandlerContext): DomainHandlers<'settings'> {
  return {
    'settings:get': async () => ctx.settings.settings(),
    'settings:update': async (patch) => ctx.settings.updateSettings(patch),
  };
}
