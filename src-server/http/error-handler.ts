// One place renders every failure as the spec's error body (OpenAI's error body under /v1/), with an
// error_id that also appears in the log line of the request, so support can find it.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorCodeName } from '../../src-shared/error-codes.js';
import { OPENAI_PREFIX, openAiErrorType, type OpenAiErrorBody } from '../../src-shared/api/openai.js';
import { EngineError } from '../domain/engine-error.js';
import { engineErrorToAppError } from './engine-errors.js';
import { AppError, errors } from './errors.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  /** The offending value; Ajv adds it because the validators are built with `verbose`. */
  data?: unknown;
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
  const named = issue.keyword === 'required' ? issue.params.missingProperty : issue.keyword === 'additionalProperties' ? issue.params.additionalProperty : undefined;
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
  const parts = issues.slice(0, 5).map((issue) => {
    const field = pointerSegments(issue.instancePath).join('.');
    if (issue.keyword === 'required') return `missing required ${where} "${issuePath(issue).join('.')}"`;
    if (issue.keyword === 'additionalProperties') return `unknown ${where} "${issuePath(issue).join('.')}"`;
    const subject = field ? `${where} "${field}"` : context === 'body' ? 'the request body' : where;
    return `${subject} ${issue.message ?? 'is invalid'}`;
  });
  return `Invalid request: ${[...new Set(parts)].join('; ')}.`;
}

/** The value the client sent, for messages that quote it. */
function invalidValue(issues: readonly ValidationIssue[]): unknown {
  return issues.find((issue) => issue.data !== undefined)?.data;
}

function toAppError(error: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof EngineError) return engineErrorToAppError(error);
  if (error.validation) {
    const field = validationField(error.validation);
    if (error.validationContext === 'querystring' && field === 'page') return errors.invalidPage(invalidValue(error.validation));
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
  if (error.statusCode === 415) return errors.unsupportedMediaType(`Unsupported Content-Type. Send the request body as application/json.`);
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return errors.validation(error.message);
  }
  return null;
}

/** Under /v1/ clients are OpenAI's SDKs: they read OpenAI's error body, not the spec's. */
function speaksOpenAi(request: FastifyRequest): boolean {
  return request.url.startsWith(OPENAI_PREFIX) || request.url.split('?')[0] === OPENAI_PREFIX.slice(0, -1);
}

function openAiBody(errorId: string, status: number, code: ErrorCodeName, message: string, field: string | undefined): OpenAiErrorBody {
  return { error: { message, type: openAiErrorType(status), param: field ?? null, code: code.toLowerCase(), error_id: errorId } };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError | null, cause?: unknown) {
  const errorId = randomUUID();
  const openAi = speaksOpenAi(request);
  if (error === null) {
    request.log.error({ err: cause, error_id: errorId }, 'unexpected error');
    const message = `Internal server error. Quote error_id ${errorId} when reporting it.`;
    return reply
      .status(500)
      .send(openAi ? openAiBody(errorId, 500, 'INTERNAL_ERROR', message, undefined) : { error_id: errorId, error_code: ErrorCode.INTERNAL_ERROR, error_message: message });
  }
  request.log.info({ error_id: errorId, error_code: error.errorCode, status: error.statusCode, ...error.logFields() }, error.message);
  return reply
    .status(error.statusCode)
    .send(
      openAi
        ? openAiBody(errorId, error.statusCode, error.code, error.message, error.field)
        : { error_id: errorId, error_code: error.errorCode, error_message: error.message, ...(error.field ? { field: error.field } : {}) },
    );
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(request, reply, toAppError(error), error));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, errors.routeNotFound(request.method, request.url.split('?')[0]!)));
}
