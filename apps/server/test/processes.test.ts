import { reply } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type Received, testServer } from './harness.ts';
import { serverDatabase } from './support/server-database.ts';

/** The machine's NATS server (as for @tessera/relay-nats's tests, which never skip either). */
const NATS_URL = process.env.TESSERA_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** Opens an event stream on `url` and resolves `ready` once the server says it follows it. */
function stream(url: string, until: (event: Received) => boolean) {
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const events = collectEvents(url, {
    until: (event) => {
      if (event.event === 'ready') onReady();
      return until(event);
    },
  });
  return { ready, events };
}

/** Two server processes on one PostgreSQL database: the prompt runs in `a`, its user watches from `b`. */
describe.each([
  { relay: 'PostgreSQL LISTEN/NOTIFY', relayUrl: undefined },
  { relay: 'NATS', relayUrl: NATS_URL },
])('two servers on one database, relaying over $relay', ({ relayUrl }) => {
  let database: Awaited<ReturnType<typeof serverDatabase>>;
  let a: Awaited<ReturnType<typeof testServer>>;
  let b: Awaited<ReturnType<typeof testServer>>;
  beforeAll(async () => {
    database = await serverDatabase();
    const options = { databaseUrl: database.url, ...(relayUrl && { relayUrl }) };
    a = await testServer([reply('From a.'), reply('never', { delayMs: 30_000 })], options);
    b = await testServer([], options);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it("streams from one server the events of a prompt the other runs, and the user's waiting states", async () => {
    const { body: conversation } = await a.request('POST', '/api/conversations', { body: {} });
    const inB = stream(
      `${b.url}/api/conversations/${conversation.id}/events`,
      (e) => e.event === 'prompt.completed',
    );
    const userInB = stream(`${b.url}/api/me/events`, (e) => e.event === 'conversation.waiting');
    await Promise.all([inB.ready, userInB.ready]);
    const sent = await a.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'hi' },
    });
    expect(sent.status).toBe(202);
    const events = await inB.events;
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['ready', 'prompt.started', 'prompt.text-delta', 'prompt.completed']),
    );
    expect(events.at(-1)?.data.prompt).toMatchObject({ state: 'completed' });
    expect((await userInB.events).at(-1)).toMatchObject({
      event: 'conversation.waiting',
      data: { conversationId: conversation.id, waiting: false },
    });
  });

  it('cancels from one server a prompt the other runs', async () => {
    const { body: conversation } = await a.request('POST', '/api/conversations', { body: {} });
    const sent = await a.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'slow' },
    });
    const promptId = sent.body.prompt?.id ?? sent.body.id;
    const cancelled = await b.request('POST', `/api/prompts/${promptId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: promptId, state: 'cancelled' });
  });
});

describe('the relay setting (relayUrl, TESSERA_RELAY_URL)', () => {
  it('takes NATS URLs only, and fails the start when no NATS server answers', async () => {
    await expect(testServer([], { relayUrl: 'redis://127.0.0.1:6379' })).rejects.toThrow(/NATS URL/);
    // A port nothing listens on (the test's own ephemeral server, closed).
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    await expect(testServer([], { relayUrl: `nats://127.0.0.1:${port}` })).rejects.toThrow(/not reachable/);
  });
});
