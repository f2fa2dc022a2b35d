import { NotFoundError } from '@tessera/core';
import { callTool, outputsOf, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { agentRunOutput } from '../src/index.ts';
import { setup } from './helpers.ts';

const helper = { name: 'helper', description: 'Helps.', instructions: 'Help.', tools: ['agent.helper'] };

const exists = (t: Awaited<ReturnType<typeof setup>>, conversationId: string) =>
  t.platform.conversations.get(conversationId, t.userId).then(
    () => true,
    (error: unknown) => {
      if (NotFoundError.is(error)) return false;
      throw error;
    },
  );

describe('deleting a conversation', () => {
  it('deletes the child conversations of its agents, at every depth', async () => {
    const t = await setup({
      agents: [helper],
      script: {
        parent: [callTool('agent.helper', { task: 'Help.' }), reply('Helped.')],
        helper: [callTool('agent.helper', { task: 'Help more.' }), reply('Deeper.'), reply('Helped.')],
      },
    });
    const prompt = await t.send('Help me.');
    const [run] = outputsOf(prompt, agentRunOutput);
    const [middle] = await t.platform.conversations.prompts(run!.conversationId, t.userId);
    const [deeper] = outputsOf(middle!, agentRunOutput);
    expect(await exists(t, deeper!.conversationId)).toBe(true);

    expect(await t.platform.store.records.get('agents', `runs:${t.userId}:${prompt.id}`)).toMatchObject({
      value: { runs: 2 },
    });

    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await exists(t, run!.conversationId)).toBe(false);
    expect(await exists(t, deeper!.conversationId)).toBe(false);
    // The count of runs under the user's prompt goes with it.
    expect(await t.platform.store.records.get('agents', `runs:${t.userId}:${prompt.id}`)).toBeUndefined();
  });

  it('deletes the child of an agent that forked the conversation', async () => {
    const t = await setup({
      agents: [{ ...helper, tools: [], history: 'fork' }],
      script: {
        parent: [reply('Hi.'), callTool('agent.helper', { task: 'Help.' }), reply('Helped.')],
        helper: [reply('Helped.')],
      },
    });
    await t.send('Hello.');
    const prompt = await t.send('Help me.');
    const [run] = outputsOf(prompt, agentRunOutput);
    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await exists(t, run!.conversationId)).toBe(false);
  });

  it('keeps a child that a fork the user made still links to, through the prompt it shares', async () => {
    const t = await setup({
      agents: [{ ...helper, tools: [] }],
      script: {
        parent: [callTool('agent.helper', { task: 'Help.' }), reply('Helped.'), reply('Later.')],
        helper: [reply('Helped.')],
      },
    });
    const prompt = await t.send('Help me.');
    const later = await t.send('Later.');
    const [run] = outputsOf(prompt, agentRunOutput);
    await t.platform.conversations.fork(t.conversation.id, t.userId, { promptId: later.id });

    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await exists(t, run!.conversationId)).toBe(true);
  });
});
