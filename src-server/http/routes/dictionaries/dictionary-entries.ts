// Words and blacklist words are both entries of a dictionary with the same four operations
// (create, bulk create, get, delete); this builds them from one description per kind.
import { Type, type TSchema, type Static } from 'typebox';
import type { AppContext } from '../../../app-context.js';
import { callerOf } from '../../auth.js';
import type { AppError } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import { EmptyBody, errorResponses, LIMITS } from '../../schemas.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

export interface EntryKind<Input extends TSchema, Entry> {
  /** Path segment: "words" or "blacklist_words". */
  segment: string;
  idParam: string;
  label: string;
  input: Input;
  responseRef: string;
  add(ctx: AppContext, dictionaryId: string, items: Array<Static<Input>>): Promise<Entry[]>;
  get(ctx: AppContext, dictionaryId: string, id: string): Promise<Entry | null>;
  remove(ctx: AppContext, dictionaryId: string, id: string): Promise<boolean>;
  notFound(id: string): AppError;
  body(entry: Entry): unknown;
}

export function entryRoutes<Input extends TSchema, Entry>(kind: EntryKind<Input, Entry>): RouteModule[] {
  const base = `/api/v1/dictionaries/:dictionary_id/${kind.segment}`;
  const params = Type.Object({ dictionary_id: Type.String() });
  const itemParams = Type.Object({ dictionary_id: Type.String(), [kind.idParam]: Type.String() });
  const tags = ['dictionaries'];
  const itemId = (p: Record<string, string>) => p[kind.idParam]!;

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(
      base,
      {
        schema: {
          summary: `Add a ${kind.label}`,
          tags,
          params,
          body: kind.input,
          response: { 200: Type.Ref(kind.responseRef), ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => {
        const dictionary = await findDictionary(ctx, callerOf(request), request.params.dictionary_id);
        const [entry] = await kind.add(ctx, dictionary.dictionaryId, [request.body as Static<Input>]);
        return kind.body(entry!);
      },
    );

  const bulkCreate = (app: ApiApp, ctx: AppContext) =>
    app.post(
      `${base}/bulk`,
      {
        schema: {
          summary: `Add many ${kind.label}s at once (all or nothing)`,
          tags,
          params,
          body: Type.Array(kind.input, { minItems: 1, maxItems: LIMITS.bulkItems }),
          response: { 200: Type.Array(Type.Ref(kind.responseRef)), ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => {
        const dictionary = await findDictionary(ctx, callerOf(request), request.params.dictionary_id);
        const entries = await kind.add(ctx, dictionary.dictionaryId, request.body as Array<Static<Input>>);
        return entries.map(kind.body);
      },
    );

  const get = (app: ApiApp, ctx: AppContext) =>
    app.get(
      `${base}/:${kind.idParam}`,
      {
        schema: {
          summary: `Get a ${kind.label}`,
          tags,
          params: itemParams,
          response: { 200: Type.Ref(kind.responseRef), ...errorResponses(401, 404) },
        },
      },
      async (request) => {
        const params = request.params as Record<string, string>;
        const dictionary = await findDictionary(ctx, callerOf(request), params.dictionary_id!);
        const entry = await kind.get(ctx, dictionary.dictionaryId, itemId(params));
        if (!entry) throw kind.notFound(itemId(params));
        return kind.body(entry);
      },
    );

  const remove = (app: ApiApp, ctx: AppContext) =>
    app.delete(
      `${base}/:${kind.idParam}`,
      {
        schema: {
          summary: `Delete a ${kind.label} (empty body)`,
          tags,
          params: itemParams,
          response: { 200: EmptyBody, ...errorResponses(401, 404) },
        },
      },
      async (request, reply) => {
        const params = request.params as Record<string, string>;
        const dictionary = await findDictionary(ctx, callerOf(request), params.dictionary_id!);
        if (!(await kind.remove(ctx, dictionary.dictionaryId, itemId(params)))) throw kind.notFound(itemId(params));
        return reply.status(200).send();
      },
    );

  return [create, bulkCreate, get, remove];
}
