// A job worker in its own process, for the two-worker tests of the pg-boss queue
// (test/integration/server/pg-boss-queue-workers.test.ts). It runs the real PgBossJobQueue from the build
// on the given PostgreSQL database; the job it runs stands in for a transcription (the boundary this
// test is not about): it waits `workMs` (aborted early by a cancel or a takeover), then, if this worker
// still owns the job, records its result in test_results. Events go to stdout as JSON lines.
// Usage: node pg-boss-worker-process.mjs <databaseUrl> <name> <staleAfterMs> <workMs> <superviseIntervalSeconds>
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { PgBossJobQueue } from '../../dist/src-server/jobs/pg-boss-job-queue.js';

const [url, name, staleAfterMs, workMs, superviseIntervalSeconds] = process.argv.slice(2);
const emit = (event) => process.stdout.write(`${JSON.stringify({ worker: name, ...event })}\n`);
const db = new pg.Pool({ connectionString: url, max: 2 });
const queue = new PgBossJobQueue({
  connectionString: url,
  staleAfterMs: Number(staleAfterMs),
  superviseIntervalSeconds: Number(superviseIntervalSeconds),
  pollIntervalMs: 100,
  retryBaseMs: 1000,
  logger: pino({ level: 'silent' }),
});
queue.work('transcribe', {
  async handle({ transcriptionId }, { jobId, attempt, signal, ensureOwned }) {
    emit({ event: 'started', jobId, transcriptionId, attempt });
    try {
      await sleep(Number(workMs), undefined, { signal });
      await ensureOwned();
      await db.query('INSERT INTO test_results (job_id, transcription_id, worker) VALUES ($1, $2, $3)', [
        jobId,
        transcriptionId,
        name,
      ]);
      emit({ event: 'written', jobId, transcriptionId });
    } catch (error) {
      emit({
        event: 'not-written',
        jobId,
        transcriptionId,
        reason: signal.aborted ? String(signal.reason?.message ?? signal.reason) : error.message,
      });
      throw error;
    }
  },
});
await queue.start();
emit({ event: 'ready', workerId: queue.workerId });
process.on('SIGTERM', () => {
  void queue.stop().then(async () => {
    await db.end();
    process.exit(0);
  });
});
