import type { DomainHandlers, HandlerContext } from './handler-context.js';

/**
 * Served to the preload only (the renderer's API has no such method): the paths it read from dropped
 * Files with webUtils.getPathForFile. A page cannot make a File naming a path of its choosing, so these
 * are files the user dragged onto the window (decision 0046).
 */
export function fileHandlers(ctx: HandlerContext): DomainHandlers<'files'> {
  return {
    'files:offer-dropped': async ({ paths }) => ctx.files.offer(paths),
  };
}
