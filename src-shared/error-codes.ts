// The error_code table of kikitori-server. Every non-2xx response carries one of these numbers
// in the spec's error body. Numbers are grouped by HTTP status and never reused.
// Documented for API users in docs/api/errors.md.

export const ErrorCode = {
  INTERNAL_ERROR: 1000,

  VALIDATION_FAILED: 4000,
  MALFORMED_JSON: 4001,
  INVALID_PAGE: 4002,
  UNSUPPORTED_LANGUAGE: 4003,
  UNSUPPORTED_OPTION: 4004,

  MISSING_API_KEY: 4010,
  INVALID_API_KEY: 4011,

  ROLE_REQUIRED: 4030,
  INVALID_SIGNATURE: 4031,
  EXPIRED_SIGNATURE: 4032,

  ROUTE_NOT_FOUND: 4040,
  TRANSCRIPTION_NOT_FOUND: 4041,
  DICTIONARY_NOT_FOUND: 4042,
  WORD_NOT_FOUND: 4043,
  BLACKLIST_WORD_NOT_FOUND: 4044,
  REVIEW_NOT_FOUND: 4045,
  RESULT_NOT_READY: 4046,
  ANALYSIS_NOT_FOUND: 4047,

  UPLOAD_NOT_COMPLETE: 4090,
  TRANSCRIPTION_ALREADY_ENDED: 4091,
  UPLOAD_ALREADY_COMPLETED: 4092,
  TRANSCRIPTION_NOT_COMPLETED: 4093,
  UPLOAD_CLOSED: 4094,
  TOO_MANY_BLACKLIST_WORDS: 4095,

  PAYLOAD_TOO_LARGE: 4130,
  UNSUPPORTED_MEDIA_TYPE: 4150,
  RANGE_NOT_SATISFIABLE: 4160,

  ENGINE_UNAVAILABLE: 5030,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

/** The spec's error body (section 2.10), with the `field` extension; declared in the HTTP contract. */
export type { ErrorBody } from './api/common.js';
