// What the migrations need to know about the database they run on.
import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/** Migrations that need each dialect's own SQL (triggers, identity columns, column types) ask this. */
export const isPostgres = (db: { getExecutor(): { readonly adapter: unknown } }): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

/** PostgreSQL has no implicit row id: tables listed newest-first get an identity column named like SQLite's. */
export function withRowId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, never> {
  return isPostgres(db) ? table.addColumn('rowid', 'bigint', (c) => c.generatedAlwaysAsIdentity().notNull()) : table;
}
