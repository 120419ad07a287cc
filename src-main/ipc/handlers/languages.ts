// What the active server's speech engines recognize, for the language picker. A server without
// GET /api/v1/models (404) or one that cannot be reached does not say: null, and the app offers every
// language with no detection (docs/decisions/0018-languages.md).
import { TRANSCRIPTION_MODELS, type ServingLanguages } from '../../../src-shared/ipc-contract.js';
import { ApiError } from '../../api-client/api-errors.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function languageHandlers(ctx: HandlerContext): DomainHandlers<'languages'> {
  return {
    'languages:serving': async () => {
      try {
        const { serving } = await ctx.session().client.listModels();
        return Object.fromEntries(
          TRANSCRIPTION_MODELS.map((model) => {
            const s = serving[model];
            return [model, { engine: s.engine, detectsLanguage: s.detects_language, languages: s.languages }];
          }),
        ) as ServingLanguages;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.error.code === 'offline')) return null;
        throw error;
      }
    },
  };
}
