// What the job queue holds, read from its store whichever backend the test server runs on: the `jobs`
// table beside the records on SQLite (src-server/jobs/sqlite-job-queue.ts), or pg-boss's `pgboss.job` in
// the same PostgreSQL database (src-server/jobs/pg-boss-job-queue.ts). Tests only: the product has no use
// for listing jobs, so this reads the stores directly rather than adding a method to JobQueue.
import { sql } from 'kysely';
import type { TestServer } from './test-server.js';

/** One job, in the SQLite queue's terms (pg-boss's `created` and `retry` are both waiting: `queued`). */
export interface QueuedJob {
  jobId: string;
  name: string;
  state: 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';
  /** Attempts the queue made (claims that were not given back). */
  attempts: number;
  /** The caller's singleton key; null when the job was enqueued without one. */
  singletonKey: string | null;
  /** The job's payload, as JSON text. */
  payload: string;
  /** What the job left for its waiters (a result or a failure), as JSON text; null when nothing is kept. */
  output: string | null;
}

export interface JobFilter {
  name?: string;
  singletonKey?: string;
  /** A substring of the payload's JSON (a transcription id, say). */
  payloadContains?: string;
}

/** The pg-boss queue's key for jobs enqueued without one (pg-boss-job-queue.ts, OWN_KEY_PREFIX). */
const PG_BOSS_OWN_KEY_PREFIX = 'job:';

/** The jobs matching `filter`, oldest first. */
export async function listJobs(server: TestServer, filter: JobFilter = {}): Promise<QueuedJob[]> {
  const { db } = server.runtime;
  if (db.dialect === 'sqlite') {
    let query = db.kysely
      .selectFrom('jobs')
      .select(['job_id', 'name', 'state', 'attempts', 'singleton_key', 'payload', 'output', 'error']);
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    if (filter.singletonKey !== undefined) query = query.where('singleton_key', '=', filter.singletonKey);
    if (filter.payloadContains !== undefined) query = query.where('payload', 'like', `%${filter.payloadContains}%`);
    const rows = await query.orderBy('created_at').orderBy('job_id').execute();
    return rows.map((row) => ({
      jobId: row.job_id,
      name: row.name,
      state: row.state as QueuedJob['state'],
      attempts: Number(row.attempts),
      singletonKey: row.singleton_key,
      payload: row.payload,
      output: row.output ?? row.error,
    }));
  }
  // pg-boss counts a claim in retry_count from the second one on (fetchNextJob increments it when the
  // job was started before), and a claim given back (restore) clears started_on: the attempts made are
  // retry_count, plus the current one once started_on is set.
  const conditions = [sql`true`];
  if (filter.name !== undefined) conditions.push(sql`name = ${filter.name}`);
  if (filter.singletonKey !== undefined) conditions.push(sql`singleton_key = ${filter.singletonKey}`);
  if (filter.payloadContains !== undefined) conditions.push(sql`strpos(data::text, ${filter.payloadContains}) > 0`);
  const { rows } = await sql<{
    id: string;
    name: string;
    state: string;
    retry_count: number;
    started_on: Date | null;
    singleton_key: string | null;
    data: unknown;
    output: unknown;
  }>`
    SELECT id::text AS id, name, state::text AS state, retry_count, started_on, singleton_key, data, output
    FROM pgboss.job WHERE ${sql.join(conditions, sql` AND `)} ORDER BY created_on, id`.execute(db.kysely);
  return rows.map((row) => ({
    jobId: row.id,
    name: row.name,
    state: (row.state === 'created' || row.state === 'retry' ? 'queued' : row.state) as QueuedJob['state'],
    attempts: row.retry_count + (row.started_on === null ? 0 : 1),
    singletonKey: row.singleton_key?.startsWith(PG_BOSS_OWN_KEY_PREFIX) ? null : row.singleton_key,
    payload: JSON.stringify(row.data),
    output: row.output === null ? null : JSON.stringify(row.output),
  }));
}
