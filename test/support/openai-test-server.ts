// Helpers for tests of the OpenAI-compatible POST /v1/audio/transcriptions.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineRegistry } from '../../src-server/engines/engine-registry.js';
import { startTestServer, toApiResponse, type TestServer } from './test-server.js';

export const TRANSCRIPTIONS_ROUTE = '/v1/audio/transcriptions';

/** A real kikitori-server; app.ts registers /v1/audio/transcriptions in its authenticated scope. */
export function startOpenAiTestServer(
  options: { env?: Record<string, string>; engines?: EngineRegistry } = {},
): Promise<TestServer> {
  return startTestServer({ env: options.env, runtime: options.engines ? { engines: options.engines } : undefined });
}

/** POSTs a file and fields as multipart/form-data to /v1/audio/transcriptions. */
export async function postTranscription(
  server: { url: string },
  key: string | null,
  file: string | null,
  fields: Record<string, string | string[]> = {},
) {
  const form = new FormData();
  if (file) form.append('file', await fs.openAsBlob(file), file.split('/').pop());
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  const response = await fetch(server.url + TRANSCRIPTIONS_ROUTE, {
    method: 'POST',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: form,
  });
  return toApiResponse(response);
}

/** What a client sent to the verbose_json server: the multipart fields (the file as its byte count). */
export interface ReceivedTranscription {
  fields: Record<string, string[]>;
  fileBytes: number;
}

export interface VerboseJsonServer {
  /** The base URL to configure (KIKITORI_REMOTE_ASR_BASE_URL): POST {baseUrl}/audio/transcriptions. */
  baseUrl: string;
  received: ReceivedTranscription[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 answering OpenAI's POST /v1/audio/transcriptions with a fixed
 * verbose_json body (segments and words with timestamps), recording each request's multipart fields.
 */
export async function startVerboseJsonServer(answer: unknown): Promise<VerboseJsonServer> {
  const received: ReceivedTranscription[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        const form = await new Response(Buffer.concat(chunks), {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData();
        const fields: Record<string, string[]> = {};
        let fileBytes = 0;
        form.forEach((value, name) => {
          if (typeof value === 'string') (fields[name] ??= []).push(value);
          else fileBytes = value.size;
        });
        received.push({ fields, fileBytes });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
