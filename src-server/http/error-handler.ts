// One place renders every failure as the spec's error body (OpenAI's error body under /v1/), with an
// error_id that also appears in the log line of the request, so support can find it.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorCodeName } from '../../src-shared/error-codes.js';
import {
  OPENAI_PREFIX,
  openAiErrorShape,
  type OpenAiErrorBody,
  type OpenAiErrorShape,
} from '../../src-shared/api/openai.js';
import { EngineError } from '../domain/engine-error.js';
import {
  closeLingering,
  discardUnreadBody,
  isAnsweredEarly,
  isLingering,
  rawRequestLine,
} from './client-connection.js';
import { engineErrorToAppError } from '../application/engine-errors.js';
import { AppError, errors } from '../application/errors.js';
import { requestLog } from './request-log.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  /** The offending value; Ajv adds it because the validators are built with `verbose`. */
  data?: unknown;
  /** The schema holding the failed keyword (also from `verbose`): its description and union branches. */
  parentSchema?: Record<string, unknown>;
}

/** The values a union of constants allows (["json", "srt", ...]), or null when a branch is anything else. */
function unionConstants(schema: ValidationIssue['parentSchema']): unknown[] | null {
  const branches = schema?.anyOf ?? schema?.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const values = branches.map((b: unknown) => (b && typeof b === 'object' && 'const' in b ? b.const : undefined));
  return values.every((v) => v !== undefined) ? values : null;
}

const listValues = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * What a value must be, said for people: the allowed values of an enum, a constant or a union of
 * constants, a union's own description; null to keep Ajv's wording (ranges, lengths, types).
 */
function requirement(issue: ValidationIssue): string | null {
  switch (issue.keyword) {
    case 'enum':
      return Array.isArray(issue.params.allowedValues)
        ? `must be one of ${listValues(issue.params.allowedValues)}`
        : null;
    case 'const':
      return `must be ${JSON.stringify(issue.params.allowedValue)}`;
    case 'anyOf':
    case 'oneOf': {
      const values = unionConstants(issue.parentSchema);
      if (values) return `must be one of ${listValues(values)}`;
      const description = issue.parentSchema?.description;
      return typeof description === 'string' ? `must be ${description}` : null;
    }
  }
  return null;
}

/** "/words/0/reading" -> ["words", "0", "reading"] (JSON Pointer, RFC 6901). */
function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Where an issue is, as path segments, including the property a required or additionalProperties issue names. */
function issuePath(issue: ValidationIssue): string[] {
  const path = pointerSegments(issue.instancePath);
  const named =
    issue.keyword === 'required'
      ? issue.params.missingProperty
      : issue.keyword === 'additionalProperties'
        ? issue.params.additionalProperty
        : undefined;
  return typeof named === 'string' ? [...path, named] : path;
}

/**
 * The bad input's dot-separated path inside the body, query or path parameters, or undefined when the
 * whole body is wrong. Ajv stops at the first failing location, but a union reports one issue per branch
 * there (language: "a string, or an array of strings"), so the deepest path is the most precise.
 */
export function validationField(issues: readonly ValidationIssue[]): string | undefined {
  let deepest: string[] = [];
  for (const issue of issues) {
    const path = issuePath(issue);
    if (path.length > deepest.length) deepest = path;
  }
  return deepest.length > 0 ? deepest.join('.') : undefined;
}

/** "body/num_speakers must be >= 1" -> a sentence naming the field and the fix. */
function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field';
  // A union's failure comes with one issue per branch before it ("must match pattern", "must be array",
  // "must be equal to constant"): the union's own issue says it for people, so the branches are left out.
  const unions = issues.filter((i) => (i.keyword === 'anyOf' || i.keyword === 'oneOf') && requirement(i));
  const inUnion = (issue: ValidationIssue) =>
    unions.some((u) => u !== issue && (issue.instancePath + '/').startsWith(u.instancePath + '/'));
  const parts = issues
    .filter((issue) => !inUnion(issue))
    .slice(0, 5)
    .map((issue) => {
      const field = pointerSegments(issue.instancePath).join('.');
      if (issue.keyword === 'required') return `missing required ${where} "${issuePath(issue).join('.')}"`;
      if (issue.keyword === 'additionalProperties') return `unknown ${where} "${issuePath(issue).join('.')}"`;
      const subject = field ? `${where} "${field}"` : context === 'body' ? 'the request body' : where;
      const wanted = requirement(issue);
      if (wanted) return `${subject} ${wanted}${issue.data === undefined ? '' : `; got ${JSON.stringify(issue.data)}`}`;
      return `${subject} ${issue.message ?? 'is invalid'}`;
    });
  return `Invalid request: ${[...new Set(parts)].join('; ')}.`;
}

/** The value the client sent, for messages that quote it. */
function invalidValue(issues: readonly ValidationIssue[]): unknown {
  return issues.find((issue) => issue.data !== undefined)?.data;
}

function toAppError(
  error: FastifyError & { validation?: ValidationIssue[]; validationContext?: string },
): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof EngineError) return engineErrorToAppError(error);
  if (error.validation) {
    const field = validationField(error.validation);
    if (error.validationContext === 'querystring' && field === 'page')
      return errors.invalidPage(invalidValue(error.validation));
    return errors.validation(describeValidation(error.validationContext, error.validation), field);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.malformedJson(error.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large for this operation.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType('Send the request body as application/json.');
  }
  if (error instanceof SyntaxError) return errors.malformedJson(error.message);
  if (error.statusCode === 415)
    return errors.unsupportedMediaType(`Unsupported Content-Type. Send the request body as application/json.`);
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return errors.validation(error.message);
  }
  return null;
}

/** Under /v1/ clients are OpenAI's SDKs: they read OpenAI's error body, not the spec's. */
function speaksOpenAi(target: string): boolean {
  return target.startsWith(OPENAI_PREFIX) || target.split('?')[0] === OPENAI_PREFIX.slice(0, -1);
}

function openAiBody(
  errorId: string,
  shape: OpenAiErrorShape,
  message: string,
  field: string | undefined,
): OpenAiErrorBody {
  return { error: { message, type: shape.type, param: field ?? null, code: shape.code, error_id: errorId } };
}

/** The spec's error body (section 2.10), with the `field` extension when there is one. */
function specBody(
  errorId: string,
  code: ErrorCodeName,
  message: string,
  field?: string,
  details?: Record<string, unknown>,
) {
  return {
    error_id: errorId,
    error_code: ErrorCode[code],
    error_message: message,
    ...(field ? { field } : {}),
    ...(details ? { details } : {}),
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError | null, cause?: unknown) {
  const errorId = randomUUID();
  let shown = error;
  if (shown === null) {
    requestLog(request).error({ err: cause, error_id: errorId }, 'unexpected error');
    shown = new AppError(500, 'INTERNAL_ERROR', `Internal server error. Quote error_id ${errorId} when reporting it.`);
  } else {
    requestLog(request).info(
      { error_id: errorId, error_code: shown.errorCode, status: shown.statusCode, ...shown.logFields() },
      shown.message,
    );
  }
  if (!request.raw.complete) {
    // Answered before the body was read (a 413, a quota refusal): the connection stays open while the
    // rest of the body is discarded, bounded, since closing it with bytes unread is a reset that can
    // discard this answer. Fastify asks to close after a body it rejected; Node would then close at once.
    void reply.removeHeader('connection');
    discardUnreadBody(request.raw);
  }
  if (!speaksOpenAi(request.url))
    return reply
      .status(shown.statusCode)
      .send(specBody(errorId, shown.code, shown.message, shown.field, shown.details));
  const shape = openAiErrorShape(shown.statusCode, shown.code);
  if (shape.shouldRetry !== undefined) void reply.header('x-should-retry', String(shape.shouldRetry));
  return reply.status(shape.status).send(openAiBody(errorId, shape, shown.message, shown.field));
}

/**
 * Fastify's `frameworkErrors` option: what the router answers before any route runs (a path that is
 * not a valid URL, a path parameter over `maxParamLength`), in the spec's body.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_BAD_URL'
      ? errors.malformedUrl()
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? errors.uriTooLong()
        : toAppError(error);
  void sendError(request, reply, appError, error);
}

/** What Node's HTTP parser rejects before Fastify sees a request: the status and code to answer. */
function clientErrorCode(error: NodeJS.ErrnoException): [number, ErrorCodeName, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'REQUEST_TIMEOUT',
        'The request was not received in time. Send it again, without pausing mid-request.',
      ];
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        'HEADERS_TOO_LARGE',
        'The request line and headers are too large (16 KiB at most). Send a shorter URL or fewer headers.',
      ];
  }
  return [400, 'MALFORMED_REQUEST', 'The HTTP request could not be parsed. Send a well-formed HTTP/1.1 request.'];
}

/**
 * Fastify's `clientErrorHandler` option (Node's 'clientError' event): there is no request object, so
 * the response is written to the socket by hand, in the spec's body (OpenAI's under /v1/), and the
 * connection is closed lingeringly: request bytes the client is still sending are read and discarded
 * (bounded), since closing with unread bytes is a TCP reset that can discard the answer. Its line goes to
 * `log`, the server's logger (there is no request to bind it to).
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void => {
    // A reset connection has no one to answer; a lingering one has had its answer.
    if (error.code === 'ECONNRESET' || socket.destroyed || isLingering(socket)) return;
    // An error in the body of a request answered before its body was read: that answer stands.
    if (isAnsweredEarly(socket)) return closeLingering(socket, undefined);
    const [status, code, message] = clientErrorCode(error);
    const errorId = randomUUID();
    log.info({ error_id: errorId, error_code: ErrorCode[code], status, parser_error: error.code }, message);
    let answer: string | undefined;
    // As Node itself: no answer into a response already under way (it would corrupt it).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      // A request the parser rejected has no trustworthy target: the first line of the read it failed in
      // chooses the body's shape (decision 0048).
      const line = rawRequestLine(error.rawPacket);
      const body = JSON.stringify(
        line && speaksOpenAi(line.target)
          ? openAiBody(errorId, openAiErrorShape(status, code), message, undefined)
          : specBody(errorId, code, message),
      );
      answer =
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${line?.method === 'HEAD' ? '' : body}`;
    }
    closeLingering(socket, answer);
  };
}

/** A route's URL pattern ("/api/v1/transcriptions/:id") as a regular expression over request paths. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** Needs installRequestLogging on the same app first: every error is logged through requestLog(). */
export function installErrorHandling(app: FastifyInstance) {
  if (!app.hasDecorator('requestLogging'))
    throw new Error('installErrorHandling needs installRequestLogging first: errors are logged through requestLog()');
  // Every route, so that a known path asked with another method answers 405 with Allow, not 404.
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    routes.push({ pattern: routePattern(route.url), methods: [route.method].flat() });
  });
  const allowedMethods = (path: string) =>
    [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))].sort();

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(request, reply, toAppError(error), error));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      void reply.header('allow', allowed.join(', '));
      return sendError(request, reply, errors.methodNotAllowed(request.method, path, allowed));
    }
    return sendError(request, reply, errors.routeNotFound(request.method, path));
  });
}
