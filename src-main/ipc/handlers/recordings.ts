import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function recordingHandlers(ctx: HandlerContext): DomainHandlers<'recordings'> {
  return {
    'recordings:start': async ({ mimeType }) => ctx.session().recordings.start(mimeType),
    'recordings:append': async ({ id, offset, data }) => ctx.session().recordings.append(id, offset, Buffer.from(data, 'base64')),
    'recordings:finish': async ({ id, options }) => ctx.session().recordings.finish(id, options),
    'recordings:list': async () => ctx.session().recordings.list(),
    'recordings:discard': async ({ id }) => ctx.session().recordings.discard(id),
  };
}
