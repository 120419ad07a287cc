// The server process's logger: pino's JSON lines on stdout, written so that whoever reads stdout (a
// terminal, a pipe to a log shipper, a supervisor) can never hold the process, while it runs or when it
// exits (decision 0047). Lines go through Node's own process.stdout, which never waits on this thread for
// a pipe: a line the reader has not taken yet is queued. pino's default destination flushes synchronously
// at exit and retries a full pipe (or a closed one) without limit.
import { setTimeout as sleep } from 'node:timers/promises';
import pino, { type Logger } from 'pino';

/** Lines queued for a reader that has stopped reading are kept up to this many bytes; later ones are dropped. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export function createProcessLogger(level: string): Logger {
  const stdout = process.stdout;
  // A reader that went away (EPIPE) ends the logging, not the process.
  stdout.on('error', () => undefined);
  const destination = {
    write(line: string) {
      if (stdout.writable && stdout.writableLength < MAX_PENDING_BYTES) stdout.write(line);
    },
  };
  return pino({ level }, destination);
}

/**
 * Before exiting: waits until stdout has taken the lines queued for it, for at most `seconds`. Says so on
 * stderr when its reader is behind, since the process may then seem to hang for that long.
 */
export async function flushStdout(seconds: number): Promise<void> {
  const stdout = process.stdout;
  if (!stdout.writable || stdout.writableLength === 0) return;
  if (stdout.writableNeedDrain) {
    process.stderr.write(
      `kikitori-server: stdout is not being read; waiting up to ${seconds} s for it to take the last log lines, then exiting without them\n`,
    );
  }
  const timeout = new AbortController();
  // A write's callback comes once every earlier write has gone out, in order.
  const written = new Promise<void>((resolve) => stdout.write('', () => resolve()));
  await Promise.race([written, sleep(seconds * 1000, undefined, { signal: timeout.signal }).catch(() => undefined)]);
  timeout.abort();
}
