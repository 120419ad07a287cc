// How an API process knows, without a query, that nothing its hot caches hold has changed (decision 0039).
// The caches of the hottest route (callers by key, list pages) are valid while the generation they were
// filled under is the current one. The generation moves:
// - on every write this process makes (a Kysely plugin sees each statement), so a client reads its own
//   writes at once;
// - on SQLite, when another connection commits (PRAGMA data_version: a worker process, `keys revoke`);
// - on PostgreSQL, when a trigger's NOTIFY arrives on a connection that LISTENs (a key revoked, a list
//   changed, by any process on any machine), and whenever that connection is re-established.
// When changes cannot be seen (the LISTEN connection is down, or silent past its keepalive), the
// generation is null and callers query as if there were no cache.
import { randomUUID } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './database.js';

/** The channel the PostgreSQL triggers notify (migration 0007). */
export const CHANGES_CHANNEL = 'kikitori_changes';
/** Payloads of keepalive probes on that channel; the triggers send table names. */
const PROBE_PREFIX = 'probe:';

export interface ChangeWatch {
  /** Moves whenever something a cache may hold could have changed; null while changes cannot be seen. */
  generation(): number | null;
  close(): Promise<void>;
}

/**
 * Counts this process's writes through Kysely: before each statement that is not a SELECT runs, and
 * again once it has run (after an autocommit, its commit), so a cache filled meanwhile is not trusted.
 */
export class LocalWrites implements KyselyPlugin {
  private writes = 0;
  private readonly pending = new WeakSet<object>();

  get count(): number {
    return this.writes;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind !== 'SelectQueryNode') {
      this.writes++;
      this.pending.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.delete(queryId)) this.writes++;
    return result;
  }
}

/**
 * SQLite: another connection's commits show in PRAGMA data_version. Reading it begins a read transaction
 * (locks on the WAL index, a few system calls), which costs as much as the rest of a cached list request,
 * so it is read at most once per `recheckMs`: another process's commit is seen within that time, as a
 * NOTIFY is on PostgreSQL. This process's own writes are seen at once.
 */
export function watchSqlite(raw: BetterSqlite3.Database, local: LocalWrites, recheckMs = 5): ChangeWatch {
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get() as number;
  let checkedAt = performance.now();
  let others = 0;
  return {
    generation() {
      const now = performance.now();
      if (now - checkedAt >= recheckMs) {
        checkedAt = now;
        const version = dataVersion.get() as number;
        if (version !== seenVersion) {
          seenVersion = version;
          others++;
        }
      }
      // Both counters only grow, so their sum moves whenever either does.
      return others + local.count;
    },
    async close() {},
  };
}

export interface PostgresWatchOptions {
  url: string;
  local: LocalWrites;
  logger: Logger;
  /** How often the LISTEN connection proves it is alive. */
  keepaliveMs?: number;
}

/**
 * PostgreSQL: one connection LISTENs on CHANGES_CHANNEL. It is trusted while its own keepalive NOTIFY came
 * back within three keepalive periods; a lost connection is re-established with backoff, and every
 * (re)connection moves the generation, since notifications may have been missed.
 */
export async function watchPostgres(options: PostgresWatchOptions): Promise<ChangeWatch> {
  const keepaliveMs = options.keepaliveMs ?? 5000;
  const log = options.logger;
  let notified = 0;
  let client: pg.Client | null = null;
  let listening = false;
  let aliveAt = 0;
  let closed = false;
  let retryMs = 500;
  let retryTimer: NodeJS.Timeout | null = null;

  const lose = (error: unknown) => {
    if (!listening && client === null) return;
    listening = false;
    const lost = client;
    client = null;
    lost?.removeAllListeners();
    lost?.on('error', () => undefined);
    void lost?.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err: error }, 'lost the PostgreSQL change notifications; caches are bypassed until they are back');
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  const connect = async () => {
    retryTimer = null;
    const next = new pg.Client({ connectionString: options.url, keepAlive: true });
    next.on('error', (error) => lose(error));
    next.on('end', () => lose(new Error('connection ended')));
    next.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      if (message.payload?.startsWith(PROBE_PREFIX)) {
        // Our own probe came back: notifications reach us. Other processes' probes change nothing.
        if (message.payload === probe) aliveAt = Date.now();
        return;
      }
      notified++;
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (closed || client !== next) return;
      notified++; // whatever happened while no one listened
      listening = true;
      aliveAt = Date.now();
      retryMs = 500;
    } catch (error) {
      if (client === next) lose(error);
    }
  };

  // The keepalive is a NOTIFY to ourselves: only its arrival proves the connection is alive and that
  // notifications reach it (a pooler in transaction mode, for one, answers queries but drops LISTEN).
  const probe = `${PROBE_PREFIX}${randomUUID()}`;
  const keepalive = setInterval(() => {
    const current = client;
    if (!listening || !current) return;
    current.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, probe]).catch((error: unknown) => {
      if (client === current) lose(error);
    });
  }, keepaliveMs);
  keepalive.unref();

  await connect();
  return {
    generation() {
      if (!listening || Date.now() - aliveAt > 3 * keepaliveMs) return null;
      return notified + options.local.count;
    },
    async close() {
      closed = true;
      clearInterval(keepalive);
      if (retryTimer) clearTimeout(retryTimer);
      const last = client;
      client = null;
      listening = false;
      last?.removeAllListeners();
      last?.on('error', () => undefined);
      await last?.end().catch(() => undefined);
    },
  };
}

/** The watch for an open database: SQLite's data_version, or a LISTEN connection to `url` on PostgreSQL. */
export async function watchChanges(database: Database, url: string | null, logger: Logger): Promise<ChangeWatch> {
  if (database.sqlite) return watchSqlite(database.sqlite, database.localWrites);
  if (url === null) throw new Error('A PostgreSQL change watch needs the database URL.');
  return watchPostgres({ url, local: database.localWrites, logger });
}
