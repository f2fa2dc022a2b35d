import { callTool, reply } from '@tessera/testing';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { ALICE, BOB, collectEvents, type Received, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * A user's own stream, read as it comes: `next(check)` gives the first event `check` accepts that it did not
 * give before, waiting for it if need be (events may come in any order: a prompt can ask for approval before
 * its conversation is named); `received` is everything so far.
 */
async function follow(token: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${t!.url}/api/me/events`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId && { 'last-event-id': lastEventId }) },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  const received: Received[] = [];
  const taken = new Set<Received>();
  const next = async (check: (event: Received) => boolean = () => true): Promise<Received> => {
    for (;;) {
      const found = received.find((event) => !taken.has(event) && check(event));
      if (found) {
        taken.add(found);
        return found;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      received.push({ id: value.id, event: value.event ?? 'message', data: JSON.parse(value.data) });
    }
  };
  await next((e) => e.event === 'ready');
  return { received, next, close: () => controller.abort() };
}

const waitingOf = (conversationId: string, waiting: boolean) => (e: Received) =>
  e.event === 'conversation.waiting' &&
  e.data.conversationId === conversationId &&
  e.data.waiting === waiting;

describe("a user's own event stream (GET /api/me/events)", () => {
  it('tells the list of every conversation created, renamed, named by its first message, waiting and deleted', async () => {
    t = await testServer([callTool('demo.delete_records', { names: ['a'] }), reply('Deleted a.')], {
      plugins: [demoPlugin],
    });
    const alice = await follow(ALICE);
    const created = await t.request('POST', '/api/conversations', { body: { title: 'Plans' } });
    expect((await alice.next()).data).toEqual({
      type: 'conversation.created',
      conversation: expect.objectContaining({ id: created.body.id, userId: 'alice', title: 'Plans' }),
    });
    const id = created.body.id as string;
    // Made in the process without a request (as a plugin would): the list hears of it all the same.
    await t.server.platform.conversations.create({ userId: 'alice', title: 'From a plugin' });
    expect((await alice.next()).data).toMatchObject({
      type: 'conversation.created',
      conversation: { title: 'From a plugin' },
    });
    await t.request('PATCH', `/api/conversations/${id}`, { body: { title: 'Trip plans' } });
    expect((await alice.next()).data).toEqual({
      type: 'conversation.renamed',
      conversationId: id,
      title: 'Trip plans',
    });

    // A conversation without a title is named after its first message, and its prompt asks for approval.
    const { body: untitled } = await t.request('POST', '/api/conversations', { body: {} });
    await t.request('POST', `/api/conversations/${untitled.id}/prompts`, {
      body: { input: '# Delete record a\nplease' },
    });
    const renamed = await alice.next((e) => e.event === 'conversation.renamed');
    expect(renamed.data).toMatchObject({ conversationId: untitled.id, title: 'Delete record a' });
    const waiting = await alice.next(waitingOf(untitled.id, true));
    const { body: approvals } = await t.request('GET', '/api/approvals');
    expect(approvals.items.map((a: { promptId: string }) => a.promptId)).toEqual([waiting.data.promptId]);

    await t.request('POST', `/api/tool-calls/${approvals.items[0].toolCallId}/approve`);
    await alice.next(waitingOf(untitled.id, false));
    await t.request('DELETE', `/api/conversations/${id}`);
    expect((await alice.next((e) => e.event === 'conversation.deleted')).data).toEqual({
      type: 'conversation.deleted',
      conversationId: id,
    });
    // Each event is the user's news only: no prompt's content, no other type.
    const types = new Set(alice.received.map((e) => e.event));
    expect([...types].every((type) => type === 'ready' || type.startsWith('conversation.'))).toBe(true);
    alice.close();
  });

  it("never carries another user's conversations, whatever ids that user sends", async () => {
    t = await testServer([callTool('demo.delete_records', { names: ['b'] })], { plugins: [demoPlugin] });
    const alice = await follow(ALICE);
    const bob = await follow(BOB);
    const { body: bobs } = await t.request('POST', '/api/conversations', { body: {}, token: BOB });
    await t.request('POST', `/api/conversations/${bobs.id}/prompts`, {
      body: { input: 'delete b' },
      token: BOB,
    });
    await bob.next(waitingOf(bobs.id, true));
    // Alice, with Bob's ids: refused, and nothing reaches either list.
    expect((await t.request('PATCH', `/api/conversations/${bobs.id}`, { body: { title: 'x' } })).status).toBe(
      404,
    );
    expect((await t.request('DELETE', `/api/conversations/${bobs.id}`)).status).toBe(404);
    const { body: approvals } = await t.request('GET', '/api/approvals', { token: BOB });
    const toolCallId = approvals.items[0].toolCallId as string;
    expect((await t.request('POST', `/api/tool-calls/${toolCallId}/approve`)).status).toBe(404);
    expect((await t.request('GET', '/api/approvals')).body.items).toEqual([]);
    // The end of each stream: a conversation of Alice's own, which Bob does not hear of.
    const { body: alices } = await t.request('POST', '/api/conversations', { body: { title: 'Mine' } });
    await alice.next((e) => e.event === 'conversation.created');
    await t.request('DELETE', `/api/conversations/${bobs.id}`, { token: BOB });
    await bob.next((e) => e.event === 'conversation.deleted');

    const ids = (stream: typeof alice) =>
      new Set(
        stream.received
          .map((e) => e.data.conversationId ?? (e.data.conversation as { id?: string } | undefined)?.id)
          .filter(Boolean),
      );
    expect([ids(alice), ids(bob)]).toEqual([new Set([alices.id]), new Set([bobs.id])]);
    expect(bob.received.map((e) => e.event)).toEqual(
      expect.arrayContaining(['conversation.created', 'conversation.renamed', 'conversation.waiting']),
    );
    // Only the waiting event's own fields: no prompt, no input, no user id.
    const waiting = bob.received.find((e) => e.event === 'conversation.waiting')!;
    expect(Object.keys(waiting.data).sort()).toEqual(['conversationId', 'promptId', 'type', 'waiting']);
    alice.close();
    bob.close();
  });

  it('resumes after the last id it saw; an id it cannot resume from is a reset, an overlong one a 400', async () => {
    t = await testServer();
    const first = await follow(ALICE);
    await t.request('POST', '/api/conversations', { body: { title: 'One' } });
    const one = await first.next((e) => e.event === 'conversation.created');
    first.close();
    await t.request('POST', '/api/conversations', { body: { title: 'Two' } });
    await t.request('POST', '/api/conversations', { body: { title: 'Three' } });

    const resumed = await collectEvents(`${t.url}/api/me/events`, {
      lastEventId: one.id!,
      until: (_, all) => all.length === 3,
    });
    expect(resumed.map((e) => [e.event, (e.data.conversation as { title?: string })?.title])).toEqual([
      ['ready', undefined],
      ['conversation.created', 'Two'],
      ['conversation.created', 'Three'],
    ]);
    for (const lastEventId of ['nonsense', `${one.id}0`, 'ffff-1', 'x'.repeat(200)]) {
      const answer = await collectEvents(`${t.url}/api/me/events`, {
        lastEventId,
        until: (e) => e.event === 'ready',
      });
      expect(answer.map((e) => e.event)).toEqual(['reset', 'ready']);
      expect(answer[0]!.data).toEqual({ reason: 'cannot resume; reload the list' });
    }
    const overlong = await fetch(`${t.url}/api/me/events?lastEventId=${'1'.repeat(201)}`, {
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect([overlong.status, ((await overlong.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_request',
    ]);
    const anonymous = await fetch(`${t.url}/api/me/events`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
  });

  it("counts against the user's streams with the conversations' streams: past streamsPerUser, 429", async () => {
    t = await testServer([], { limits: { streamsPerUser: 2 } });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const own = await follow(ALICE);
    const controller = new AbortController();
    const headers = { authorization: `Bearer ${ALICE}` };
    const conversationStream = await fetch(`${t.url}/api/conversations/${conversation.id}/events`, {
      headers,
      signal: controller.signal,
    });
    expect(conversationStream.status).toBe(200);
    const refused = await fetch(`${t.url}/api/me/events`, { headers });
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([
      429,
      'too_many_streams',
    ]);
    const bob = await follow(BOB); // another user's limit is their own
    bob.close();
    own.close();
    controller.abort();
  });
});
