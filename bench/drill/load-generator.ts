// The hostile clients of the load phase, in their own process (forked by load.ts) so that they do not
// share an event loop with the latency measurement: slow-loris connections that send their headers a
// byte at a time, then a burst of concurrent connections, each one request on a fresh TCP connection.
// Reports what happened to them with process.send.
import http from 'node:http';
import net from 'node:net';

export interface GeneratorOptions {
  url: string;
  key: string;
  loris: number;
  lorisByteEveryMs: number;
  lorisSeconds: number;
  burst: number;
  burstAfterMs: number;
}

export interface GeneratorReport {
  burstStatuses: Record<string, number>;
  burstErrors: Record<string, number>;
  /** How the slow-loris connections ended: answered <status>, closed by the server, or still open. */
  loris: Record<string, number>;
}

const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

function slowLoris(options: GeneratorOptions, report: GeneratorReport): Promise<void> {
  const url = new URL(options.url);
  const request = Buffer.from(
    `GET /api/v1/transcriptions HTTP/1.1\r\nHost: ${url.host}\r\nX-API-KEY: ${options.key}\r\nX-Padding: ${'p'.repeat(4000)}\r\n\r\n`,
  );
  const one = () =>
    new Promise<void>((resolve) => {
      let sent = 0;
      let answer = '';
      const socket = net.connect(Number(url.port), url.hostname);
      const timer = setInterval(() => {
        if (sent < request.length && socket.writable) socket.write(request.subarray(sent, ++sent));
      }, options.lorisByteEveryMs);
      const stopAt = setTimeout(() => {
        count(report.loris, 'still open at the end');
        finish(false);
      }, options.lorisSeconds * 1000);
      let done = false;
      const finish = (record: boolean) => {
        if (done) return;
        done = true;
        clearInterval(timer);
        clearTimeout(stopAt);
        if (record) {
          const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
          count(report.loris, status ? `answered ${status}` : 'closed by the server');
        }
        socket.destroy();
        resolve();
      };
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => finish(true));
    });
  return Promise.all(Array.from({ length: options.loris }, one)).then(() => undefined);
}

function burst(options: GeneratorOptions, report: GeneratorReport): Promise<void> {
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      // A quarter to /healthz, the rest to the list: more than a key's budget a minute (600 by default).
      const path = i % 4 === 0 ? '/healthz' : '/api/v1/transcriptions';
      const request = http.get(
        `${options.url}${path}`,
        { agent: false, headers: { 'x-api-key': options.key } },
        (response) => {
          response.resume();
          response.on('end', () => {
            count(report.burstStatuses, `${path === '/healthz' ? 'healthz' : 'list'} ${response.statusCode}`);
            resolve();
          });
        },
      );
      request.setTimeout(60_000, () => request.destroy(new Error('timeout')));
      request.on('error', (error: NodeJS.ErrnoException) => {
        count(report.burstErrors, error.code ?? error.message);
        resolve();
      });
    });
  return Promise.all(Array.from({ length: options.burst }, (_, i) => one(i))).then(() => undefined);
}

export async function generate(options: GeneratorOptions): Promise<GeneratorReport> {
  const report: GeneratorReport = { burstStatuses: {}, burstErrors: {}, loris: {} };
  const loris = slowLoris(options, report);
  await new Promise((resolve) => setTimeout(resolve, options.burstAfterMs));
  await burst(options, report);
  await loris;
  return report;
}

if (process.send && process.argv[2]) {
  const options = JSON.parse(process.argv[2]) as GeneratorOptions;
  const report = await generate(options);
  process.send(report, () => process.exit(0));
}
