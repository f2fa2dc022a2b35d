import { createTool, type Prompt } from '@tessera/core';
import { callTool, outputsOf, pendingCall, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentRun, agentRunOutput } from '../src/index.ts';
import { approvedWork } from './durable.ts';
import { ended, latch, requestsOf, setup } from './helpers.ts';

const worker = {
  name: 'worker',
  description: 'Does the work.',
  instructions: 'Do the work with your tool, then report.',
  tools: ['work.do'],
};

/** The first prompt of another conversation than the parent's that asks for approval. */
function childWaiting(t: Awaited<ReturnType<typeof setup>>): Promise<string> {
  return new Promise((resolve) => {
    const unsubscribe = t.platform.events.subscribe({ userId: t.userId }, (event) => {
      if (event.type === 'prompt.approval-requested' && event.conversationId !== t.conversation.id) {
        unsubscribe();
        resolve(event.promptId);
      }
    });
  });
}

describe('cancelling', () => {
  it('cancels the child when the parent is cancelled', async () => {
    const running = latch<string>();
    const work = createTool({
      id: 'work.do',
      description: 'Works until stopped.',
      input: z.object({}),
      invoke: ({ promptId, signal }) =>
        new Promise((_, reject) => {
          running.resolve(promptId);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const t = await setup({
      agents: [worker],
      tools: [work],
      script: { parent: [callTool('agent.worker', { task: 'Work.' })], worker: [callTool('work.do')] },
    });
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Work.',
    });
    const childId = await running.promise;
    await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect((await run.done).state).toBe('cancelled');
    const child = await ended(t.platform, childId, t.userId);
    expect(child.state).toBe('cancelled');
  });

  it('ends the parent call with an error saying so when the child is cancelled', async () => {
    const running = latch<string>();
    const work = createTool({
      id: 'work.do',
      description: 'Works until stopped.',
      input: z.object({}),
      invoke: ({ promptId, signal }) =>
        new Promise((_, reject) => {
          running.resolve(promptId);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const t = await setup({
      agents: [worker],
      tools: [work],
      script: {
        parent: [callTool('agent.worker', { task: 'Work.' }), reply('The worker was stopped.')],
        worker: [callTool('work.do')],
      },
    });
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Work.',
    });
    await t.platform.cancel(await running.promise, { userId: t.userId });
    const prompt = await run.done;
    expect(prompt.state).toBe('completed');
    expect(t.toolError(prompt, 'agent.worker').message).toContain("Agent 'worker' was cancelled");
    expect(t.toolError(prompt, 'agent.worker').code).toBe('cancelled');
    expect(outputsOf(prompt, agentRunOutput)[0]?.state).toBe('cancelled');
  });
});

describe('a child that waits for approval', () => {
  it('lets the parent finish with its answer once the user approves the child call', async () => {
    const work = approvedWork();
    const t = await setup({
      agents: [worker],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' }), reply('Changed, says the worker.')],
        worker: [callTool('work.do', { what: 'it' }), reply('I changed it.')],
      },
    });
    const waiting = childWaiting(t);
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'Go.' });
    const childId = await waiting;
    const child = await t.platform.getPrompt(childId, t.userId);
    expect(child.state).toBe('waiting_for_approval');
    expect((await t.platform.getPrompt(run.prompt.id, t.userId)).state).toBe('running');

    await t.platform.approve(pendingCall(child, 'work.do').id, { userId: t.userId });
    const prompt: Prompt = await run.done;
    expect(prompt.state).toBe('completed');
    expect(work.runs).toEqual(['it']);
    expect((t.toolResult(prompt, 'agent.worker') as AgentRun).answer).toBe('I changed it.');
    expect(requestsOf(t.model.requests, 'parent')[1]!.messages.at(-1)).toMatchObject({
      type: 'function_call_output',
    });
    expect(JSON.stringify(requestsOf(t.model.requests, 'parent')[1]!.messages)).toContain('I changed it.');
  });

  it('is cancelled when the parent is cancelled while it waits', async () => {
    const work = approvedWork();
    const t = await setup({
      agents: [worker],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' })],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const waiting = childWaiting(t);
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'Go.' });
    const childId = await waiting;
    await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect((await run.done).state).toBe('cancelled');
    expect((await ended(t.platform, childId, t.userId)).state).toBe('cancelled');
    expect(work.runs).toEqual([]);
  });

  it('works at any depth: a grandchild waits for approval, and the answer climbs back up', async () => {
    const work = approvedWork();
    const t = await setup({
      agents: [{ ...worker, name: 'boss', tools: ['agent.worker'] }, worker],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.boss', { task: 'Get it changed.' }), reply('The boss says it is changed.')],
        boss: [callTool('agent.worker', { task: 'Change it.' }), reply('The worker changed it.')],
        worker: [callTool('work.do', { what: 'it' }), reply('I changed it.')],
      },
    });
    const waiting = childWaiting(t);
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'Go.' });
    const grandchild = await t.platform.getPrompt(await waiting, t.userId);
    expect(grandchild.metadata).toMatchObject({ agent: 'worker', depth: 2 });
    await t.platform.approve(pendingCall(grandchild, 'work.do').id, { userId: t.userId });
    const prompt = await run.done;
    expect(prompt.state).toBe('completed');
    expect((t.toolResult(prompt, 'agent.boss') as AgentRun).answer).toBe('The worker changed it.');
    expect(work.runs).toEqual(['it']);
  });

  it('does not hang the parent: past the agent timeout the call ends and the child is cancelled', async () => {
    const work = approvedWork();
    const t = await setup({
      agents: [{ ...worker, timeoutMs: 300 }],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' }), reply('The worker timed out.')],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const prompt = await t.send('Go.');
    expect(prompt.state).toBe('completed');
    expect(t.toolError(prompt, 'agent.worker').code).toBe('timeout');
    // Whatever the child had reached when the time ran out (waiting for approval, as a rule), it ends cancelled.
    const children = (await t.platform.conversations.list(t.userId)).items.filter(
      (conversation) => conversation.id !== t.conversation.id,
    );
    for (const conversation of children) {
      for (const child of await t.platform.conversations.prompts(conversation.id, t.userId)) {
        expect((await ended(t.platform, child.id, t.userId)).state).toBe('cancelled');
      }
    }
    expect(work.runs).toEqual([]);
  });
});
