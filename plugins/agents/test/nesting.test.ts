import { PlatformToken, TesseraError, type ToolInput } from '@tessera/core';
import { callTool, outputsOf, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { AGENTS_PLUGIN_ID, type AgentRun, agentRunOutput, childPromptId, delegate } from '../src/index.ts';
import { requestsOf, setup } from './helpers.ts';

const deep = {
  name: 'deep',
  description: 'Goes one level deeper.',
  instructions: 'Delegate to yourself once, then answer.',
  tools: ['agent.deep'],
};

describe('nesting', () => {
  it('lets a child call an agent while the depth allows, and takes agent tools away at maxDepth', async () => {
    const t = await setup({
      agents: [deep],
      maxDepth: 2,
      script: {
        parent: [callTool('agent.deep', { task: 'Level one.' }), reply('top')],
        deep: [callTool('agent.deep', { task: 'Level two.' }), reply('bottom'), reply('middle')],
      },
    });
    const prompt = await t.send('Go deep.');
    expect(prompt.state).toBe('completed');
    const [first, second, third] = requestsOf(t.model.requests, 'deep');
    expect(first!.tools.map((tool) => tool.name)).toEqual(['agent.deep']);
    expect(second!.tools).toEqual([]); // depth 2 = maxDepth: no more agents
    expect(third!.tools.map((tool) => tool.name)).toEqual(['agent.deep']);
    expect((t.toolResult(prompt, 'agent.deep') as AgentRun).answer).toBe('middle');

    // The record nests all the way down: each level's call names the child below it.
    const [one] = outputsOf(prompt, agentRunOutput);
    expect(one?.depth).toBe(1);
    const middle = await t.platform.getPrompt(one!.promptId, t.userId);
    const [two] = outputsOf(middle, agentRunOutput);
    expect(two).toMatchObject({ depth: 2, state: 'completed' });
    // What each level used counts its own sub-agents: the top's agent-run adds up the whole tree.
    expect(two?.usage?.modelCalls).toBe(1); // the bottom: one answer
    expect(one?.usage?.modelCalls).toBe(3); // the middle's two, and the bottom's one
    expect(one?.usage?.inputTokens).toBe(middle.usage.inputTokens + (two?.usage?.inputTokens ?? 0));
    const bottom = await t.platform.getPrompt(two!.promptId, t.userId);
    expect(bottom.metadata).toMatchObject({
      agent: 'deep',
      depth: 2,
      parent: { conversationId: middle.conversationId, promptId: middle.id },
    });

    // Code cannot go deeper either.
    const error = await delegate(t.platform, {
      agent: 'deep',
      userId: t.userId,
      task: 'Level three.',
      parent: { conversationId: bottom.conversationId, promptId: bottom.id },
    }).catch((caught: unknown) => caught);
    expect(TesseraError.is(error) && error.code).toBe('invalid_input');
    expect((error as Error).message).toContain('at most 2 deep');
  });

  it('starts one child for one call: a retried invocation waits for the same child', async () => {
    const t = await setup({
      agents: [{ ...deep, tools: [] }],
      script: { parent: [reply('Hello.')], deep: [reply('Only once.')] },
    });
    const parent = await t.send('Hi.');
    const tool = t.platform.plugins.find((plugin) => plugin.id === AGENTS_PLUGIN_ID)!.tools[0]!;
    const emitted: unknown[] = [];
    const call = (): ToolInput<{ task: string }> =>
      ({
        userId: t.userId,
        input: { task: 'Once.' },
        state: undefined,
        services: t.platform.services,
        signal: new AbortController().signal,
        toolCallId: 'call_retried',
        promptId: parent.id,
        conversationId: t.conversation.id,
        emit: async (output: unknown) => {
          emitted.push(output);
          return `out_${emitted.length}`;
        },
        update: async () => {},
        outputs: () => [],
      }) as never;
    expect(t.platform.services.resolve(PlatformToken)).toBe(t.platform);

    const first = (await tool.invoke(call())) as AgentRun;
    const conversations = (await t.platform.conversations.list(t.userId)).items.length;
    const again = (await tool.invoke(call())) as AgentRun;
    expect(again).toEqual(first);
    expect(first.promptId).toBe(childPromptId('call_retried'));
    expect(first.answer).toBe('Only once.');
    expect(requestsOf(t.model.requests, 'deep')).toHaveLength(1); // the script had one turn for it
    expect((await t.platform.conversations.list(t.userId)).items).toHaveLength(conversations);
  });

  it('derives a valid prompt id from any call id, the same every time', () => {
    expect(childPromptId('call_abc-1')).toBe('agent_call_abc-1');
    const odd = childPromptId('call:with/odd chars');
    expect(odd).toMatch(/^agent_[0-9a-f]{40}$/);
    expect(childPromptId('call:with/odd chars')).toBe(odd);
    expect(childPromptId('x'.repeat(200)).length).toBeLessThanOrEqual(100);
  });
});
