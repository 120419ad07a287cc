import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme');
});
afterAll(() => server.close());

describe('error bodies', () => {
  it('answers malformed JSON with 400 and the spec body', async () => {
    const response = await server.api(key, 'POST', '/api/v1/dictionaries', '{"name": ');
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error_id: expect.any(String),
      error_code: ErrorCode.MALFORMED_JSON,
      error_message: expect.stringMatching(/JSON/),
    });
  });

  it('answers unknown routes and unknown ids with 404 and the spec body', async () => {
    const route = await server.api(key, 'GET', '/api/v1/nothing-here');
    expect(route.status).toBe(404);
    expect(route.json.error_code).toBe(ErrorCode.ROUTE_NOT_FOUND);
    const id = await server.api(key, 'GET', '/api/v1/transcriptions/does-not-exist');
    expect(id.status).toBe(404);
    expect(id.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_FOUND);
    expect(id.json.error_message).toContain('does-not-exist');
  });

  it('words validation messages for people: what a union allows, once, with the field and the value sent', async () => {
    const language = await server.api(key, 'POST', '/api/v1/transcriptions/upload', {
      filename: 'a.wav',
      language: 'klingon',
    });
    expect(language.status).toBe(400);
    expect(language.json).toEqual({
      error_id: expect.any(String),
      error_code: ErrorCode.VALIDATION_FAILED,
      error_message:
        'Invalid request: field "language" must be an ISO 639-1 code such as "en", or an array of codes; got "klingon".',
      field: 'language',
    });
    // The query is checked before the signature: the download's id and signature need not be real.
    const format = await fetch(`${server.url}/files/transcript/t1?expires=1&signature=x&format=docx`);
    expect(format.status).toBe(400);
    expect(await format.json()).toEqual({
      error_id: expect.any(String),
      error_code: ErrorCode.VALIDATION_FAILED,
      error_message:
        'Invalid request: query parameter "format" must be one of "json", "srt", "vtt", "txt"; got "docx".',
      field: 'format',
    });
  });

  it('gives every occurrence its own error_id, and logs it with the request', async () => {
    const a = await server.api(key, 'GET', '/api/v1/dictionaries/nope');
    const b = await server.api(key, 'GET', '/api/v1/dictionaries/nope');
    expect(a.json.error_id).not.toBe(b.json.error_id);
    const line = server.logLines.find((l) => l.includes(a.json.error_id));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      error_id: a.json.error_id,
      error_code: ErrorCode.DICTIONARY_NOT_FOUND,
      reqId: expect.anything(),
    });
  });

  it('answers a body sent with a non-JSON content type with 415', async () => {
    const response = await fetch(`${server.url}/api/v1/dictionaries`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error_code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  });

  it('never answers 500 for garbage input', async () => {
    const bodies = [
      'null',
      '"text"',
      '123',
      '[]',
      '{"name":{"deep":[1,2,{}]}}',
      '\u0000',
      '{"name":"x","words":"nope"}',
      '{"name":"x","words":[null]}',
    ];
    for (const body of bodies) {
      for (const route of ['/api/v1/dictionaries', '/api/v1/transcriptions/upload']) {
        const response = await server.api(key, 'POST', route, body);
        expect(response.status, `${route} ${body}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${route} ${body}`).toBeLessThan(500);
        expect(response.json.error_id).toEqual(expect.any(String));
      }
    }
  });
});

describe('field: where the bad input is', () => {
  const upload = (body: unknown) => server.api(key, 'POST', '/api/v1/transcriptions/upload', body);

  it('names a missing required field', async () => {
    const response = await upload({ language: 'en' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'filename' });
  });

  it('names a wrong type inside an array item by its path', async () => {
    const response = await upload({ filename: 'a.wav', words: [{ word: 'ok' }, { word: 'x', reading: 7 }] });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'words.1.reading' });
  });

  it('names an unknown field', async () => {
    const response = await upload({ filename: 'a.wav', speakers: 2 });
    expect(response.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'speakers' });
  });

  it('names a bad page query parameter, quoting what was sent', async () => {
    const response = await server.api(key, 'GET', '/api/v1/transcriptions?page=abc');
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error_code: ErrorCode.INVALID_PAGE, field: 'page' });
    expect(response.json.error_message).toContain('"abc"');
  });

  it('names the field of an error the handler finds after validation', async () => {
    const range = await upload({ filename: 'a.wav', min_speakers: 4, max_speakers: 2 });
    expect(range.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'min_speakers' });
    const between = await upload({ filename: 'a.wav', num_speakers: '6', min_speakers: 1, max_speakers: 3 });
    expect(between.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'num_speakers' });
  });

  it('sends no field when the body as a whole is wrong, or the error is not about input', async () => {
    const whole = await upload([1, 2]);
    expect(whole.status).toBe(400);
    expect(whole.json).not.toHaveProperty('field');
    const missing = await server.api(key, 'GET', '/api/v1/transcriptions/nope');
    expect(missing.json).not.toHaveProperty('field');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the routes, covering every operation', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const op of [
      'POST /api/v1/transcriptions/upload',
      'POST /api/v1/transcriptions/{transcription_id}/transcribe',
      'GET /api/v1/transcriptions',
      'GET /api/v1/transcriptions/{transcription_id}',
      'DELETE /api/v1/transcriptions/{transcription_id}',
      'GET /api/v1/transcriptions/{transcription_id}/review',
      'POST /api/v1/transcriptions/{transcription_id}/review',
      'GET /api/v1/dictionaries',
      'POST /api/v1/dictionaries',
      'GET /api/v1/dictionaries/{dictionary_id}',
      'PATCH /api/v1/dictionaries/{dictionary_id}',
      'DELETE /api/v1/dictionaries/{dictionary_id}',
      'POST /api/v1/dictionaries/{dictionary_id}/words',
      'POST /api/v1/dictionaries/{dictionary_id}/words/bulk',
      'GET /api/v1/dictionaries/{dictionary_id}/words/{word_id}',
      'DELETE /api/v1/dictionaries/{dictionary_id}/words/{word_id}',
      'POST /api/v1/dictionaries/{dictionary_id}/blacklist_words',
      'POST /api/v1/dictionaries/{dictionary_id}/blacklist_words/bulk',
      'GET /api/v1/dictionaries/{dictionary_id}/blacklist_words/{blacklist_word_id}',
      'DELETE /api/v1/dictionaries/{dictionary_id}/blacklist_words/{blacklist_word_id}',
      'GET /healthz',
    ]) {
      expect(operations).toContain(op);
    }
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(doc.components.schemas.ErrorBody.required).toEqual(['error_id', 'error_code', 'error_message']);
    expect(doc.components.schemas.ErrorBody.properties.field).toMatchObject({ type: 'string' });
  });

  it('renders the document at /docs', async () => {
    const response = await fetch(`${server.url}/docs/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger-ui');
  });
});
