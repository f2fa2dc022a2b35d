import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { requestFetch } from '../src/index.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A loopback server answering with `handle`; resolves to its base URL. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

describe('requestFetch', () => {
  it('sends the method, headers and body, and answers status, headers, url and body as fetch does', async () => {
    const base = await serve(async (request, response) => {
      const received = {
        method: request.method,
        auth: request.headers.authorization,
        body: await bodyOf(request),
      };
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      response.end(JSON.stringify(received));
    });
    const init = { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"q":1}' };
    const response = await requestFetch(`${base}/v1/x`, init);
    const expected = await fetch(`${base}/v1/x`, init);
    for (const answer of [response, expected]) {
      expect(answer.status).toBe(201);
      expect(answer.ok).toBe(true);
      expect(answer.url).toBe(`${base}/v1/x`);
      expect(answer.headers.get('x-request-id')).toBe('req_1');
      expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(await answer.json()).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":1}' });
    }
  });

  it('takes a URL object and a Headers object', async () => {
    const base = await serve((request, response) => response.end(request.headers['x-k']));
    const response = await requestFetch(new URL(`${base}/y`), { headers: new Headers({ 'x-k': 'v' }) });
    expect(await response.text()).toBe('v');
  });

  it('streams the body as it arrives, not once it ends', async () => {
    let next: (() => void) | undefined;
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
      next = () => response.end('data: 2\n\n');
    });
    const reader = (await requestFetch(base)).body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 1\n\n');
    next!();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 2\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('answers no body where fetch has none (204, HEAD)', async () => {
    const base = await serve((request, response) => {
      response.writeHead(request.method === 'HEAD' ? 200 : 204, { 'content-length': '0' });
      response.end();
    });
    expect((await requestFetch(base, { method: 'DELETE' })).body).toBeNull();
    const head = await requestFetch(base, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, null]);
  });

  it('decodes a body the server compressed', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(gzipSync('{"answer":"compressed"}'));
    });
    expect(await (await requestFetch(base)).json()).toEqual({ answer: 'compressed' });
  });

  it('refuses a body that names more content codings than fetch allows (5), as fetch fails a request', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-encoding': Array(6).fill('gzip').join(', ') });
      response.end('x');
    });
    await expect(requestFetch(base)).rejects.toThrow(TypeError);
  });

  it('follows a redirect as fetch does, the body sent again', async () => {
    const base = await serve(async (request, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end();
        return;
      }
      response.end(`${request.url} ${await bodyOf(request)}`);
    });
    const response = await requestFetch(`${base}/old`, { method: 'POST', body: 'again' });
    expect([response.status, await response.text()]).toEqual([200, '/new again']);
  });

  it('hands a body that is not a string or bytes (a form) to fetch', async () => {
    const base = await serve(async (request, response) => {
      response.end(
        `${request.headers['content-type']?.split(';')[0]} ${(await bodyOf(request)).includes('name="f"')}`,
      );
    });
    const form = new FormData();
    form.set('f', 'v');
    expect(await (await requestFetch(base, { method: 'POST', body: form })).text()).toBe(
      'multipart/form-data true',
    );
  });

  it('refuses a status outside 200-599 as fetch fails a request: a TypeError', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(999);
      response.end();
    });
    await expect(requestFetch(base)).rejects.toThrow(TypeError);
  });

  it('stops with the signal: before the answer, and while the body is read', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200);
      response.write('first');
    });
    const early = new AbortController();
    early.abort(new Error('not wanted'));
    await expect(requestFetch(base, { signal: early.signal })).rejects.toThrow('not wanted');
    const late = new AbortController();
    const reader = (await requestFetch(base, { signal: late.signal })).body!.getReader();
    await reader.read();
    late.abort(new Error('stop now'));
    await expect(reader.read()).rejects.toThrow('stop now');
  });

  it('fails the body when the connection drops in the middle of it', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part');
      setImmediate(() => response.socket?.destroy());
    });
    const response = await requestFetch(base);
    await expect(response.text()).rejects.toThrow();
  });

  it('holds the server back while the reader does not read (no unbounded buffer)', async () => {
    const total = 64 * 1024 * 1024;
    let written = 0;
    const base = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-length': String(total) });
      const chunk = Buffer.alloc(64 * 1024, 97);
      while (written < total && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) await once(response, 'drain').catch(() => {});
      }
      response.end();
    });
    const reader = (await requestFetch(base)).body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Socket buffers on both sides hold a few MB at most; without flow control all 64 MB are read at once.
    expect(written).toBeLessThan(total / 4);
    await reader.cancel();
  });
});
