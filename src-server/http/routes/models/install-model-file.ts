import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { installModelFile as operation } from '../../../../src-shared/api/models.js';
import { installModelFromFile } from '../../../application/models.js';
import { requireRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

/**
 * The body is the model file itself, streamed to disk and checked there (never buffered), so this route
 * lives in its own scope whose only parser hands the raw stream through, whatever the content type.
 */
export const installModelFile: RouteModule = (app, ctx) => {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.withTypeProvider<TypeBoxTypeProvider>().put(operation.path, { schema: operation.schema }, async (request) => {
      requireRole(request, 'OPERATOR', 'Installing a speech model');
      const declared = Number(request.headers['content-length'] ?? NaN);
      return installModelFromFile(ctx, request.params.name, {
        body: request.raw,
        declaredBytes: Number.isFinite(declared) ? declared : null,
      });
    });
  });
};
