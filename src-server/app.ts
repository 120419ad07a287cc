// buildApp() assembles the HTTP API without listening, so tests can inject requests and the CLI owns
// process concerns (ports, signals).
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { AppContext } from './app-context.js';
import { authenticateWith } from './http/auth.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './http/error-handler.js';
import { errors } from './application/errors.js';
import { installRateLimits } from './http/rate-limit.js';
import { installRequestLogging, requestLogging } from './http/request-log.js';
import { installIdleTimeout, timeoutOptions } from './http/timeouts.js';
import type { ApiApp, RouteModule } from './http/api-app.js';
import { analysisRouteModules } from './http/routes/analyses/index.js';
import { dictionaryRoutes } from './http/routes/dictionaries/index.js';
import { speakerRoutes } from './http/routes/speakers/index.js';
import { fileRoutes } from './http/routes/files/index.js';
import { openaiRoutes } from './http/routes/openai/index.js';
import { realtimeTranscription, websocketOptions } from './http/routes/openai/realtime.js';
import { healthRoutes } from './http/routes/health/index.js';
import { modelRoutes } from './http/routes/models/index.js';
import { transcriptionRoutes } from './http/routes/transcriptions/index.js';
import { sharedSchemas } from '../src-shared/api/named-schemas.js';

export const API_VERSION = '1.9.0';

/** Bodies are validated strictly (wrong types are 400); query strings and path parameters arrive as text and are coerced. */
function validators() {
  const make = (coerceTypes: boolean) => {
    const ajv = new Ajv({
      coerceTypes,
      useDefaults: true,
      removeAdditional: false,
      allErrors: false,
      verbose: true,
      strict: false,
    });
    addFormats.default(ajv);
    for (const schema of sharedSchemas) ajv.addSchema(schema);
    return ajv;
  };
  const strict = make(false);
  const coercing = make(true);
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
}

function registerRoutes(app: ApiApp, ctx: AppContext, routes: RouteModule[]) {
  for (const route of routes) route(app, ctx);
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  // Fastify logs every request only at info and below (decision 0041); requestLog() writes at any level.
  const logging = requestLogging(ctx.logger);
  const app = Fastify({
    loggerInstance: logging.fastify,
    bodyLimit: 8 * 1024 * 1024,
    trustProxy: ctx.config.server.publicUrl === null ? false : true,
    // What the router and Node's HTTP parser answer themselves also carries the spec's error body.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: clientErrorHandler(logging.server),
    ...timeoutOptions(ctx.config.server),
  }).withTypeProvider<TypeBoxTypeProvider>();

  installRequestLogging(app, logging);
  app.setValidatorCompiler(validators());
  installErrorHandling(app);
  installIdleTimeout(app);
  await installRateLimits(app, ctx.config.rateLimits);
  app.decorateRequest('caller', null);
  app.decorateRequest('changeGeneration', null);

  // "No body" operations (transcribe, summary...) are sometimes sent with a JSON content type and an empty body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(errors.malformedJson((error as Error).message), undefined);
    }
  });

  for (const schema of sharedSchemas) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kikitori Transcription and Dictionary API',
        version: API_VERSION,
        description:
          'kikitori-server: the Transcription and Dictionary API (revision 1.9.0, plus the 1.2.0 review operations).',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKey: [] }, { bearer: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerRoutes(app, ctx, healthRoutes);

  // Signed-URL routes take raw bodies of any type and stream them; they have their own parsers.
  await app.register(async (files) => {
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', (_request, _payload, done) => done(null));
    registerRoutes(files, ctx, fileRoutes);
  });

  const authenticate = authenticateWith(ctx.keys, ctx.changes);
  await app.register(async (api) => {
    // The API speaks JSON only; a text body is a client mistake worth a clear 415.
    api.removeContentTypeParser('text/plain');
    api.addHook('onRequest', authenticate);
    registerRoutes(api, ctx, [
      ...transcriptionRoutes,
      ...analysisRouteModules,
      ...dictionaryRoutes,
      ...speakerRoutes,
      ...openaiRoutes,
      ...modelRoutes,
    ]);
  });

  // Live transcription (WebSocket) in a scope of its own: the plugin's hooks (its onResponse closes a refused
  // upgrade's socket) run before authentication there, and cost nothing on the other routes.
  await app.register(async (live) => {
    await live.register(websocket, websocketOptions(ctx));
    live.addHook('onRequest', authenticate);
    registerRoutes(live, ctx, [realtimeTranscription]);
  });

  return app;
}
