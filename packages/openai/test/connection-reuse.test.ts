// The SDK stops reading a Chat Completions stream at `data: [DONE]`, a moment before the body's own end.
// Cancelling the body there aborts the fetch and closes its connection, so each model call would open a new
// one; the provider lets the body end instead (within bounds), and the connection goes back to the pool.
import type { ModelRequest } from '@tessera/core';
import { afterEach, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer, type Reply } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const request: ModelRequest = {
  model: 'gpt-4o',
  modelClass: 'normal',
  instructions: 'Be brief.',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [],
};

/** A fetch whose response bodies tell how they were left: read to their end, or cancelled (which aborts). */
function observedFetch() {
  const bodies: Promise<'read to its end' | 'cancelled'>[] = [];
  const observed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    let left!: (how: 'read to its end' | 'cancelled') => void;
    bodies.push(new Promise((resolve) => (left = resolve)));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        controller.close();
        left('read to its end');
      },
      async cancel(reason) {
        left('cancelled');
        await reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: observed, bodies };
}

async function streamOnce(reply: Reply) {
  server = await fixtureServer([reply]);
  const { fetch, bodies } = observedFetch();
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, api: 'chat', fetch });
  const events = [];
  for await (const event of provider.stream(request, new AbortController().signal)) events.push(event);
  return { events, body: bodies[0]! };
}

it('reads a stream the SDK left at [DONE] to its end, so that its connection can serve the next call', async () => {
  const { events, body } = await streamOnce({ body: fixture('chat-stream-text.sse'), endAfterMs: 20 });
  expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  expect(await body).toBe('read to its end');
});

it('cuts a body that does not end after [DONE] (within a second): the call has already answered', async () => {
  const sse = fixture('chat-stream-text.sse');
  const { events, body } = await streamOnce({ body: sse, stallAfter: Buffer.byteLength(sse) });
  expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  expect(await body).toBe('cancelled');
});
