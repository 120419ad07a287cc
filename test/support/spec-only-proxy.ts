// Another implementation of the API, for tests of how the app behaves with a server that has only what the
// spec has: a proxy in front of a kikitori-server that answers the revision routes (an extension) 404, as
// an unknown route, and serves transcript documents without `revision` and `speaker_names`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '../../src-shared/error-codes.js';

const REVISION_ROUTE = /^\/api\/v1\/transcriptions\/[^/]+\/revisions(\/|$|\?)/;

export async function startSpecOnlyProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const proxy = http.createServer((request, response) => {
    if (REVISION_ROUTE.test(request.url ?? '')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error_id: 'spec-only',
          error_code: ErrorCode.ROUTE_NOT_FOUND,
          error_message: `Route ${request.method} ${request.url} not found`,
        }),
      );
      return;
    }
    // The Host header goes as it came, so the URLs the server builds (transcription_path) point here too.
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        const json = (answer.headers['content-type'] ?? '').includes('application/json');
        if (!json) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          try {
            const parsed = JSON.parse(body) as Record<string, unknown>;
            if (typeof parsed.transcription_id === 'string' && Array.isArray(parsed.segments)) {
              delete parsed.revision;
              delete parsed.speaker_names;
              body = JSON.stringify(parsed);
            }
          } catch {
            // Not JSON after all: passed on as it is.
          }
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          delete headers.etag;
          delete headers['transfer-encoding'];
          response.writeHead(answer.statusCode ?? 502, headers);
          response.end(body);
        });
      },
    );
    forwarded.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
