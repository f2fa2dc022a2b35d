import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Recorded live OpenAI traffic, kept byte for byte in this package (sources in its README.md). */
export const FIXTURES = new URL('./fixtures/recorded/', import.meta.url);

export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** A `.chunks.txt` (one event per line) rebuilt as the SSE body the API sends. */
export function sseFromChunks(name: string, api: 'responses' | 'chat'): string {
  const lines = fixture(name)
    .split('\n')
    .filter((line) => line.trim() !== '');
  return api === 'chat'
    ? `${lines.map((line) => `data: ${line}\n\n`).join('')}data: [DONE]\n\n`
    : lines.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`).join('');
}

export type Reply = {
  status?: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send only this many bytes of the body, then hang (a stalled stream). */
  stallAfter?: number;
  /** Send only this many bytes of the body (after the headers), then close the connection mid-body. */
  dropAfter?: number;
  /** Wait this long between the small writes of the body (a slow network), instead of none. */
  writeEveryMs?: number;
  /** End the response this long after its last byte (a server that ends the body a moment after `[DONE]`). */
  endAfterMs?: number;
  /** Before the body, send an SSE comment (`: PROCESSING`, as OpenRouter does) this often, this many times. */
  keepAlive?: { everyMs: number; times: number };
};

/**
 * A local server that answers each request with the next reply, in small writes (as a network would),
 * and keeps every request body for assertions.
 */
export async function fixtureServer(replies: Reply[]) {
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  const stalled: import('node:http').ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      requests.push({ path: req.url ?? '', body: raw ? JSON.parse(raw) : {} });
      const reply = replies.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no reply scripted","type":"server_error"}}');
        return;
      }
      res.writeHead(reply.status ?? 200, {
        'content-type':
          reply.contentType ??
          (reply.status && reply.status >= 400 ? 'application/json' : 'text/event-stream'),
        ...reply.headers,
      });
      res.flushHeaders();
      for (let i = 0; i < (reply.keepAlive?.times ?? 0); i++) {
        await new Promise((resolve) => setTimeout(resolve, reply.keepAlive!.everyMs));
        res.write(': PROCESSING\n\n');
      }
      const bytes = Buffer.from(reply.body);
      const end = reply.stallAfter ?? reply.dropAfter ?? bytes.length;
      for (let i = 0; i < end; i += 97) {
        if (reply.writeEveryMs) await new Promise((resolve) => setTimeout(resolve, reply.writeEveryMs));
        res.write(bytes.subarray(i, Math.min(i + 97, end)));
      }
      // Closes the socket once what was written has gone: the body ends without its last chunk.
      if (reply.dropAfter !== undefined) res.socket?.end();
      else if (reply.endAfterMs !== undefined) setTimeout(() => res.end(), reply.endAfterMs);
      else if (reply.stallAfter === undefined) res.end();
      else stalled.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    replies,
    close: () => {
      for (const res of stalled) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
