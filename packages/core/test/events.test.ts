import { callTool, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it, vi } from 'vitest';
import {
  createPlatform,
  EventBus,
  type EventRelay,
  EventStreamOverflowError,
  MemoryStore,
  type RelayMessage,
  type RelayTopic,
  relayTopics,
  type TesseraEvent,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const scope = { promptId: 'p1', conversationId: 'c1', userId: 'u1' };

describe('event streams', () => {
  it('follow one prompt as an async iterator that ends when the loop stops, including at a pause', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'x' }), reply('Deleted.')],
    });
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'delete x',
    });
    const seen: string[] = [];
    for await (const event of t.platform.events.stream({ promptId: run.prompt.id })) seen.push(event.type);
    expect(seen).toEqual(['prompt.output', 'prompt.approval-requested']);

    const pending = (await run.done).output[0]!;
    const resumed = t.platform.events.stream({ promptId: run.prompt.id });
    const approving = t.approve(pending.id);
    const after: string[] = [];
    for await (const event of resumed) after.push(event.type);
    await approving;
    expect(after).toEqual([
      'prompt.output-updated', // pending → running (approved)
      'prompt.resumed',
      'prompt.output-updated', // the result
      'prompt.text-delta',
      'prompt.output',
      'prompt.completed',
    ]);
  });

  it('follow one prompt through its approvals to its end with throughPauses', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'x' }), callTool('demo.delete', { id: 'y' }), reply('Done.')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    const seen: string[] = [];
    let loopStopped = run.done;
    for await (const event of t.platform.events.stream(
      { promptId: run.prompt.id },
      { throughPauses: true },
    )) {
      seen.push(event.type);
      // Approved once the paused loop has stopped; the resumed loop's end is awaited at the next pause.
      if (event.type === 'prompt.approval-requested') {
        await loopStopped;
        loopStopped = t.approve(event.toolCallId);
      }
    }
    await loopStopped;
    expect(seen.filter((type) => type === 'prompt.approval-requested')).toHaveLength(2);
    expect(seen.at(-1)).toBe('prompt.completed');
  });

  it('follow a conversation across prompts until the signal aborts', async () => {
    const t = await createTestPlatform({ script: [reply('one'), reply('two')] });
    const controller = new AbortController();
    const stream = t.platform.events.stream(
      { conversationId: t.conversation.id },
      { signal: controller.signal },
    );
    await t.send('1');
    await t.send('2');
    controller.abort();
    const completed: string[] = [];
    for await (const event of stream)
      if (event.type === 'prompt.completed') completed.push(event.prompt.input ?? '');
    expect(completed).toEqual(['1', '2']);
  });

  it('a throwing or rejecting subscriber never breaks the loop', async () => {
    const onSubscriberError = vi.fn();
    const t = await createTestPlatform({ script: [reply('fine')], onSubscriberError });
    t.platform.events.subscribe({}, () => {
      throw new Error('sync boom');
    });
    t.platform.events.subscribe({}, async () => {
      throw new Error('async boom');
    });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onSubscriberError).toHaveBeenCalled();
  });

  it('a consumer that falls too far behind gets an overflow error; the publisher is unaffected', async () => {
    const bus = new EventBus();
    const stream = bus.stream({}, { maxBuffered: 3 });
    for (let i = 0; i < 10; i++)
      bus.publish({ ...scope, type: 'prompt.text-delta', outputId: 'o', delta: String(i) });
    await expect(stream.next()).rejects.toBeInstanceOf(EventStreamOverflowError);
    expect((await stream.next()).done).toBe(true);
  });

  it('numbers events in publish order and stops delivering after return()', async () => {
    const bus = new EventBus();
    const stream = bus.stream({ conversationId: 'c1' });
    const other: TesseraEvent = {
      ...scope,
      conversationId: 'c2',
      type: 'prompt.text-delta',
      outputId: 'o',
      delta: 'x',
    };
    bus.publish(other);
    bus.publish({ ...scope, type: 'prompt.text-delta', outputId: 'o', delta: 'a' });
    bus.publish({ ...scope, type: 'prompt.text-delta', outputId: 'o', delta: 'b' });
    const first = await stream.next();
    const second = await stream.next();
    expect(first.value).toMatchObject({ delta: 'a', seq: 2 });
    expect(second.value).toMatchObject({ delta: 'b', seq: 3 });
    await stream.return?.();
    bus.publish({ ...scope, type: 'prompt.text-delta', outputId: 'o', delta: 'c' });
    expect((await stream.next()).done).toBe(true);
  });
});

/** Processes joined by a relay, in memory: each message reaches every other member, asynchronously. */
function relayHub() {
  const members = new Set<(message: RelayMessage) => void>();
  return {
    join(): EventRelay {
      let self: ((message: RelayMessage) => void) | undefined;
      return {
        publish: (message) => {
          // Through JSON, as between processes.
          const copy = JSON.parse(JSON.stringify(message)) as RelayMessage;
          for (const member of members) if (member !== self) queueMicrotask(() => member(copy));
        },
        subscribe: (handler) => {
          self = handler;
          members.add(handler);
          return () => members.delete(handler);
        },
      };
    },
  };
}

describe('a relay between processes that share a store', () => {
  it('tells the sender of a follow-up that another process ran it', async () => {
    const hub = relayHub();
    const store = new MemoryStore();
    const { plugin } = toolbox();
    const model = new ScriptedModel([
      callTool('demo.delete', { id: 'x' }),
      reply('Deleted.'),
      reply('Next.'),
    ]);
    const a = createPlatform({ plugins: [plugin], model, store, relay: hub.join() });
    const b = createPlatform({ plugins: [plugin], model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const paused = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'delete x' });
    const sent = await b.messages.send({
      conversationId: conversation.id,
      userId: 'u1',
      input: 'next',
      mode: 'queue',
    });
    await a.approve(paused.output[0]!.id, { userId: 'u1' }); // its end runs the follow-up, in a
    expect(await sent.delivery).toEqual({ type: 'prompt-elsewhere', promptId: sent.message.id });
  });

  it('shows every event of a prompt run in one process to subscribers in the other, once, in order', async () => {
    const hub = relayHub();
    const store = new MemoryStore();
    const model = new ScriptedModel([callTool('demo.echo', { text: 'a' }), reply(['Found ', 'a.'])]);
    const { plugin } = toolbox();
    const a = createPlatform({ plugins: [plugin], model, store, relay: hub.join() });
    const b = createPlatform({ plugins: [plugin], model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const seenIn = (platform: typeof a) => {
      const seen: string[] = [];
      platform.events.subscribe({ conversationId: conversation.id }, (e) => {
        seen.push(e.type === 'prompt.text-delta' ? `delta ${e.delta}` : e.type);
      });
      return seen;
    };
    const inA = seenIn(a);
    const inB = seenIn(b);
    const prompt = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'find a' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(prompt.state).toBe('completed');
    expect(inA).toEqual([
      'prompt.started',
      'prompt.output', // the read-only call, written once with its result
      'delta Found ',
      'delta a.',
      'prompt.output',
      'prompt.completed',
    ]);
    expect(inB).toEqual(inA);
  });

  it("keeps the other processes' events from a subscriber of this process's own ({ local: true })", async () => {
    const hub = relayHub();
    const store = new MemoryStore();
    const a = createPlatform({ model: new ScriptedModel([reply('Hi.')]), store, relay: hub.join() });
    const b = createPlatform({ model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const ended = (platform: typeof a, filter: { local?: boolean }) => {
      const seen: string[] = [];
      platform.events.subscribe(filter, (e) => {
        if (e.type === 'prompt.completed') seen.push(e.promptId);
      });
      return seen;
    };
    const [inA, inB] = [ended(a, {}), ended(b, {})];
    const [localInA, localInB] = [ended(a, { local: true }), ended(b, { local: true })];
    const prompt = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'hi' });
    await vi.waitFor(() => expect(inB).toEqual([prompt.id]));
    expect(inA).toEqual([prompt.id]);
    expect(localInA).toEqual([prompt.id]);
    expect(localInB).toEqual([]);
  });

  it('cancels from one process a prompt another process runs', async () => {
    const hub = relayHub();
    const store = new MemoryStore();
    const a = createPlatform({
      model: new ScriptedModel([reply('never', { delayMs: 5_000 })]),
      store,
      relay: hub.join(),
    });
    const b = createPlatform({ model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const run = await a.start({ conversationId: conversation.id, userId: 'u1', input: 'take your time' });
    const cancelled = await b.cancel(run.prompt.id, { userId: 'u1' });
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect((await run.done).state).toBe('cancelled');
    // Without a relay, the other process can only say so.
    const c = createPlatform({ model: new ScriptedModel([reply('slow', { delayMs: 200 })]), store });
    const second = await c.start({ conversationId: conversation.id, userId: 'u1', input: 'again' });
    const d = createPlatform({ model: new ScriptedModel(), store });
    await expect(d.cancel(second.prompt.id, { userId: 'u1' })).rejects.toMatchObject({ code: 'conflict' });
    await second.done;
  });
});

/**
 * Processes joined by a routed relay, in memory: each message reaches the other members that follow one of
 * its topics, once, asynchronously.
 */
function routedHub() {
  const members = new Map<(message: RelayMessage) => void, { index: number; topics: Set<RelayTopic> }>();
  const delivered: { member: number; message: RelayMessage }[] = [];
  let joined = 0;
  return {
    delivered,
    join(): EventRelay & { followed: Set<RelayTopic> } {
      const followed = new Set<RelayTopic>();
      const index = joined++;
      let self: ((message: RelayMessage) => void) | undefined;
      return {
        followed,
        publish: (message) => {
          const copy = JSON.parse(JSON.stringify(message)) as RelayMessage;
          for (const [member, { index: receiver, topics }] of members) {
            if (member === self || !relayTopics(copy).some((topic) => topics.has(topic))) continue;
            delivered.push({ member: receiver, message: copy });
            queueMicrotask(() => member(copy));
          }
        },
        subscribe: (handler) => {
          self = handler;
          members.set(handler, { index, topics: followed });
          return () => members.delete(handler);
        },
        routes: {
          add: (topic) => {
            followed.add(topic);
            return new Promise((resolve) => setTimeout(resolve, 5)); // subscribing takes a moment
          },
          delete: (topic) => followed.delete(topic),
        },
      };
    },
  };
}

describe('a routed relay', () => {
  it('routes an event to its conversation, and a change of state to its user too', () => {
    const started = { ...scope, type: 'prompt.started' } as TesseraEvent;
    const delta: TesseraEvent = { ...scope, type: 'prompt.text-delta', outputId: 'o', delta: 'a' };
    expect(relayTopics({ kind: 'event', event: started })).toEqual(['conversation:c1', 'user:u1']);
    expect(relayTopics({ kind: 'event', event: delta })).toEqual(['conversation:c1']);
    expect(relayTopics({ kind: 'cancel', promptId: 'p1', conversationId: 'c1' })).toEqual([
      'conversation:c1',
    ]);
  });

  it("gives a process another's events only for what it follows, counting interests", async () => {
    const hub = routedHub();
    const store = new MemoryStore();
    const a = createPlatform({
      model: new ScriptedModel([reply('One.'), reply('Two.')]),
      store,
      relay: hub.join(),
    });
    const bRelay = hub.join();
    const b = createPlatform({ model: new ScriptedModel(), store, relay: bRelay });
    const [followed, other] = await Promise.all([
      a.conversations.create({ userId: 'u1' }),
      a.conversations.create({ userId: 'u2' }),
    ]);
    const seen: string[] = [];
    b.events.subscribe({}, (e) => void seen.push(`${e.conversationId} ${e.type}`));
    const first = b.events.follow(`conversation:${followed.id}`);
    const second = b.events.follow(`conversation:${followed.id}`);
    let ready = false;
    void second.ready.then(() => (ready = true));
    await first.ready; // the relay's subscription is done: both interests share it
    await Promise.resolve();
    expect(ready).toBe(true);
    first();
    first(); // a second call of one release changes nothing
    expect([...bRelay.followed]).toEqual([`conversation:${followed.id}`]);
    await a.send({ conversationId: other.id, userId: 'u2', input: 'hi' });
    await a.send({ conversationId: followed.id, userId: 'u1', input: 'hi' });
    await vi.waitFor(() => expect(seen).toContain(`${followed.id} prompt.completed`));
    expect(seen.every((line) => line.startsWith(followed.id))).toBe(true);
    second();
    expect(bRelay.followed.size).toBe(0);
  });

  it("gives a user's follower their prompts' changes of state, not their content", async () => {
    const hub = routedHub();
    const store = new MemoryStore();
    const a = createPlatform({ model: new ScriptedModel([reply('Hi.')]), store, relay: hub.join() });
    const b = createPlatform({ model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const seen: string[] = [];
    b.events.subscribe({}, (e) => void seen.push(e.type));
    b.events.follow('user:u1');
    b.events.follow(`conversation:${conversation.id}`)(); // followed, then not
    await a.send({ conversationId: conversation.id, userId: 'u1', input: 'hi' });
    await vi.waitFor(() => expect(seen).toEqual(['prompt.started', 'prompt.completed']));
  });

  it('takes a cancel request to the process that runs the prompt, which follows its conversation meanwhile', async () => {
    const hub = routedHub();
    const store = new MemoryStore();
    const aRelay = hub.join();
    const a = createPlatform({
      model: new ScriptedModel([reply('never', { delayMs: 5_000 })]),
      store,
      relay: aRelay,
    });
    const b = createPlatform({ model: new ScriptedModel(), store, relay: hub.join() });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const run = await a.start({ conversationId: conversation.id, userId: 'u1', input: 'take your time' });
    expect([...aRelay.followed]).toEqual([`conversation:${conversation.id}`]);
    expect(await b.cancel(run.prompt.id, { userId: 'u1' })).toMatchObject({ state: 'cancelled' });
    expect((await run.done).state).toBe('cancelled');
    expect(hub.delivered.filter(({ message }) => message.kind === 'cancel')).toEqual([
      { member: 0, message: { kind: 'cancel', promptId: run.prompt.id, conversationId: conversation.id } },
    ]);
    // Its run over, the runner follows nothing.
    await vi.waitFor(() => expect(aRelay.followed.size).toBe(0));
  });
});
