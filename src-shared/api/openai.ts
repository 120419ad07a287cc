// The OpenAI-compatible part of the HTTP contract (everything under /v1/): OpenAI's error body and
// model list, so OpenAI's clients and SDKs read this server's answers as they read OpenAI's.
// Pure TypeBox: no electron, node or DOM imports.
import { Type, type Static, type TSchema } from 'typebox';
import type { ErrorCodeName } from '../error-codes.js';

/** Where the OpenAI-compatible operations live; errors there use OpenAiErrorBody instead of ErrorBody. */
export const OPENAI_PREFIX = '/v1/';

/** OpenAI's error `type`, chosen from the HTTP status. */
export const OPENAI_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'server_error',
  'insufficient_quota',
] as const;
export type OpenAiErrorType = (typeof OPENAI_ERROR_TYPES)[number];

/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`, plus this server's error_id. */
export const OpenAiErrorBody = Type.Object(
  {
    error: Type.Object({
      message: Type.String({ description: 'What went wrong and what to fix.' }),
      type: Type.String({ description: `One of ${OPENAI_ERROR_TYPES.join(', ')}.` }),
      param: Type.Union([Type.String(), Type.Null()], {
        description: 'The request field at fault ("model", "response_format"), or null.',
      }),
      code: Type.String({
        description: 'The error code name in lower case ("invalid_api_key"); see docs/api/errors.md.',
      }),
      error_id: Type.String({
        description: 'Extension: unique per occurrence, also in the server log line. Quote it when asking for support.',
      }),
    }),
  },
  { $id: 'OpenAiErrorBody', title: 'OpenAiErrorBody' },
);
export type OpenAiErrorBody = Static<typeof OpenAiErrorBody>;

const OpenAiErrorRef = Type.Ref('OpenAiErrorBody');

/** Response schemas for the given error statuses of a /v1/ operation. */
export function openAiErrorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, OpenAiErrorRef]));
}

/** OpenAI's error type for an HTTP status. */
export function openAiErrorType(status: number): OpenAiErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** An error as OpenAI's clients read it: the HTTP status, `type` and `code` under /v1/. */
export interface OpenAiErrorShape {
  status: number;
  type: OpenAiErrorType;
  code: string;
  /** Sent as `x-should-retry` (which OpenAI's SDKs obey before their own rules), when it must not be guessed from the status. */
  shouldRetry?: boolean;
}

/**
 * An error code under /v1/ (decision 0044): where OpenAI answers the same failure with another status,
 * its status, type and code; otherwise the code's own status, the type that status implies and the
 * code's name in lower case. OpenAI's SDKs pick the error class by status alone (400 is their
 * BadRequestError), and retry 408, 409, 429 and 5xx unless told otherwise.
 */
export function openAiErrorShape(status: number, code: ErrorCodeName): OpenAiErrorShape {
  switch (code) {
    // OpenAI answers an unreadable or unsupported audio file with 400 invalid_request_error.
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { status: 400, type: 'invalid_request_error', code: 'unsupported_media_type' };
    // OpenAI's own "insufficient_quota": 429, which its SDKs would retry; a quota does not refill in seconds.
    case 'QUOTA_EXCEEDED':
      return { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', shouldRetry: false };
    // 507 is not among OpenAI's statuses; 503 is its "overloaded, try again later".
    case 'INSUFFICIENT_STORAGE':
      return { status: 503, type: 'server_error', code: 'insufficient_storage' };
  }
  return { status, type: openAiErrorType(status), code: code.toLowerCase() };
}

export const OpenAiModel = Type.Object({
  id: Type.String({ description: 'The value to send as `model`.' }),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix seconds: when this server started serving the model.' }),
  owned_by: Type.String({ description: 'Always "kikitori-server": the models are served by this server\'s engines.' }),
});
export type OpenAiModel = Static<typeof OpenAiModel>;

export const OpenAiModelList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(OpenAiModel),
});
export type OpenAiModelList = Static<typeof OpenAiModelList>;
