// Words and blacklist words are both entries of a dictionary with the same four operations
// (create, bulk create, get, delete); one set of handlers serves both, as the contract declares them.
import type { TSchema, Static } from 'typebox';
import type { EntryOperations } from '../../../../src-shared/api/dictionaries.js';
import type { AppContext } from '../../../app-context.js';
import { callerOf } from '../../auth.js';
import type { AppError } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

export interface EntryKind<Input extends TSchema, Entry> {
  operations: EntryOperations<Input>;
  add(ctx: AppContext, dictionaryId: string, items: Array<Static<Input>>): Promise<Entry[]>;
  get(ctx: AppContext, dictionaryId: string, id: string): Promise<Entry | null>;
  remove(ctx: AppContext, dictionaryId: string, id: string): Promise<boolean>;
  notFound(id: string): AppError;
  body: (entry: Entry) => unknown;
}

export function entryRoutes<Input extends TSchema, Entry>(kind: EntryKind<Input, Entry>): RouteModule[] {
  const { operations } = kind;
  const itemId = (p: Record<string, string>) => p[operations.idParam]!;

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(operations.create.path, { schema: operations.create.schema }, async (request) => {
      const dictionary = await findDictionary(ctx, callerOf(request), request.params.dictionary_id);
      const [entry] = await kind.add(ctx, dictionary.dictionaryId, [request.body as Static<Input>]);
      return kind.body(entry!);
    });

  const bulkCreate = (app: ApiApp, ctx: AppContext) =>
    app.post(operations.bulkCreate.path, { schema: operations.bulkCreate.schema }, async (request) => {
      const dictionary = await findDictionary(ctx, callerOf(request), request.params.dictionary_id);
      const entries = await kind.add(ctx, dictionary.dictionaryId, request.body);
      return entries.map(kind.body);
    });

  const get = (app: ApiApp, ctx: AppContext) =>
    app.get(operations.get.path, { schema: operations.get.schema }, async (request) => {
      const params = request.params as Record<string, string>;
      const dictionary = await findDictionary(ctx, callerOf(request), params.dictionary_id!);
      const entry = await kind.get(ctx, dictionary.dictionaryId, itemId(params));
      if (!entry) throw kind.notFound(itemId(params));
      return kind.body(entry);
    });

  const remove = (app: ApiApp, ctx: AppContext) =>
    app.delete(operations.remove.path, { schema: operations.remove.schema }, async (request, reply) => {
      const params = request.params as Record<string, string>;
      const dictionary = await findDictionary(ctx, callerOf(request), params.dictionary_id!);
      if (!(await kind.remove(ctx, dictionary.dictionaryId, itemId(params)))) throw kind.notFound(itemId(params));
      return reply.status(200).send();
    });

  return [create, bulkCreate, get, remove];
}
