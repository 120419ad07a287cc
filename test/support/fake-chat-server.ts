// A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol with canned answers,
// and records what it was sent.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string };
    temperature?: number;
    max_tokens?: number;
  };
}

export interface Reply {
  status?: number;
  /** The assistant's message content (wrapped in a chat completion). */
  content?: string;
  /** A raw body instead of a chat completion. */
  raw?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type Handler = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface FakeChatServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The last user message of request i. */
  prompt(i: number): string;
  close(): Promise<void>;
}

export async function startFakeChatServer(handler: Handler): Promise<FakeChatServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // A throwing handler is a broken test: reset the connection so the client under test does not
      // wait for a reply, and rethrow so the run reports the unhandled rejection.
      void respond().catch((err: unknown) => {
        res.destroy();
        throw err;
      });
    });
    async function respond(): Promise<void> {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
      };
      const index = requests.push(recorded) - 1;
      const reply = await handler(recorded, index);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      const body =
        reply.raw ??
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: 0,
          model: recorded.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    prompt: (i) => {
      const messages = requests[i]?.body.messages ?? [];
      return messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The segment ids a prompt lists as "[12] 00:00:01.0-…" lines. */
export function promptSegmentIds(prompt: string): number[] {
  return [...prompt.matchAll(/^\[(\d+)\] \d\d:\d\d:\d\d\.\d-\d\d:\d\d:\d\d\.\d/gm)].map((m) => Number(m[1]));
}
