// The OpenAI-compatible part of the HTTP contract (everything under /v1/): OpenAI's error body and
// model list, so OpenAI's clients and SDKs read this server's answers as they read OpenAI's.
// Pure TypeBox: no electron, node or DOM imports.
import { Type, type Static, type TSchema } from 'typebox';

/** Where the OpenAI-compatible operations live; errors there use OpenAiErrorBody instead of ErrorBody. */
export const OPENAI_PREFIX = '/v1/';

/** OpenAI's error `type`, chosen from the HTTP status. */
export const OPENAI_ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'permission_error', 'rate_limit_error', 'server_error'] as const;
export type OpenAiErrorType = (typeof OPENAI_ERROR_TYPES)[number];

/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`, plus this server's error_id. */
export const OpenAiErrorBody = Type.Object(
  {
    error: Type.Object({
      message: Type.String({ description: 'What went wrong and what to fix.' }),
      type: Type.String({ description: `One of ${OPENAI_ERROR_TYPES.join(', ')}.` }),
      param: Type.Union([Type.String(), Type.Null()], { description: 'The request field at fault ("model", "response_format"), or null.' }),
      code: Type.String({ description: 'The error code name in lower case ("invalid_api_key"); see docs/api/errors.md.' }),
      error_id: Type.String({ description: 'Extension: unique per occurrence, also in the server log line. Quote it when asking for support.' }),
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
