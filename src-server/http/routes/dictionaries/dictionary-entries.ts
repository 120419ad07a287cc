// Words and replacement rules (`blacklist_words`) are both entries of a dictionary with the same four operations
// (create, bulk create, get, delete); one set of handlers serves both, as the contract declares them.
import type { TSchema, Static } from 'typebox';
import type { EntryOperations } from '../../../../src-shared/api/dictionaries.js';
import type { AppContext } from '../../../app-context.js';
import type { DictionaryEntries } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

export interface EntryKind<Input extends TSchema, Entry> {
  operations: EntryOperations<Input>;
  entries: DictionaryEntries<Static<Input>, Entry>;
  body: (entry: Entry) => unknown;
}

export function entryRoutes<Input extends TSchema, Entry>({
  operations,
  entries,
  body,
}: EntryKind<Input, Entry>): RouteModule[] {
  const itemId = (p: Record<string, string>) => p[operations.idParam]!;

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(operations.create.path, { schema: operations.create.schema }, async (request) => {
      const [entry] = await entries.add(
        ctx,
        callerOf(request),
        request.params.dictionary_id,
        [request.body as Static<Input>],
        () => '',
      );
      return body(entry!);
    });

  const bulkCreate = (app: ApiApp, ctx: AppContext) =>
    app.post(operations.bulkCreate.path, { schema: operations.bulkCreate.schema }, async (request) =>
      (await entries.add(ctx, callerOf(request), request.params.dictionary_id, request.body)).map(body),
    );

  const get = (app: ApiApp, ctx: AppContext) =>
    app.get(operations.get.path, { schema: operations.get.schema }, async (request) => {
      const params = request.params as Record<string, string>;
      return body(await entries.get(ctx, callerOf(request), params.dictionary_id!, itemId(params)));
    });

  const remove = (app: ApiApp, ctx: AppContext) =>
    app.delete(operations.remove.path, { schema: operations.remove.schema }, async (request, reply) => {
      const params = request.params as Record<string, string>;
      await entries.remove(ctx, callerOf(request), params.dictionary_id!, itemId(params));
      return reply.status(200).send();
    });

  return [create, bulkCreate, get, remove];
}
