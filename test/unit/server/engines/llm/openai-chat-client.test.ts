import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { OpenAiChatClient, parseJsonObject } from '../../../../../src-server/engines/llm/openai-chat-client.js';
import { startFakeChatServer, type FakeChatServer, type Handler } from '../../../../support/fake-chat-server.js';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler) {
  server = await startFakeChatServer(handler);
  return server;
}

const hello = [{ role: 'user' as const, content: 'Say hello' }];

describe('OpenAiChatClient', () => {
  it('posts the model, messages and key to {baseUrl}/chat/completions and returns the answer', async () => {
    const s = await serve(() => ({ content: '{"greeting": "hello"}' }));
    const client = new OpenAiChatClient({
      baseUrl: `${s.baseUrl}/`,
      apiKey: 'sk-test-123',
      model: 'test-model',
      maxTokens: 500,
    });
    const answer = await client.complete(hello, { json: true });
    expect(answer.content).toBe('{"greeting": "hello"}');
    expect(answer.model).toBe('test-model');
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
    const [request] = s.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test-123');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toMatchObject({
      model: 'test-model',
      messages: hello,
      response_format: { type: 'json_object' },
      max_tokens: 500,
    });
  });

  it('sends no authorization header without a key, and no response_format unless JSON is asked for', async () => {
    const s = await serve(() => ({ content: 'hi' }));
    await new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'local' }).complete(hello);
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
    expect(s.requests[0]!.body.response_format).toBeUndefined();
  });

  it('explains a refused key (HTTP 401) with the server message, without retrying', async () => {
    const s = await serve(() => ({
      status: 401,
      raw: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-bad', type: 'invalid_request_error' } }),
    }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, apiKey: 'sk-bad', model: 'm', retryDelayMs: 1 });
    const error = await client.complete(hello).catch((e: unknown) => e);
    // What leaves the client is an EngineError: a message for users, the server's words in the detail.
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: 'unavailable', cause: { kind: 'auth', status: 401, retryable: false } });
    expect((error as EngineError).retryable).toBe(false);
    expect((error as Error).message).toMatch(/refused this server's credentials/);
    expect((error as Error).message).not.toContain('sk-bad');
    expect((error as EngineError).detail).toMatch(
      /refused the credentials \(HTTP 401\): Incorrect API key provided.*Check the configured LLM API key/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('reports a server failure (HTTP 500) with its message', async () => {
    const s = await serve(() => ({ status: 500, raw: '{"detail": "CUDA out of memory"}' }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', retryDelayMs: 1 });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'transient',
      detail: 'The LLM server failed (HTTP 500): CUDA out of memory.',
    });
    expect(s.requests).toHaveLength(1);
  });

  it('retries an overloaded server (HTTP 503, Retry-After) and then succeeds', async () => {
    const s = await serve((_, i) =>
      i === 0 ? { status: 503, raw: 'busy', headers: { 'retry-after': '0' } } : { content: 'ok' },
    );
    const answer = await new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', retryDelayMs: 1 }).complete(hello);
    expect(answer.content).toBe('ok');
    expect(s.requests).toHaveLength(2);
  });

  it('gives up on rate limits after the configured retries', async () => {
    const s = await serve(() => ({ status: 429, raw: '{"error": {"message": "Rate limit reached"}}' }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', retryDelayMs: 1, maxRetries: 2 });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'transient',
      cause: { kind: 'rate_limit', status: 429, retryable: true },
    });
    expect(s.requests).toHaveLength(3);
  });

  it('names a missing model or endpoint (HTTP 404) and a context overflow', async () => {
    const s = await serve((_, i) =>
      i === 0
        ? { status: 404, raw: '{"error": {"message": "The model `nope` does not exist"}}' }
        : { status: 400, raw: '{"error": {"message": "This model\'s maximum context length is 8192 tokens"}}' },
    );
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'nope', maxRetries: 0 });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'unavailable',
      cause: { kind: 'not_found' },
      detail: expect.stringContaining('model "nope"'),
    });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'bad-input',
      cause: { kind: 'context_length' },
      detail: expect.stringContaining('too long'),
    });
  });

  it('asks again without response_format when the server does not support it', async () => {
    const s = await serve((r) =>
      r.body.response_format
        ? { status: 400, raw: '{"error": {"message": "response_format is not supported"}}' }
        : { content: '{"a": 1}' },
    );
    const answer = await new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', maxRetries: 0 }).complete(hello, {
      json: true,
    });
    expect(answer.content).toBe('{"a": 1}');
    expect(s.requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false]);
  });

  it('times out a server that does not answer', async () => {
    const s = await serve(() => ({ content: 'late', delayMs: 3000 }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', timeoutMs: 200, maxRetries: 0 });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'transient',
      cause: { kind: 'timeout' },
      detail: expect.stringContaining('did not answer within'),
    });
  });

  it('stops when the caller aborts', async () => {
    const s = await serve(() => ({ content: 'late', delayMs: 3000 }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    const started = Date.now();
    await expect(client.complete(hello, { signal: controller.signal })).rejects.toThrow('job cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports an unreachable server and an answer that is not a chat completion', async () => {
    const s = await serve(() => ({ raw: '<html>nginx</html>' }));
    const client = new OpenAiChatClient({ baseUrl: s.baseUrl, model: 'm', maxRetries: 0 });
    await expect(client.complete(hello)).rejects.toMatchObject({
      kind: 'unavailable',
      cause: { kind: 'invalid_response' },
      detail: expect.stringContaining('not JSON'),
    });
    const down = new OpenAiChatClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
    await expect(down.complete(hello)).rejects.toMatchObject({
      kind: 'transient',
      cause: { kind: 'network' },
      detail: expect.stringContaining('Could not reach the LLM server'),
    });
  });
});

describe('parseJsonObject', () => {
  it('reads plain, fenced and wrapped JSON objects', () => {
    expect(parseJsonObject('{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonObject('```json\n{"a": 2}\n```')).toEqual({ a: 2 });
    expect(parseJsonObject('Here you go: {"a": 3} Hope it helps')).toEqual({ a: 3 });
  });
  it('rejects what is not a JSON object', () => {
    expect(() => parseJsonObject('no json here')).toThrow(SyntaxError);
    expect(() => parseJsonObject('{"a": ')).toThrow(SyntaxError);
    expect(() => parseJsonObject('[1, 2]')).toThrow('not an object');
  });
});
