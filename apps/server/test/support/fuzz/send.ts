import { request } from 'node:http';

/** A request exactly as the fuzz means it: a raw path (nothing normalized or escaped), any headers, any bytes. */
export type RawRequest = {
  method: string;
  /** Sent as is: `..`, `%2e%2e`, odd escapes and all. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
};

export type RawResponse = {
  status: number;
  contentType: string;
  /** The body; for an event stream, what came up to and including its `ready` event. */
  text: string;
  /** The events of an event stream, up to `ready`. */
  events?: { event: string; data: string; id?: string }[];
};

/** How long a response may take before it counts as hung (a failure, not a timing assertion). */
const HANG_MS = 20_000;

/**
 * Sends one request over a fresh connection and reads the answer. An event stream stays open: it is read
 * until its `ready` event (everything before it is replayed history), then the connection is dropped.
 */
export function sendRaw(base: URL, raw: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: base.hostname,
      port: base.port,
      method: raw.method,
      path: raw.path,
      // Node frames a GET's or a DELETE's body with no length at all: say it, or it is read as a next request.
      headers: {
        ...raw.headers,
        connection: 'close',
        ...(raw.body && { 'content-length': String(raw.body.length) }),
      },
      timeout: HANG_MS,
      agent: false,
    });
    req.on('timeout', () =>
      req.destroy(new Error(`no answer within ${HANG_MS} ms: ${raw.method} ${raw.path}`)),
    );
    req.on('error', reject);
    req.on('response', (res) => {
      const contentType = res.headers['content-type'] ?? '';
      const stream = contentType.startsWith('text/event-stream');
      const chunks: Buffer[] = [];
      const finish = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          contentType,
          text,
          ...(stream && { events: parseEvents(text) }),
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && /(^|\n)event: ready\n[\s\S]*?\n\n/.test(Buffer.concat(chunks).toString('utf8'))) {
          req.destroy();
          finish();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => (stream ? finish() : reject(error)));
    });
    req.end(raw.body);
  });
}

/** The SSE frames of `text` (comments skipped). */
function parseEvents(text: string): { event: string; data: string; id?: string }[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '' && !frame.startsWith(':'))
    .map((frame) => {
      const fields: Record<string, string> = {};
      for (const line of frame.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const key = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        fields[key] = key === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value;
      }
      return {
        event: fields.event ?? 'message',
        data: fields.data ?? '',
        ...(fields.id && { id: fields.id }),
      };
    });
}
