import type { AnalysisKind } from '../../../src-shared/ipc-contract.js';
import { id, invalid, languageCode, oneOf, payload } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

const KINDS: readonly AnalysisKind[] = ['summary', 'emotion', 'translation'];

function analysisRequest(request: unknown, languageRequired: boolean) {
  const o = payload(request, ['id', 'kind', 'language']);
  const kind = oneOf(o.kind, 'kind', KINDS);
  if (kind !== 'translation' && o.language !== undefined) invalid('language', 'Only a translation takes a language.');
  if (kind === 'translation' && languageRequired && o.language === undefined) invalid('language', 'Choose the language to translate into.');
  return { id: id(o.id), kind, language: o.language === undefined ? undefined : languageCode(o.language, 'language') };
}

export function analysisHandlers(ctx: HandlerContext): DomainHandlers<'analysis'> {
  return {
    'analysis:request': async (request) => {
      const r = analysisRequest(request, true);
      const session = ctx.session();
      await session.transcripts.ensureRecord(r.id);
      const view = await session.analyses.request(r.id, r.kind, r.language);
      session.sync.kick();
      return view;
    },
    'analysis:get': async (request) => {
      const r = analysisRequest(request, false);
      const session = ctx.session();
      await session.transcripts.ensureRecord(r.id);
      return session.analyses.get(r.id, r.kind, r.language);
    },
  };
}
