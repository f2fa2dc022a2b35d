import { EventSourceParserStream } from 'eventsource-parser/stream';

export type ServerEvent = { id?: string; event: string; data: Record<string, unknown> };

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A small client of the server's HTTP API. */
export class TesseraClient {
  readonly url: string;
  readonly #token: string | undefined;

  constructor(url: string, token: string | undefined) {
    this.url = url.replace(/\/$/, '');
    this.#token = token;
  }

  #headers(): Record<string, string> {
    return this.#token ? { authorization: `Bearer ${this.#token}` } : {};
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...this.#headers(), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!response.ok) {
      throw new ApiError(
        response.status,
        parsed?.error?.code ?? 'http_error',
        parsed?.error?.message ?? response.statusText,
      );
    }
    return parsed as T;
  }

  /** The conversation's events, as they come, until `signal` aborts. */
  async *events(conversationId: string, signal: AbortSignal): AsyncGenerator<ServerEvent> {
    const response = await fetch(`${this.url}/api/conversations/${conversationId}/events`, {
      headers: this.#headers(),
      signal,
    });
    if (!response.ok || !response.body)
      throw new ApiError(response.status, 'events', 'Cannot open the event stream.');
    const reader = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield { id: value.id, event: value.event ?? 'message', data: JSON.parse(value.data) };
      }
    } finally {
      reader.releaseLock();
    }
  }
}
