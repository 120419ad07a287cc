// A client for OpenAI-compatible chat-completions endpoints (OpenAI, llama.cpp's server, vLLM,
// Ollama, LM Studio, LiteLLM…): POST {baseUrl}/chat/completions. Time-outs, retries of transient
// failures, and errors that say what went wrong in words an operator can act on.
//
// Inside, an LlmError keeps the precise failure (for retry decisions here); what leaves the client is an
// EngineError whose message is for users and whose detail (status, model, the server's words) is for the log.
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError, type EngineErrorKind } from '../../domain/engine-error.js';
import { backoffDelay } from '../../../src-shared/backoff.js';
import { abortReason } from '../../../src-shared/abort.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface OpenAiChatConfig {
  /** Up to and including the API version, e.g. "https://api.openai.com/v1" or "http://127.0.0.1:8080/v1". */
  baseUrl: string;
  /** Sent as "Authorization: Bearer …"; leave empty for local servers that need none. */
  apiKey?: string | null;
  model: string;
  /** Bound on one HTTP request, in ms (default 120 s). */
  timeoutMs?: number;
  /** Retries of a rate limit, a gateway error or a network failure (default 2). */
  maxRetries?: number;
  /** First back-off delay in ms, doubled each retry (default 1000). A Retry-After header wins. */
  retryDelayMs?: number;
  /** Sampling temperature (default 0.2: analyses want consistency, not creativity). */
  temperature?: number;
  /** Upper bound on the answer's tokens (default: the server's). */
  maxTokens?: number;
  /** Extra headers, e.g. for a gateway. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface ChatRequestOptions {
  signal?: AbortSignal;
  /** Ask for a JSON object (response_format json_object). */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
}

export interface ChatCompletion {
  content: string;
  model: string;
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
}

type LlmErrorKind =
  | 'auth'
  | 'bad_request'
  | 'context_length'
  | 'not_found'
  | 'rate_limit'
  | 'server'
  | 'timeout'
  | 'network'
  | 'invalid_response';

class LlmError extends Error {
  /** How long the server asked us to wait (Retry-After), when it did. */
  retryAfterMs: number | undefined;
  constructor(
    message: string,
    readonly kind: LlmErrorKind,
    /** The HTTP status, when the server answered. */
    readonly status: number | null = null,
    /** Whether trying again later may succeed (a rate limit, an overloaded server) or not (a bad key). */
    readonly retryable = false,
  ) {
    super(message);
  }
}

const RETRYABLE_STATUS = new Set([408, 409, 429, 502, 503, 504]);

/** What a user is told for each failure, and whether the job runner may try again. */
const USER_FACING: Record<LlmErrorKind, { kind: EngineErrorKind; message: string }> = {
  auth: {
    kind: 'unavailable',
    message:
      "The language model service refused this server's credentials. An administrator needs to check its API key.",
  },
  not_found: {
    kind: 'unavailable',
    message:
      'The language model service is not set up correctly on this server. An administrator needs to check its address and model.',
  },
  bad_request: { kind: 'bad-input', message: 'The language model service refused this request.' },
  context_length: { kind: 'bad-input', message: 'The transcript is too long for the language model.' },
  rate_limit: { kind: 'transient', message: 'The language model service is busy. Try again later.' },
  server: { kind: 'transient', message: 'The language model service failed. Try again later.' },
  timeout: { kind: 'transient', message: 'The language model service did not answer in time. Try again later.' },
  network: { kind: 'transient', message: 'The language model service could not be reached. Try again later.' },
  invalid_response: {
    kind: 'unavailable',
    message:
      'The language model gave an answer this server cannot use. An administrator may need to choose another model.',
  },
};

function toEngineError(error: LlmError): EngineError {
  const { kind, message } = USER_FACING[error.kind];
  return new EngineError(kind, message, { detail: error.message, cause: error });
}

/** The model answered, but not with something usable: `detail` says what was wrong, for the log. */
export function unusableAnswer(detail: string): EngineError {
  return toEngineError(new LlmError(detail, 'invalid_response'));
}

/** The error message a server put in its body: OpenAI's {error: {message}}, or {message}, {detail}, {error: "…"}, or text. */
function serverMessage(body: string): string {
  let message = body.trim();
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const error = parsed.error;
    if (error && typeof error === 'object' && typeof (error as Record<string, unknown>).message === 'string') {
      message = (error as Record<string, string>).message!;
    } else if (typeof error === 'string') message = error;
    else if (typeof parsed.message === 'string') message = parsed.message;
    else if (typeof parsed.detail === 'string') message = parsed.detail;
  } catch {
    // not JSON: the text itself
  }
  message = message.replace(/\s+/g, ' ');
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

export class OpenAiChatClient {
  private readonly url: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly config: OpenAiChatConfig) {
    if (!config.baseUrl) throw new Error('The LLM endpoint needs a base URL.');
    if (!config.model) throw new Error('The LLM endpoint needs a model name.');
    this.url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.fetchFn = config.fetch ?? fetch;
  }

  get model(): string {
    return this.config.model;
  }

  /** One chat completion; failures are EngineErrors (cancellation rethrows the signal's reason). */
  async complete(messages: ChatMessage[], options: ChatRequestOptions = {}): Promise<ChatCompletion> {
    try {
      return await this.completeWithRetries(messages, options);
    } catch (error) {
      throw error instanceof LlmError ? toEngineError(error) : error;
    }
  }

  private async completeWithRetries(messages: ChatMessage[], options: ChatRequestOptions): Promise<ChatCompletion> {
    const maxRetries = this.config.maxRetries ?? 2;
    let json = options.json ?? false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(messages, { ...options, json });
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        // Some OpenAI-compatible servers do not know response_format: ask again without it (the prompt says JSON anyway).
        if (json && error.kind === 'bad_request' && /response_format|json_object|json mode/i.test(error.message)) {
          json = false;
          continue;
        }
        if (!error.retryable || attempt >= maxRetries) throw error;
        const delay =
          error.retryAfterMs ??
          backoffDelay(attempt, { baseDelayMs: this.config.retryDelayMs ?? 1000, maxDelayMs: 30_000 });
        try {
          await sleep(delay, undefined, { signal: options.signal });
        } catch {
          throw abortReason(options.signal!);
        }
      }
    }
  }

  private async once(messages: ChatMessage[], options: ChatRequestOptions): Promise<ChatCompletion> {
    const { signal } = options;
    if (signal?.aborted) throw abortReason(signal);
    const timeoutMs = this.config.timeoutMs ?? 120_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body: Record<string, unknown> = {
      model: this.config.model,
      messages,
      temperature: options.temperature ?? this.config.temperature ?? 0.2,
    };
    const maxTokens = options.maxTokens ?? this.config.maxTokens;
    if (maxTokens) body.max_tokens = maxTokens;
    if (options.json) body.response_format = { type: 'json_object' };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...this.config.headers,
    };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;

    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: combined,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (timeout.aborted) {
        throw new LlmError(
          `The LLM server did not answer within ${Math.round(timeoutMs / 1000)} s (model "${this.config.model}").`,
          'timeout',
          null,
          true,
        );
      }
      const cause =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new LlmError(`Could not reach the LLM server: ${cause}.`, 'network', null, true);
    }

    if (!response.ok) throw this.httpError(response, text);

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LlmError(
        `The LLM server's answer is not JSON (HTTP ${response.status}): ${text.slice(0, 120) || 'empty body'}. Is the base URL an OpenAI-compatible /v1 endpoint?`,
        'invalid_response',
        response.status,
      );
    }
    const choice = (parsed as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> })
      .choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string') {
      throw new LlmError(
        'The LLM server answered without a message (no choices[0].message.content).',
        'invalid_response',
        response.status,
      );
    }
    const usage = (parsed as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
    return {
      content,
      model:
        typeof (parsed as { model?: unknown }).model === 'string'
          ? (parsed as { model: string }).model
          : this.config.model,
      finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
      usage:
        usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
          ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
          : null,
    };
  }

  private httpError(response: Response, body: string): LlmError {
    const status = response.status;
    const said = serverMessage(body) || response.statusText || 'no message';
    const model = this.config.model;
    let error: LlmError;
    if (status === 401 || status === 403) {
      error = new LlmError(
        `The LLM server refused the credentials (HTTP ${status}): ${said}. Check the configured LLM API key.`,
        'auth',
        status,
      );
    } else if (status === 404) {
      error = new LlmError(
        `The LLM server has no such endpoint or model (HTTP 404, model "${model}"): ${said}. Check the base URL (it should end in /v1 or equivalent) and the model name.`,
        'not_found',
        status,
      );
    } else if (status === 429) {
      error = new LlmError(`The LLM server is rate limiting requests (HTTP 429): ${said}.`, 'rate_limit', status, true);
    } else if (
      (status === 400 || status === 413 || status === 422) &&
      /context|too long|too many tokens|maximum.*tokens|token limit/i.test(said)
    ) {
      error = new LlmError(
        `The text is too long for the model's context window (HTTP ${status}, model "${model}"): ${said}.`,
        'context_length',
        status,
      );
    } else if (status >= 400 && status < 500 && !RETRYABLE_STATUS.has(status)) {
      error = new LlmError(
        `The LLM server rejected the request (HTTP ${status}, model "${model}"): ${said}.`,
        'bad_request',
        status,
      );
    } else if (status === 408 || status === 504) {
      error = new LlmError(`The LLM server timed out (HTTP ${status}): ${said}.`, 'timeout', status, true);
    } else {
      error = new LlmError(
        `The LLM server failed (HTTP ${status}): ${said}.`,
        'server',
        status,
        RETRYABLE_STATUS.has(status),
      );
    }
    const header = response.headers.get('retry-after');
    const retryAfter = header === null || header.trim() === '' ? NaN : Number(header);
    if (error.retryable && Number.isFinite(retryAfter) && retryAfter >= 0) {
      error.retryAfterMs = Math.min(retryAfter, 30) * 1000;
    }
    return error;
  }
}

/**
 * The JSON object in a model's answer: tolerates a ```json fence or words around the object.
 * Throws a SyntaxError saying what is wrong otherwise.
 */
export function parseJsonObject(content: string): Record<string, unknown> {
  let text = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text);
  if (fenced) text = fenced[1]!;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (first) {
    const from = text.indexOf('{');
    const to = text.lastIndexOf('}');
    if (from < 0 || to <= from) throw new SyntaxError(`no JSON object in the answer (${(first as Error).message})`);
    try {
      value = JSON.parse(text.slice(from, to + 1));
    } catch (second) {
      throw new SyntaxError((second as Error).message);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new SyntaxError('the answer is JSON but not an object');
  return value as Record<string, unknown>;
}
