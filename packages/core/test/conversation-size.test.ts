import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConversationFullError,
  createTool,
  definePlugin,
  NotFoundError,
  type Prompt,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

/**
 * Each prompt's record is a little over 10,000 characters: with a fourth's input, three of them are past
 * 35,000; two, with a third's, are not.
 */
const long = (n: number) => `${n} ${'x'.repeat(10_000)}`;
const BOUND = { maxConversationChars: 35_000 };
/**
 * Room for one `long` prompt as it starts, not for the record it leaves (its answer, ~400 characters, too):
 * the length of such a record, measured, less 100.
 */
const ONE_PROMPT = await (async () => {
  const probe = await createTestPlatform({ script: [reply('ok')] });
  return JSON.stringify(await probe.send(long(1))).length - 100;
})();

const promptsOf = (t: Awaited<ReturnType<typeof createTestPlatform>>) =>
  t.platform.conversations.prompts(t.conversation.id, t.userId);

describe("a conversation's size is bounded (maxConversationChars)", () => {
  it('a prompt over a full history ends at once, its input kept; later sends are refused before anything is written', async () => {
    const t = await createTestPlatform({ ...BOUND, script: Array.from({ length: 5 }, () => reply('ok')) });
    for (const n of [1, 2, 3]) expect((await t.send(long(n))).state).toBe('completed');
    const full = await t.send(long(4));
    expect(full).toMatchObject({
      state: 'failed',
      input: long(4),
      stopReason: { code: 'conversation_full' },
    });
    expect(full.stopReason?.message).toMatch(
      /maximum length \(35,000 characters of record\): start a new conversation/,
    );
    expect(t.model.requests).toHaveLength(3); // the model never read the full history

    await expect(t.send(long(5))).rejects.toBeInstanceOf(ConversationFullError);
    await expect(
      t.platform.messages.send({
        conversationId: t.conversation.id,
        userId: t.userId,
        input: 'hi',
        mode: 'queue',
      }),
    ).rejects.toBeInstanceOf(ConversationFullError);
    expect(await promptsOf(t)).toHaveLength(4); // nothing written for either
    expect(await t.platform.store.messages!.list(t.conversation.id)).toEqual([]);
  });

  it("another user's send to a full conversation learns nothing of it (not found, as before)", async () => {
    const t = await createTestPlatform({ maxConversationChars: ONE_PROMPT, script: [reply('ok')] });
    await t.send(long(1));
    expect((await t.send(long(2))).stopReason?.code).toBe('conversation_full');
    await expect(t.send('again')).rejects.toBeInstanceOf(ConversationFullError);
    const send = t.platform.send({ conversationId: t.conversation.id, userId: 'mallory', input: 'hi' });
    await expect(send).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a process that has not seen it full lets one prompt in, which ends at once; then it refuses too', async () => {
    const t = await createTestPlatform({ maxConversationChars: ONE_PROMPT, script: [reply('ok')] });
    await t.send(long(1));
    // Another process over the same store: it knows nothing of this conversation yet.
    const other = await createTestPlatform({
      maxConversationChars: ONE_PROMPT,
      store: t.platform.store,
      script: [],
    });
    const send = (input: string) =>
      other.platform.send({ conversationId: t.conversation.id, userId: t.userId, input });
    expect((await send('first')).stopReason?.code).toBe('conversation_full');
    await expect(send('second')).rejects.toBeInstanceOf(ConversationFullError);
    expect((await promptsOf(t)).map((p: Prompt) => p.state)).toEqual(['completed', 'failed']);
    expect(other.model.requests).toHaveLength(0);
  });

  it('a message queued before the conversation was found full is not dropped: its prompt ends at once, its input kept', async () => {
    const t = await createTestPlatform({
      ...BOUND,
      script: [reply('ok'), reply('ok'), { text: 'ok', delayMs: 100 }],
    });
    await t.send(long(1));
    await t.send(long(2));
    const at = { conversationId: t.conversation.id, userId: t.userId };
    const third = await t.platform.start({ ...at, input: long(3) });
    const queued = await t.platform.messages.send({ ...at, input: long(4), mode: 'queue' });
    expect((await third.done).state).toBe('completed');
    const delivery = await queued.delivery;
    if (delivery.type !== 'prompt') throw new Error(`delivered as ${delivery.type}`);
    expect(await delivery.run.done).toMatchObject({
      id: queued.message.id,
      input: long(4),
      state: 'failed',
      stopReason: { code: 'conversation_full' },
    });
    expect(t.model.requests).toHaveLength(3);
  });

  it('a call given with a prompt over a full history does not run: it gets a result saying why', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      maxConversationChars: ONE_PROMPT,
      script: [reply('ok')],
    });
    await t.send(long(1));
    const call = { type: 'tool' as const, callId: 'run_1', toolId: 'demo.echo', input: { text: 'hi' } };
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      outputs: [call],
    });
    const ended = await run.done;
    expect(ended).toMatchObject({ state: 'failed', stopReason: { code: 'conversation_full' } });
    expect(ran).toEqual([]);
    expect(ended.output).toEqual([
      expect.objectContaining({
        type: 'tool',
        toolId: 'demo.echo',
        result: expect.objectContaining({ type: 'error' }),
      }),
    ]);
  });

  it("a prompt's own record counts too: no model call nor tool call starts once it passes the bound", async () => {
    const reader = definePlugin({
      id: 'web',
      tools: [
        createTool({
          id: 'web.read',
          description: 'Reads a page.',
          input: z.object({ page: z.number() }),
          readOnly: true,
          invoke: ({ input }) => `${input.page} ${'p'.repeat(10_000)}`,
        }),
      ],
    });
    // One call at a time: three results fit, the fourth passes the bound; no fifth model call is made.
    const t = await createTestPlatform({
      ...BOUND,
      plugins: [reader],
      script: Array.from({ length: 10 }, (_, page) => callTool('web.read', { page })),
    });
    const stopped = await t.send('read them all');
    expect(stopped).toMatchObject({ state: 'failed', stopReason: { code: 'conversation_full' } });
    expect(t.model.requests).toHaveLength(4);
    // Ten at once (read-only, so they run together, eight at a time): the calls not started when it passed
    // the bound get a result saying they did not run.
    const calls = Array.from({ length: 10 }, (_, page) => ({ name: 'web.read', args: { page } }));
    const u = await createTestPlatform({
      ...BOUND,
      plugins: [reader],
      script: [callTools(...calls), reply('Read.')],
    });
    const parallel = await u.send('read them at once');
    expect(parallel.stopReason?.code).toBe('conversation_full');
    const results = parallel.output
      .filter((o) => o.type === 'tool')
      .map((o) => (o as ToolOutput).result?.type);
    expect(results).toHaveLength(10);
    expect(results.filter((type) => type === 'success').length).toBeLessThan(10);
    expect(u.model.requests).toHaveLength(1);
  });

  it('a fork before the size was reached goes on', async () => {
    const t = await createTestPlatform({ ...BOUND, script: Array.from({ length: 4 }, () => reply('ok')) });
    for (const n of [1, 2, 3]) await t.send(long(n));
    await t.send(long(4)); // ends at once: full
    const [first] = await promptsOf(t);
    const fork = await t.platform.conversations.fork(t.conversation.id, t.userId, { promptId: first!.id });
    const next = await t.platform.send({ conversationId: fork.id, userId: t.userId, input: 'on from here' });
    expect(next.state).toBe('completed');
  });

  it('without the option, a conversation holds up to DEFAULT_MAX_CONVERSATION_CHARS', async () => {
    const t = await createTestPlatform({ script: [reply('ok'), reply('ok')] });
    await t.send('x'.repeat(100_000));
    expect((await t.send('y')).state).toBe('completed');
  });
});
