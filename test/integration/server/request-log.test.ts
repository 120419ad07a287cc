// The lines a request leaves in the server log, by level (decision 0041). At info, Fastify writes two
// per request. Above info it writes none, and the server's own lines about a request are still written,
// bound to the request's id and its redacted line.
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

type Line = Record<string, any>;

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const lines = (s: TestServer): Line[] => s.logLines.map((line) => JSON.parse(line) as Line);

/** Makes /healthz fail through a check of its own, and asks it with a signed-URL-like query. */
async function failingHealth(s: TestServer): Promise<{ status: number; errorId: string }> {
  s.runtime.ctx.health.add('probe', async () => {
    throw new Error('the probe is down');
  });
  const response = await fetch(`${s.url}/healthz?expires=1&signature=c2VjcmV0`);
  const body = (await response.json()) as { error_id: string; error_code: number };
  expect(body.error_code).toBe(ErrorCode.UNHEALTHY);
  return { status: response.status, errorId: body.error_id };
}

describe('request lines in the server log', () => {
  it("above info, writes no line per request, and still writes a request's own warning with its request", async () => {
    server = await startTestServer({ logLevel: 'warn' });
    const key = await server.key('acme');
    expect((await server.api(key, 'GET', '/api/v1/transcriptions')).status).toBe(200);
    expect((await server.api(key, 'GET', '/api/v1/transcriptions/nope')).status).toBe(404);
    // Answered by the router itself (Fastify's frameworkErrors), with no route's request.
    const badEscape = await server.api(key, 'GET', '/api/v1/transcriptions/%zz');
    expect(badEscape.status).toBe(400);
    expect(badEscape.json).toMatchObject({ error_code: ErrorCode.MALFORMED_URL });
    expect(lines(server).filter((line) => 'reqId' in line || 'req' in line)).toEqual([]);

    const { status, errorId } = await failingHealth(server);
    expect(status).toBe(503);
    const line = lines(server).find((l) => l.error_id === errorId);
    expect(line).toMatchObject({
      level: 40,
      reqId: expect.any(String),
      req: { method: 'GET', url: '/healthz?expires=[redacted]&signature=[redacted]' },
      error_code: ErrorCode.UNHEALTHY,
    });
    expect(server.logLines.join('\n')).not.toContain('c2VjcmV0');
  });

  it("at info, writes Fastify's lines for every request, and binds a request's own lines to its id", async () => {
    server = await startTestServer();
    const key = await server.key('acme');
    expect((await server.api(key, 'GET', '/api/v1/transcriptions')).status).toBe(200);
    const completed = lines(server).filter((l) => l.msg === 'request completed');
    expect(completed).toEqual([expect.objectContaining({ reqId: expect.any(String), res: { statusCode: 200 } })]);

    const { errorId } = await failingHealth(server);
    const line = lines(server).find((l) => l.error_id === errorId);
    expect(line).toMatchObject({ level: 40, reqId: expect.any(String) });
    const incoming = lines(server).find((l) => l.msg === 'incoming request' && l.reqId === line!.reqId);
    expect(incoming?.req).toMatchObject({ method: 'GET', url: '/healthz?expires=[redacted]&signature=[redacted]' });
    expect(server.logLines.join('\n')).not.toContain('c2VjcmV0');
  });
});
