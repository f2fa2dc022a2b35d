import { createPlatform, createTool, definePlugin, type QueuedMessage } from '@tessera/core';
import {
  callTool,
  reply,
  ScriptedModel,
  sampleConversation,
  samplePrompt,
  sampleTime,
} from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import type { PostgresStore } from '../src/index.ts';
import { describeEachDriver } from './support/each-driver.ts';

// The periodic recovery asks every few seconds which conversations have waiting messages; one whose prompt
// waits for an approval (for ever, maybe) is not among them, and its messages still run once that prompt ends.

const message = (conversationId: string, userId: string): QueuedMessage => ({
  id: `msg_${conversationId}`,
  conversationId,
  userId,
  mode: 'queue',
  input: 'and then',
  createdAt: sampleTime(2),
});

const deploy = definePlugin({
  id: 'deploy',
  tools: [
    createTool({
      id: 'deploy.run',
      description: 'Deploys.',
      input: z.object({}),
      requireApproval: { required: true, reason: 'Deploys to production.' },
      invoke: () => 'deployed',
    }),
  ],
});

describeEachDriver('conversations with waiting messages', (open) => {
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const opened = async (schema?: string) => {
    const store = await open(schema ? { schema } : {});
    stores.push(store);
    return store;
  };

  it('leave out those whose prompt runs or waits for approval', async () => {
    const store = await opened();
    const conversation = sampleConversation();
    await store.conversations.create(conversation);
    const prompt = samplePrompt(conversation, { state: 'waiting_for_approval' });
    await store.prompts.create(prompt);
    await store.messages.add(message(conversation.id, conversation.userId));
    expect(await store.messages.conversationsWithMessages()).toEqual([]);
    await store.prompts.update(prompt.id, { state: 'completed' });
    expect(await store.messages.conversationsWithMessages()).toEqual([conversation.id]);
  });

  it('a message waiting behind an approval runs once the approved prompt ends, after a restart too', async () => {
    const first = await opened();
    const model = new ScriptedModel([callTool('deploy.run'), reply('Deployed.'), reply('Then done.')]);
    const before = createPlatform({ store: first, plugins: [deploy], model });
    const { id } = await before.conversations.create({ userId: 'ada' });
    const waiting = await before.send({ conversationId: id, userId: 'ada', input: 'deploy' });
    expect(waiting.state).toBe('waiting_for_approval');
    await before.messages.send({ conversationId: id, userId: 'ada', input: 'and then', mode: 'queue' });
    // A restart: a new process over the same schema knows nothing of the message.
    const second = await opened(first.schema);
    const after = createPlatform({ store: second, plugins: [deploy], model });
    expect(await after.recover()).toEqual([]);
    const call = waiting.output.find((o) => o.type === 'tool')!;
    expect((await after.approve(call.id, { userId: 'ada' })).state).toBe('completed');
    await expect
      .poll(async () => (await second.prompts.listByConversation(id)).map((p) => [p.input, p.state]), {
        timeout: 10_000,
      })
      .toEqual([
        ['deploy', 'completed'],
        ['and then', 'completed'],
      ]);
  });
});
