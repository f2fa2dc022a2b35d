import type { Prompt, QueuedMessage } from '@tessera/core';
import { callTool, reply } from '@tessera/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';
import { lazy, uniqueSchema, useServerDatabase } from './support/databases.ts';
import { WorkerProcess } from './support/worker-process.ts';

const userId = 'user_messages';

/** Polls the store (not the clock) until the conversation's prompts have all ended and number `count`. */
async function endedPrompts(store: PostgresStore, conversationId: string, count: number) {
  return vi.waitFor(
    async () => {
      const prompts = (await store.prompts.listByConversation(conversationId)) as Prompt[];
      expect(prompts.map((p) => p.state)).toEqual(Array.from({ length: count }, () => 'completed'));
      return prompts;
    },
    { timeout: 30_000, interval: 100 },
  );
}

describe('steering and follow-up messages on one PostgreSQL database shared by processes', () => {
  const database = useServerDatabase();
  const opened: { workers: WorkerProcess[]; store?: PostgresStore } = { workers: [] };
  const shared = lazy(async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    opened.store = await createPostgresStore({ connectionString: database.url, schema: target.schema });
    return { target, store: opened.store };
  });
  const worker = async () => {
    const started = await WorkerProcess.start((await shared()).target);
    opened.workers.push(started);
    return started;
  };
  afterAll(async () => {
    await Promise.all(opened.workers.map((w) => w.close()));
    await opened.store?.close();
  });

  it('runs follow-ups queued from two processes as the next prompts, in the order they were sent', async () => {
    const { store } = await shared();
    const [a, b] = [await worker(), await worker()];
    const conversation = await a.call<{ id: string }>('createConversation', { userId });
    // Whichever process starts a follow-up answers it; the first answer is slow so the others wait.
    const answers = [reply('First.', { delayMs: 1_500 }), reply('Next.'), reply('Next.'), reply('Next.')];
    await Promise.all([a.call('script', { turns: answers }), b.call('script', { turns: answers })]);
    await a.call('start', { conversationId: conversation.id, userId, input: 'go' });

    const sent: QueuedMessage[] = [];
    for (const [from, input] of [
      [b, 'one'],
      [a, 'two'],
      [b, 'three'],
    ] as const) {
      sent.push(
        await from.call<QueuedMessage>('message', {
          conversationId: conversation.id,
          userId,
          input,
          mode: 'queue',
        }),
      );
    }
    // While the first prompt runs, both processes see the same waiting list.
    expect((await store.messages.list(conversation.id)).map((m) => m.input)).toEqual(['one', 'two', 'three']);

    const prompts = await endedPrompts(store, conversation.id, 4);
    expect(prompts.map((p) => p.input)).toEqual(['go', 'one', 'two', 'three']);
    expect(prompts.slice(1).map((p) => p.id)).toEqual(sent.map((m) => m.id));
    expect(await store.messages.list(conversation.id)).toEqual([]);
  });

  it('keeps a queued message through a killed process and delivers it after the restart', async () => {
    const { store } = await shared();
    const doomed = await worker();
    const conversation = await doomed.call<{ id: string }>('createConversation', { userId });
    await doomed.call('script', { turns: [callTool('ops.hang')] });
    const promptId = await doomed.call<string>('start', {
      conversationId: conversation.id,
      userId,
      input: 'go',
    });
    await doomed.waitFor('tool-started');
    const queued = await doomed.call<QueuedMessage>('message', {
      conversationId: conversation.id,
      userId,
      input: 'after the restart',
      mode: 'queue',
    });
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    expect(await store.messages.list(conversation.id)).toEqual([queued]);

    const restarted = await worker();
    await restarted.call('script', { turns: [reply('Recovered.'), reply('Delivered.')] });
    await restarted.call('recover');
    const prompts = await endedPrompts(store, conversation.id, 2);
    expect(prompts.map((p) => [p.id, p.input])).toEqual([
      [promptId, 'go'],
      [queued.id, 'after the restart'],
    ]);
    expect(await store.messages.list(conversation.id)).toEqual([]);
  });

  it('takes a message off the list in exactly one of two stores removing it at once', async () => {
    const { store, target } = await shared();
    const other = await createPostgresStore({ connectionString: database.url, schema: target.schema });
    try {
      const conversation = { id: `cnv_${Date.now()}`, userId, promptIds: [], pluginState: {} };
      const now = new Date().toISOString();
      await store.conversations.create({ ...conversation, createdAt: now, updatedAt: now });
      const message: QueuedMessage = {
        id: `msg_${Date.now()}`,
        conversationId: conversation.id,
        userId,
        mode: 'steer',
        input: 'once',
        createdAt: now,
      };
      await other.messages.add(message);
      expect(await store.messages.list(conversation.id)).toEqual([message]);
      const removed = await Promise.all(
        [store, other].map((s) => s.messages.remove(conversation.id, [message.id])),
      );
      expect(removed.flat()).toEqual([message.id]);
    } finally {
      await other.close();
    }
  });
});
