// A job worker in its own process, for the two-worker tests of the SQLite queue
// (test/integration/server/job-queue-workers.test.ts). It runs the real SqliteJobQueue from the build on
// the given data dir; the job it runs stands in for a transcription (the boundary this test is not
// about): it waits `workMs` (aborted early by a cancel or a takeover), then, if this worker still owns
// the job, records its result in test_results. Events go to stdout as JSON lines.
// Usage: node queue-worker-process.mjs <dataDir> <name> <staleAfterMs> <workMs>
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { openSqliteDatabase } from '../../dist/src-server/db/database.js';
import { SqliteJobQueue } from '../../dist/src-server/jobs/sqlite-job-queue.js';

const [dataDir, name, staleAfterMs, workMs] = process.argv.slice(2);
const emit = (event) => process.stdout.write(`${JSON.stringify({ worker: name, ...event })}\n`);
const db = (await openSqliteDatabase(dataDir)).sqlite;
db.exec(
  'CREATE TABLE IF NOT EXISTS test_results (job_id TEXT NOT NULL, transcription_id TEXT NOT NULL, worker TEXT NOT NULL)',
);
const queue = new SqliteJobQueue(db, {
  staleAfterMs: Number(staleAfterMs),
  pollIntervalMs: 50,
  retryBaseMs: 50,
  logger: pino({ level: 'silent' }),
});
queue.work('transcribe', {
  async handle({ transcriptionId }, { jobId, signal, ensureOwned }) {
    emit({ event: 'started', jobId, transcriptionId });
    try {
      await sleep(Number(workMs), undefined, { signal });
      await ensureOwned();
      db.prepare('INSERT INTO test_results (job_id, transcription_id, worker) VALUES (?, ?, ?)').run(
        jobId,
        transcriptionId,
        name,
      );
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
  void queue.stop().then(() => {
    db.close();
    process.exit(0);
  });
});
