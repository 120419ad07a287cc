// Helpers for tests of the OpenAI-compatible POST /v1/audio/transcriptions.
import fs from 'node:fs';
import type { EngineRegistry } from '../../src-server/engines/engine-registry.js';
import { startTestServer, toApiResponse, type TestServer } from './test-server.js';

export const TRANSCRIPTIONS_ROUTE = '/v1/audio/transcriptions';

/** A real kikitori-server; app.ts registers /v1/audio/transcriptions in its authenticated scope. */
export function startOpenAiTestServer(options: { env?: Record<string, string>; engines?: EngineRegistry } = {}): Promise<TestServer> {
  return startTestServer({ env: options.env, runtime: options.engines ? { engines: options.engines } : undefined });
}

/** POSTs a file and fields as multipart/form-data to /v1/audio/transcriptions. */
export async function postTranscription(server: { url: string }, key: string | null, file: string | null, fields: Record<string, string | string[]> = {}) {
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
