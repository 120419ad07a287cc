import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function analysisHandlers(ctx: HandlerContext): DomainHandlers<'analysis'> {
  return {
    'analysis:request': async ({ id, kind, language }) => {
      const session = ctx.session();
      await session.transcripts.ensureRecord(id);
      const view = await session.analyses.request(id, kind, language);
      session.sync.kick();
      return view;
    },
    'analysis:get': async ({ id, kind, language }) => {
      const session = ctx.session();
      await session.transcripts.ensureRecord(id);
      return session.analyses.get(id, kind, language);
    },
    'analysis:translation-targets': async ({ id }) => {
      const session = ctx.session();
      await session.transcripts.ensureRecord(id);
      return session.analyses.translationTargets(id);
    },
  };
}
