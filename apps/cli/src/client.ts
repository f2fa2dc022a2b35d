import { EventSourceParserStream } from 'eventsource-parser/stream';

export type ServerEvent = { id?: string; event: string; data: Record<string, unknown> };

/** An error the server answered with: its HTTP status, its stable code and its message for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Nothing answers at the URL: the one thing to say is how to start the server. */
export class ServerDownError extends Error {
  constructor(url: string) {
    super(
      `No Tessera server at ${url}: start it (\`npm start\` in an app, \`pnpm start\` in the Tessera repository), or point TESSERA_URL or PORT at it.`,
    );
  }
}

/** What the user can do about a refused token, appended to the server's 401 message. */
const TOKEN_HINT =
  'Pass --token, set TESSERA_TOKEN, or run the CLI in the folder of the server that wrote .tessera/local-token (an app, or the Tessera repository).';

/** A small client of the server's HTTP API, authorized with a bearer token (as programs are). */
export class TesseraClient {
  readonly url: string;
  readonly #token: string | undefined;

  constructor(url: string, token: string | undefined) {
    this.url = url.replace(/\/+$/, '');
    this.#token = token;
  }

  /** A fetch whose failure to connect becomes ServerDownError and whose error answers become ApiError. */
  async #fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = {
      ...(this.#token && { authorization: `Bearer ${this.#token}` }),
      ...(init.headers as Record<string, string>),
    };
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, { ...init, headers });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ServerDownError(this.url);
    }
    if (response.status === 401 && !this.#token) {
      throw new ApiError(401, 'unauthorized', `The server wants a token and none was found. ${TOKEN_HINT}`);
    }
    if (!response.ok) throw await apiError(response);
    return response;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.#fetch(path, {
      method,
      ...(body !== undefined && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A multipart/form-data request (files with fields): fetch sets its content type and boundary. */
  async requestForm<T>(path: string, form: FormData): Promise<T> {
    const response = await this.#fetch(path, { method: 'POST', body: form });
    return (await response.json()) as T;
  }

  /** The bytes of a download, with the name the server gives them. */
  async download(path: string): Promise<{ bytes: Uint8Array; name: string | undefined }> {
    const response = await this.#fetch(path);
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      name: encoded ? decodeURIComponent(encoded) : undefined,
    };
  }

  /**
   * The conversation's events, as they come, until `signal` aborts. The first is `ready`: from then on
   * nothing the conversation does is missed, so a caller waits for it before it acts.
   */
  async *events(conversationId: string, signal: AbortSignal): AsyncGenerator<ServerEvent> {
    const response = await this.#fetch(`/api/conversations/${encodeURIComponent(conversationId)}/events`, {
      headers: { accept: 'text/event-stream' },
      signal,
    });
    if (!response.body) throw new ApiError(response.status, 'no_stream', 'The server sent no event stream.');
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
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    } finally {
      reader.releaseLock();
    }
  }
}

async function apiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: { error?: { code?: string; message?: string } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // not the server's JSON error: keep the status text
  }
  const code = body?.error?.code ?? `http_${response.status}`;
  const message = body?.error?.message ?? `${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, code, response.status === 401 ? `${message} ${TOKEN_HINT}` : message);
}
