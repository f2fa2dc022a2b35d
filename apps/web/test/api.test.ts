import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api.ts';
import { decideCall } from '../src/ConversationPane.tsx';

afterEach(() => vi.unstubAllGlobals());

const accepted = (id: string) =>
  new Response(JSON.stringify({ prompt: { id, state: 'running', output: [] } }), {
    status: 202,
    headers: { 'content-type': 'application/json' },
  });

describe('sending a message', () => {
  it('retries a send the network dropped, with the same prompt id', async () => {
    const ids: string[] = [];
    const fetch = vi.fn(async (request: Request) => {
      const { id } = (await request.json()) as { id: string };
      ids.push(id);
      if (ids.length === 1) throw new TypeError('Failed to fetch');
      return accepted(id);
    });
    vi.stubGlobal('fetch', fetch);
    const api = createApi('token', 'http://tessera.test');
    const { prompt } = await api.send('cnv_1', 'hello');
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^prm_[\w-]+$/);
    expect(ids[1]).toBe(ids[0]);
    expect(prompt.id).toBe(ids[0]);
  });

  it('does not retry an answer from the server, even an error', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ error: { code: 'conversation_busy', message: 'Busy.' } }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(createApi('token', 'http://tessera.test').send('cnv_1', 'hello')).rejects.toMatchObject({
      code: 'conversation_busy',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('the browser client (session cookie)', () => {
  it('puts no token in any URL: event streams and downloads are authorized by the cookie', () => {
    const api = createApi(undefined, 'http://tessera.test');
    expect(api.eventsUrl('conv_1')).toBe('http://tessera.test/api/conversations/conv_1/events');
    expect(api.fileUrl('conv_1', 'file_1')).toBe('http://tessera.test/api/conversations/conv_1/files/file_1');
    expect(api.fileUrl('conv_1', 'file_1', true)).toBe(
      'http://tessera.test/api/conversations/conv_1/files/file_1?inline=1',
    );
    // Even a client made with a token (a program) never writes it into a URL.
    const withToken = createApi('secret-token', 'http://tessera.test');
    expect(withToken.eventsUrl('conv_1')).not.toContain('secret-token');
    expect(withToken.fileUrl('conv_1', 'file_1')).not.toContain('secret-token');
  });

  it('sends the CSRF header and no Authorization, and the browser time zone with a message', async () => {
    const seen: Request[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        seen.push(request.clone());
        return accepted('prm_x');
      }),
    );
    await createApi(undefined, 'http://tessera.test').send('conv_1', 'hello');
    const [request] = seen;
    expect(request!.headers.get('x-requested-with')).toBe('tessera-web');
    expect(request!.headers.get('authorization')).toBeNull();
    expect(request!.url).toBe('http://tessera.test/api/conversations/conv_1/prompts');
    const body = (await request!.json()) as { timeZone?: string };
    expect(body.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('turns a failure to reach the server into a readable error, and a non-JSON error page into its status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const api = createApi(undefined, 'http://tessera.test');
    await expect(api.conversations()).rejects.toMatchObject({
      code: 'network',
      message: 'Cannot reach the Tessera server. Check that it is running and that you are online.',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(api.conversations()).rejects.toMatchObject({
      code: 'http_error',
      message: 'The server failed (502 Bad Gateway). Try again in a moment.',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: { code: 'not_found', message: 'Conversation conv_9 not found.' } }),
            { status: 404, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    await expect(api.conversation('conv_9')).rejects.toMatchObject({
      code: 'not_found',
      message: 'Conversation conv_9 not found.',
    });
  });
});

describe('deciding a pending call', () => {
  it('sends each decision to its route, with its body', async () => {
    const sent: [string, unknown][] = [];
    vi.stubGlobal(
      'fetch',
      // The typed client passes a Request; a plain fetch (reject's) a URL and its options.
      vi.fn(async (input: Request | string, init?: RequestInit) => {
        const request = typeof input === 'string' ? new Request(input, init) : input;
        const text = await request.text();
        sent.push([new URL(request.url).pathname, text ? JSON.parse(text) : undefined]);
        return accepted('prm_1');
      }),
    );
    const api = createApi('token', 'http://tessera.test');
    await decideCall(api, 'call_1', { approve: true });
    await decideCall(api, 'call_1', { approve: true, input: { amount: 50 } });
    await decideCall(api, 'call_1', { approve: false, reason: 'no' });
    await decideCall(api, 'call_1', { skip: true, reason: 'not needed' });
    await decideCall(api, 'call_1', { skip: true });
    await decideCall(api, 'call_1', { answer: { balance: 120 }, reason: 'from my statement' });
    await decideCall(api, 'call_1', { answer: null });
    expect(sent).toEqual([
      ['/api/tool-calls/call_1/approve', undefined],
      ['/api/tool-calls/call_1/approve', { input: { amount: 50 } }],
      ['/api/tool-calls/call_1/reject', { reason: 'no' }],
      ['/api/tool-calls/call_1/skip', { reason: 'not needed' }],
      ['/api/tool-calls/call_1/skip', {}],
      ['/api/tool-calls/call_1/answer', { answer: { balance: 120 }, reason: 'from my statement' }],
      ['/api/tool-calls/call_1/answer', { answer: null }],
    ]);
  });
});
