import { callTool, createTestPlatform, reply, scriptedModel } from '@tessera/testing';
import { describe, expect, it, vi } from 'vitest';
import {
  type AnyPlugin,
  ConversationBusyError,
  createPlatform,
  definePlugin,
  MAX_WAITING_MESSAGES,
  MemoryStore,
  NotFoundError,
  type Platform,
  type Prompt,
  TesseraError,
  type TesseraEvent,
} from '../src/index.ts';
import { gate, toolbox } from './helpers.ts';

/** Resolves with the prompt once it ends (completed, failed or cancelled). */
const ended = (t: { platform: Platform }, promptId: string) =>
  new Promise<Prompt>((resolve) => {
    const stop = t.platform.events.subscribe({ promptId }, (event) => {
      if (
        event.type === 'prompt.completed' ||
        event.type === 'prompt.failed' ||
        event.type === 'prompt.cancelled'
      ) {
        stop();
        resolve(event.prompt);
      }
    });
  });

/**
 * A prompt that calls the gate tool, and a steering message sent while the tool waits; `next` resolves with
 * the message's own prompt once it ends (when it runs as the next prompt).
 */
async function steerWhileGated(plugins: AnyPlugin[], text: string) {
  const { plugin, inside, open } = gate();
  const t = await createTestPlatform({
    plugins: [plugin, ...plugins],
    script: [callTool('gate.wait'), reply('answered')],
  });
  const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
  await inside;
  const steer = await t.platform.messages.send({
    conversationId: t.conversation.id,
    userId: t.userId,
    input: text,
    mode: 'steer',
  });
  return { t, run, open, next: ended(t, steer.message.id) };
}

const steered = (prompt: Prompt) => prompt.output.some((o) => o.type === 'steering');

describe('steering and follow-ups', () => {
  it('steer: recorded and read by the model at the next round boundary, never between a call and its result', async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('gate.wait'), reply('Adjusted.')],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (e) => {
      events.push(e);
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    const sent = await t.platform.messages.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Use metric units.',
      mode: 'steer',
    });
    expect(sent.run).toBeUndefined();
    expect(await t.platform.messages.list(t.conversation.id, t.userId)).toEqual([sent.message]);
    open();
    const prompt = await run.done;
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'steering', 'text']);
    expect(prompt.output[1]).toMatchObject({ text: 'Use metric units.', messageId: sent.message.id });
    const messages = t.model.requests[1]!.messages;
    expect(messages.at(-1)).toEqual({ type: 'message', role: 'user', content: 'Use metric units.' });
    expect(messages.at(-2)?.type).toBe('function_call_output');
    expect(await t.platform.messages.list(t.conversation.id, t.userId)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['message.queued', 'prompt.steered']));
  });

  it('queue: follow-ups run in order as the next prompts once the current one ends; one can be removed', async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('gate.wait'), reply('first'), reply('third')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    const send = (input: string) =>
      t.platform.messages.send({ conversationId: t.conversation.id, userId: t.userId, input, mode: 'queue' });
    const second = await send('second');
    const third = await send('third');
    await t.platform.messages.remove(second.message.id, {
      userId: t.userId,
      conversationId: t.conversation.id,
    });
    await expect(
      t.platform.messages.remove(second.message.id, { userId: t.userId, conversationId: t.conversation.id }),
    ).rejects.toSatisfy((e) => NotFoundError.is(e));
    const thirdDone = ended(t, third.message.id);
    open();
    await run.done;
    const prompt = await thirdDone;
    expect(prompt).toMatchObject({ id: third.message.id, input: 'third', state: 'completed' });
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(prompts.map((p) => p.input)).toEqual(['go', 'third']);
  });

  it(`a conversation keeps at most MAX_WAITING_MESSAGES (${MAX_WAITING_MESSAGES}) waiting messages; past it, too_many_messages`, async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({ plugins: [plugin], script: [callTool('gate.wait'), reply('done')] });
    const at = { conversationId: t.conversation.id, userId: t.userId };
    const run = await t.platform.start({ ...at, input: 'go' });
    await inside;
    for (let i = 0; i < MAX_WAITING_MESSAGES; i++) {
      await t.platform.messages.send({ ...at, input: `m${i}`, mode: i % 2 ? 'queue' : 'steer' });
    }
    const over = await t.platform.messages.send({ ...at, input: 'one more', mode: 'queue' }).catch((e) => e);
    expect(TesseraError.is(over) && over.code).toBe('too_many_messages');
    expect(await t.platform.messages.list(at.conversationId, at.userId)).toHaveLength(MAX_WAITING_MESSAGES);
    // Sent at the same moment, they all pass the first count: never more than the bound are kept.
    const waiting = await t.platform.messages.list(at.conversationId, at.userId);
    await t.platform.messages.remove(waiting[0]!.id, at);
    const racing = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        t.platform.messages.send({ ...at, input: `r${i}`, mode: 'queue' }),
      ),
    );
    expect(racing.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    expect((await t.platform.messages.list(at.conversationId, at.userId)).length).toBeLessThanOrEqual(
      MAX_WAITING_MESSAGES,
    );
    open();
    await run.done;
  });

  it("a follow-up runs on the sender's model class, with the sender's metadata; a wrong class is refused", async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('gate.wait'), reply('first'), reply('second')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    const options = { conversationId: t.conversation.id, userId: t.userId, mode: 'queue' as const };
    const sent = await t.platform.messages.send({
      ...options,
      input: 'later',
      model: 'high',
      metadata: { timeZone: 'Europe/Paris' },
    });
    expect(sent.message).toMatchObject({ model: 'high', metadata: { timeZone: 'Europe/Paris' } });
    await expect(
      t.platform.messages.send({ ...options, input: 'x', model: 'huge' as 'high' }),
    ).rejects.toThrow(/model class/);
    const later = ended(t, sent.message.id);
    open();
    await run.done;
    expect(await later).toMatchObject({
      input: 'later',
      model: 'high',
      metadata: { timeZone: 'Europe/Paris' },
      state: 'completed',
    });
  });

  it('on an idle conversation a message runs at once, as a prompt with its id', async () => {
    const t = await createTestPlatform({ script: [reply('hi')] });
    const sent = await t.message('hello', 'queue');
    expect(sent.run?.prompt.id).toBe(sent.message.id);
    expect((await sent.run!.done).state).toBe('completed');
    expect(await t.platform.messages.list(t.conversation.id, t.userId)).toEqual([]);
  });

  it('cancel leaves the waiting messages: they run next, in order, nothing dropped', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'x' }), reply('after cancel')],
    });
    const paused = await t.send('delete');
    expect(paused.state).toBe('waiting_for_approval');
    const steer = await t.platform.messages.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'actually, keep it',
      mode: 'steer',
    });
    const next = ended(t, steer.message.id);
    await t.platform.cancel(paused.id, { userId: t.userId });
    const prompt = await next;
    expect(prompt).toMatchObject({ input: 'actually, keep it', state: 'completed' });
    // Run as its own prompt, not delivered a second time as steering.
    expect(prompt.output.map((o) => o.type)).toEqual(['text']);
  });

  it('a steering message sent as the prompt is cancelled is never lost: it runs as the next prompt', async () => {
    const { t, run, next } = await steerWhileGated([], 'use the other file');
    await t.platform.cancel(run.prompt.id, { userId: t.userId });
    const cancelled = await run.done;
    expect(cancelled.state).toBe('cancelled');
    // Not recorded in the cancelled prompt after the abort, where no model would read it ...
    expect(cancelled.output.map((o) => o.type)).toEqual(['tool']);
    // ... but run as the next prompt, and read by the model there once.
    expect(await next).toMatchObject({ input: 'use the other file', state: 'completed' });
    const read = t.model.requests
      .at(-1)!
      .messages.filter((m) => m.type === 'message' && m.content === 'use the other file');
    expect(read).toHaveLength(1);
  });

  it('a steering message recorded but not yet read when the prompt ends goes back to waiting', async () => {
    // A plugin stops the prompt at the boundary where the steering message was just recorded.
    const stopper = definePlugin({
      id: 'stopper',
      hooks: { betweenRounds: ({ prompt }) => (steered(prompt) ? { stop: 'enough' } : undefined) },
    });
    const { run, open, next } = await steerWhileGated([stopper], 'and then this');
    open();
    const stopped = await run.done;
    expect(stopped.stopReason?.code).toBe('stopped_by_plugin');
    expect(steered(stopped)).toBe(false);
    expect(await next).toMatchObject({ input: 'and then this', state: 'completed' });
  });

  it('a steering message recorded before a pause, then cancelled while waiting, runs as the next prompt', async () => {
    const pauser = definePlugin({
      id: 'pauser',
      hooks: { betweenRounds: ({ prompt }) => (steered(prompt) ? { pause: 'Check first.' } : undefined) },
    });
    const { t, run, open, next } = await steerWhileGated([pauser], 'then do this');
    open();
    expect((await run.done).state).toBe('waiting_for_approval');
    const cancelled = await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect(steered(cancelled)).toBe(false);
    expect(await next).toMatchObject({ input: 'then do this', state: 'completed' });
  });

  it('a waiting message survives a restart: recover() runs it on a new platform over the same store', async () => {
    const store = new MemoryStore();
    const first = createPlatform({ store, model: scriptedModel([]) });
    const conversation = await first.conversations.create({ userId: 'u' });
    // A message added to the store while a prompt of the first process was active, which then died.
    await store.messages.add({
      id: 'msg_left',
      conversationId: conversation.id,
      userId: 'u',
      mode: 'queue',
      input: 'still here',
      createdAt: new Date().toISOString(),
    });
    const second = createPlatform({ store, model: scriptedModel([reply('yes')]) });
    const runs = await second.recover();
    expect(runs.map((r) => r.prompt.id)).toEqual(['msg_left']);
    expect((await runs[0]!.done).state).toBe('completed');
    expect(await store.messages.list(conversation.id)).toEqual([]);
  });
});

describe('knowing that no message waits', () => {
  const queued = (conversationId: string, id: string) => ({
    id,
    conversationId,
    userId: 'u',
    mode: 'queue' as const,
    input: `${id} text`,
    createdAt: new Date().toISOString(),
  });

  it("a prompt's end reads the waiting messages only when one may wait; every message still runs", async () => {
    const store = new MemoryStore();
    const list = vi.spyOn(store.messages, 'list');
    const { plugin, inside, open } = gate();
    const platform = createPlatform({
      store,
      plugins: [plugin],
      model: scriptedModel([
        reply('one'),
        callTool('gate.wait'),
        reply('two'),
        reply('a'),
        reply('b'),
        reply('three'),
        reply('four'),
      ]),
    });
    const conversation = await platform.conversations.create({ userId: 'u' });
    const send = (input: string) => platform.send({ conversationId: conversation.id, userId: 'u', input });
    expect((await send('first')).state).toBe('completed');
    // Nothing was sent: neither the round boundaries nor the end asked the store.
    expect(list).not.toHaveBeenCalled();

    const run = await platform.start({ conversationId: conversation.id, userId: 'u', input: 'second' });
    await inside;
    const follow = (input: string) =>
      platform.messages.send({ conversationId: conversation.id, userId: 'u', input, mode: 'queue' });
    const [a, b] = [await follow('a'), await follow('b')];
    const both = Promise.all([a, b].map(({ message }) => ended({ platform }, message.id)));
    open();
    expect((await run.done).state).toBe('completed');
    expect((await both).map((p) => [p.input, p.state])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
    ]);
    expect(await store.messages.list(conversation.id)).toEqual([]);
    // Once they ran (the end of the last one started from a message looks once more, and finds none), a
    // prompt's end asks no more.
    expect((await send('third')).state).toBe('completed');
    list.mockClear();
    expect((await send('fourth')).state).toBe('completed');
    expect(list).not.toHaveBeenCalled();
  });

  it('a message another process stored without a notification reaching here runs at the next periodic recovery', async () => {
    const store = new MemoryStore();
    const { plugin, inside, open } = gate();
    const platform = createPlatform({
      store,
      plugins: [plugin],
      recoverEveryMs: 20,
      model: scriptedModel([callTool('gate.wait'), reply('done'), reply('late one')]),
    });
    const conversation = await platform.conversations.create({ userId: 'u' });
    await platform.open();
    const run = await platform.start({ conversationId: conversation.id, userId: 'u', input: 'go' });
    await inside;
    // Another process's send while this prompt runs: stored, and its notification lost.
    await store.messages.add(queued(conversation.id, 'msg_elsewhere'));
    const late = ended({ platform }, 'msg_elsewhere');
    open();
    expect((await run.done).state).toBe('completed');
    expect(await late).toMatchObject({ input: 'msg_elsewhere text', state: 'completed' });
    await platform.close();
  });
  it('a message refused as busy runs once the prompt holding the conversation ends, even when the refusal comes after that end', async () => {
    const memory = new MemoryStore();
    // The interleaving a loaded machine produced: the store refuses the message's prompt as busy, the prompt
    // that held the conversation ends (and looks for messages), and only then does the refusal arrive.
    let heldEnded: Promise<unknown> = Promise.resolve();
    // Either way of creating a prompt (`createWithHistory` is what the platform uses when the store has it).
    const prompts = new Proxy(memory.prompts, {
      get: (target, key) =>
        key === 'create' || key === 'createWithHistory'
          ? async (...args: Parameters<typeof target.create>) => {
              try {
                return await target[key]!(...args);
              } catch (error) {
                if (ConversationBusyError.is(error)) {
                  await heldEnded;
                  await new Promise((resolve) => setTimeout(resolve, 0));
                }
                throw error;
              }
            }
          : Reflect.get(target, key),
    });
    const store = new Proxy(memory, {
      get: (target, key) => (key === 'prompts' ? prompts : Reflect.get(target, key)),
    });
    const { plugin, inside, open } = gate();
    const platform = createPlatform({
      store,
      plugins: [plugin],
      model: scriptedModel([callTool('gate.wait'), reply('done'), reply('the message, answered')]),
    });
    const conversation = await platform.conversations.create({ userId: 'u' });
    const run = await platform.start({ conversationId: conversation.id, userId: 'u', input: 'go' });
    await inside;
    // Left by a process that died: stored, never announced here.
    await memory.messages.add(queued(conversation.id, 'msg_left'));
    heldEnded = ended({ platform }, run.prompt.id);
    const late = ended({ platform }, 'msg_left');
    const recovered = platform.recover();
    open();
    expect((await run.done).state).toBe('completed');
    await recovered;
    expect(await late).toMatchObject({ input: 'msg_left text', state: 'completed' });
    expect(await memory.messages.list(conversation.id)).toEqual([]);
  });
});

describe("a sent message's delivery", () => {
  it('a follow-up: resolves with its run once it starts as its own prompt', async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('gate.wait'), reply('first'), reply('second')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    const sent = await t.message('later', 'queue');
    expect(sent.run).toBeUndefined(); // busy: it waits
    open();
    const delivery = await sent.delivery;
    if (delivery.type !== 'prompt') throw new Error(`Delivered as ${delivery.type}`);
    expect(delivery.run.prompt.id).toBe(sent.message.id);
    expect(await delivery.run.done).toMatchObject({ input: 'later', state: 'completed' });
    expect((await run.done).state).toBe('completed');
  });

  it('steering: resolves with the prompt that read it; on an idle conversation, with the run it started', async () => {
    const { plugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('gate.wait'), reply('steered'), reply('idle')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    const steer = await t.message('shorter, please', 'steer');
    open();
    expect(await steer.delivery).toEqual({ type: 'steering', promptId: run.prompt.id });
    await run.done;
    const idle = await t.message('and now?', 'steer');
    expect(await idle.delivery).toEqual({ type: 'prompt', run: idle.run });
  });

  it('settles when the message is removed, its conversation deleted, or the platform closes first', async () => {
    // A prompt waiting for approval keeps the conversation busy, and no loop runs to start a follow-up.
    const waiting = async () => {
      const t = await createTestPlatform({
        plugins: [toolbox().plugin],
        script: [callTool('demo.delete', { id: 'x' })],
      });
      await t.send('delete x');
      return t;
    };
    const t = await waiting();
    const removed = await t.message('one', 'queue');
    const closed = await t.message('two', 'queue');
    await t.platform.messages.remove(removed.message.id, {
      userId: t.userId,
      conversationId: t.conversation.id,
    });
    expect(await removed.delivery).toEqual({ type: 'removed' });
    await t.platform.close();
    expect(await closed.delivery).toEqual({ type: 'closed' });

    const other = await waiting();
    const deleted = await other.message('three', 'queue');
    await other.platform.conversations.delete(other.conversation.id, other.userId);
    expect(await deleted.delivery).toEqual({ type: 'removed' });
  });
});

describe('steering and guardrails', () => {
  it('a steering message passes the input guardrails: a trip ends the prompt before the model reads it', async () => {
    const { plugin, inside, open } = gate();
    const guard = definePlugin({
      id: 'pii',
      guardrails: {
        input: ({ input }) => (input?.includes('SSN') ? { trip: 'No social security numbers.' } : undefined),
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, guard],
      script: [callTool('gate.wait'), reply('never')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    await t.platform.messages.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'my SSN is 1',
      mode: 'steer',
    });
    open();
    const prompt = await run.done;
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({ code: 'guardrail', message: 'No social security numbers.' });
    expect(t.model.requests).toHaveLength(1);
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'steering', 'guardrail']); // recorded, never sent
  });
});
