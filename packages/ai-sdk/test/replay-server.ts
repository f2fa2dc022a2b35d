import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';

/** Recorded provider traffic, kept byte for byte (sources and licences in fixtures/recorded/README.md). */
export const recorded = (name: string): string =>
  readFileSync(new URL(`./fixtures/recorded/${name}`, import.meta.url), 'utf8');

/** One recorded exchange of a go-vcr v2 cassette: what the client sent and what the API answered. */
export type Interaction = { url: string; requestBody: unknown; status: number; body: string };

export function cassette(name: string): Interaction[] {
  const parsed = parse(recorded(name)) as {
    interactions: { request: { url: string; body: string }; response: { code: number; body: string } }[];
  };
  return parsed.interactions.map(({ request, response }) => ({
    url: request.url,
    requestBody: JSON.parse(request.body),
    status: response.code,
    body: response.body,
  }));
}

/** A `.chunks.txt` of the Anthropic API (one event per line) framed again as the SSE body the API sends. */
export const anthropicSse = (name: string): string =>
  recorded(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`)
    .join('');

export type Reply = {
  status?: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send only this many bytes of the body, then hang (a model that stalls mid-answer). */
  stallAfter?: number;
};

/**
 * A local server that answers each request with the next reply, in 97-byte writes (so the provider's parser
 * sees events split anywhere, as over a network), and keeps every request's path and body.
 */
export async function replayServer(replies: Reply[]) {
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  const stalled: import('node:http').ServerResponse[] = [];
  /** Requests whose client went away before the answer ended (an aborted call). */
  let abandoned = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: raw ? JSON.parse(raw) : {} });
      const reply = replies.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no reply scripted"}}');
        return;
      }
      const status = reply.status ?? 200;
      res.writeHead(status, {
        'content-type': reply.contentType ?? (status >= 400 ? 'application/json' : 'text/event-stream'),
        ...reply.headers,
      });
      const bytes = Buffer.from(reply.body);
      const end = reply.stallAfter ?? bytes.length;
      for (let i = 0; i < end; i += 97) res.write(bytes.subarray(i, Math.min(i + 97, end)));
      if (reply.stallAfter === undefined) res.end();
      else {
        stalled.push(res);
        res.on('close', () => abandoned++);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    abandoned: () => abandoned,
    close: () => {
      for (const res of stalled) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
