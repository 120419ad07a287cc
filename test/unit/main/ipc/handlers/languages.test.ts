// 'languages:serving' over real HTTP: what GET /api/v1/models says serves each transcription model,
// and "unknown" (null) from a server without the route or one that cannot be reached.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { languageHandlers } from '../../../../../src-main/ipc/handlers/languages.js';
import type { HandlerContext } from '../../../../../src-main/ipc/handlers/handler-context.js';
import type { ModelsResponse } from '../../../../../src-shared/api/models.js';
import { ErrorCode } from '../../../../../src-shared/error-codes.js';
import { clientOf } from '../../main-test-support.js';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function serve(status: number, body: unknown): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${String(req.headers['x-api-key'] ?? '')}`);
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const serving = (target: { url: string }) =>
  languageHandlers({ session: () => ({ client: clientOf(target, 'k1') }) } as unknown as HandlerContext)[
    'languages:serving'
  ]();

const engine = (name: string, detects: boolean, languages: string[]) => ({
  engine: name,
  model: null,
  detects_language: detects,
  languages,
  usable: true,
  reason: null,
});

describe('languages:serving', () => {
  it("maps the server's serving engines, per transcription model", async () => {
    const body: ModelsResponse = {
      models: [],
      serving: {
        default: engine('whisper', true, ['en', 'ja']),
        'diarization-high': engine('pocketsphinx', false, ['en']),
      },
      can_manage: false,
    };
    const server = await serve(200, body);
    expect(await serving(server)).toEqual({
      default: { engine: 'whisper', detectsLanguage: true, languages: ['en', 'ja'] },
      'diarization-high': { engine: 'pocketsphinx', detectsLanguage: false, languages: ['en'] },
    });
    expect(server.seen).toEqual(['GET /api/v1/models k1']);
  });

  it('answers null (unknown) for a server without the route', async () => {
    const server = await serve(404, {
      error_id: 'e',
      error_code: ErrorCode.ROUTE_NOT_FOUND,
      error_message: 'No operation GET /api/v1/models.',
    });
    expect(await serving(server)).toBeNull();
  });

  it('answers null (unknown) for a server that cannot be reached', async () => {
    const server = await serve(200, {});
    const url = server.url;
    await close!();
    close = null;
    expect(await serving({ url })).toBeNull();
  });

  it('passes other refusals on, as data for the caller', async () => {
    const server = await serve(401, { error_id: 'e', error_code: ErrorCode.INVALID_API_KEY, error_message: 'no' });
    await expect(serving(server)).rejects.toMatchObject({ error: { code: 'unauthorized' } });
  });
});
