// What every part of the HTTP contract shares: the error body, the transcription status, dates, paging,
// and the client's view of a response. The server validates and documents with these schemas; the
// desktop client's types are Static<> of them (docs/decisions/0011-one-http-contract.md).
// Pure TypeBox: no electron, node or DOM imports.
import {
  Type,
  type Static,
  type TLiteral,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnion,
} from 'typebox';
import { TRANSCRIPTION_STATUSES } from './vocabulary.js';

/** The spec's error body (section 2.10), plus the `field` extension. */
export const ErrorBody = Type.Object(
  {
    error_id: Type.String({
      description: 'Unique per occurrence; quote it when asking for support. Also in the server log line.',
    }),
    error_code: Type.Number({ description: 'Kind of error; see the error code table in docs/api/errors.md.' }),
    error_message: Type.String({ description: 'What went wrong and what to fix.' }),
    field: Type.Optional(
      Type.String({
        description:
          'Extension: dot-separated path of the bad input inside the body, query or path ("words.0.reading").',
      }),
    ),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Extension: what a client needs to act on the error, by code. REVISION_CONFLICT: `current_revision`, ' +
          '`conflicting_segment_ids` and `conflicting_speakers` (docs/api/revisions.md).',
      }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

const ErrorRef = Type.Ref('ErrorBody');

/** Response schemas for the given error statuses, all with the spec's error body. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorRef]));
}

/** One of a list of strings, typed as the union of its literals. */
export function literalUnion<const Values extends readonly string[]>(
  values: Values,
  options?: { description?: string },
): TUnion<{ -readonly [K in keyof Values]: TLiteral<Values[K]> }> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof Values]: TLiteral<Values[K]> }>;
}

export { FINAL_TRANSCRIPTION_STATUSES, TRANSCRIPTION_STATUSES, type TranscriptionStatus } from './vocabulary.js';
export const TranscriptionStatusSchema = literalUnion(TRANSCRIPTION_STATUSES);

export const DateTime = Type.String({ format: 'date-time' });
export const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A string that is not empty and not only whitespace. */
export const NonBlank = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

/** Both list operations (spec section 8). */
export const PageQuery = Type.Object({
  // The maximum keeps `1e309` (Infinity, which Ajv counts as an integer) and unsafe integers out: 400 INVALID_PAGE.
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 1,
      description: 'Page number, from 1. A page past the end is [].',
    }),
  ),
});

/** DELETE operations answer 200 with an empty body. */
export const EmptyBody = Type.Unsafe<void>({ description: 'Empty body' });

type WithOptional<P extends TProperties, K extends keyof P> = {
  [Key in keyof P]: Key extends K ? TOptional<P[Key]> : P[Key];
};

/**
 * What a client may count on in a response: the same schema with `optional` fields made optional.
 * kikitori-server always sends them; another server implementing the spec may not (extensions, and
 * fields the spec added after revision 1.2.0).
 */
export function clientView<P extends TProperties, K extends keyof P & string>(
  schema: TObject<P>,
  optional: readonly K[],
): TObject<WithOptional<P, K>> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, value]) => [
      key,
      (optional as readonly string[]).includes(key) ? Type.Optional(value) : value,
    ]),
  );
  return Type.Object(properties) as unknown as TObject<WithOptional<P, K>>;
}

/** The `:name` parameters of a path template, as a union of names (string when the path is not literal). */
export type PathParams<Path extends string> = string extends Path
  ? string
  : Path extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParams<`/${Rest}`>
    : Path extends `${string}:${infer Name}`
      ? Name
      : never;

/** An operation's method and path with its parameters filled in, escaped, for clients. */
export function requestLine<const Method extends string, const Path extends string>(
  operation: { method: Method; path: Path },
  params: Record<PathParams<Path>, string>,
): { method: Method; path: string } {
  const values = params as Record<string, string>;
  const path = operation.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${operation.path} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return { method: operation.method, path };
}

/** A read that answers 304 when the client names the latest revision it holds (decision 0056). */
export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'The revisions the client holds, as "<revision>" (the ETag it read): 304 Not Modified, without a body, when the latest is one of them.',
    }),
  ),
});

/** The answer to a read whose If-None-Match names the latest revision: no body, the ETag again. */
export const NotModified = Type.Null({
  description: 'Not Modified: the latest revision is the one named in If-None-Match.',
});

/** The writes to a transcript take the revision the client holds (decision 0052). */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'The revision the client holds, as "<revision>": 412 REVISION_CONFLICT when the transcript has moved on.',
    }),
  ),
});
