import { createTool } from '@tessera/core';
import { callTool, callTools, outputsOf, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentRun, agentRunOutput, childPromptId } from '../src/index.ts';
import { latch, requestsOf, searchTool, setup } from './helpers.ts';

const researcher = {
  name: 'researcher',
  description: 'Finds facts in the notes.',
  instructions: 'RESEARCHER INSTRUCTIONS: search the notes, report the facts.',
  tools: ['notes.search'],
  readOnly: true,
};

describe('a parent model delegates to an agent', () => {
  it('runs the child with only its tools and its instructions, and the parent reads its answer', async () => {
    const search = searchTool();
    const other = searchTool('mail.search');
    const t = await setup({
      agents: [researcher],
      tools: [search.tool, other.tool],
      script: {
        parent: [callTool('agent.researcher', { task: 'When is the launch?' }), reply('It is on Tuesday.')],
        researcher: [
          callTool('notes.search', { query: 'launch' }),
          reply('The launch is on Tuesday (notes).'),
        ],
      },
    });
    const prompt = await t.send('When do we launch?');
    expect(prompt.state).toBe('completed');

    const [parentFirst, parentSecond] = requestsOf(t.model.requests, 'parent');
    expect(parentFirst!.instructions).toContain('APP INSTRUCTIONS');
    expect(parentFirst!.tools.map((tool) => tool.name)).toContain('agent.researcher');

    const [childFirst, childSecond] = requestsOf(t.model.requests, 'researcher');
    expect(childFirst!.instructions).toContain('RESEARCHER INSTRUCTIONS');
    expect(childFirst!.instructions).not.toContain('APP INSTRUCTIONS');
    expect(childFirst!.tools.map((tool) => tool.name)).toEqual(['notes.search']);
    expect(childFirst!.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'When is the launch?' }),
    ]);
    expect(childSecond!.tools.map((tool) => tool.name)).toEqual(['notes.search']);
    expect(search.calls).toHaveLength(1);

    // The parent reads the child's answer and summary, as the call's result.
    const result = t.toolResult(prompt, 'agent.researcher') as AgentRun;
    expect(result).toMatchObject({
      agent: 'researcher',
      state: 'completed',
      answer: 'The launch is on Tuesday (notes).',
      toolCalls: 1,
      rounds: 2,
    });
    expect(result.summary).toContain('notes.search');
    expect(result).not.toHaveProperty('usage'); // the model does not read token counts
    expect(JSON.stringify(parentSecond!.messages)).toContain('The launch is on Tuesday (notes).');

    // The record nests: the parent's call has an agent-run output naming the child, which holds it all.
    const call = t.outputs(prompt, 'tool').find((o) => o.toolId === 'agent.researcher')!;
    const [run] = outputsOf(prompt, agentRunOutput);
    expect(run).toMatchObject({
      toolCallId: call.id,
      agent: 'researcher',
      promptId: childPromptId(call.id),
      conversationId: result.conversationId,
      task: 'When is the launch?',
      depth: 1,
      history: 'task',
      state: 'completed',
      usage: expect.objectContaining({ modelCalls: 2, inputTokens: 20, outputTokens: 10 }),
    });
    expect(prompt.output.indexOf(run!)).toBe(prompt.output.indexOf(call) + 1);
    const children = await t.platform.conversations.prompts(run!.conversationId, t.userId);
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({
      id: run!.promptId,
      input: 'When is the launch?',
      state: 'completed',
      metadata: {
        agent: 'researcher',
        depth: 1,
        parent: { conversationId: t.conversation.id, promptId: prompt.id, toolCallId: call.id },
      },
    });
    expect(t.outputs(children[0]!, 'tool').map((o) => o.toolId)).toEqual(['notes.search']);
  });

  it('forks the parent conversation for an agent that reads the history', async () => {
    const t = await setup({
      agents: [{ ...researcher, name: 'reader', tools: [], history: 'fork' }],
      script: {
        parent: [reply('Noted.'), callTool('agent.reader', { task: 'What is my name?' }), reply('Ada.')],
        reader: [reply('Your name is Ada.')],
      },
    });
    await t.send('My name is Ada.');
    const prompt = await t.send('Ask the reader my name.');
    expect(prompt.state).toBe('completed');
    const [child] = requestsOf(t.model.requests, 'reader');
    const read = JSON.stringify(child!.messages);
    expect(read).toContain('My name is Ada.');
    expect(read).toContain('What is my name?');
    expect(read).not.toContain('Ask the reader my name.');
    const [run] = outputsOf(prompt, agentRunOutput);
    expect(run?.history).toBe('fork');
    const fork = await t.platform.conversations.get(run!.conversationId, t.userId);
    expect(fork.forkOf).toMatchObject({ conversationId: t.conversation.id });
  });

  it('gives the parent an error it reads when the child fails, and the parent goes on', async () => {
    const t = await setup({
      agents: [researcher],
      script: {
        parent: [callTool('agent.researcher', { task: 'Look it up.' }), reply('The researcher failed.')],
        researcher: [{ error: 'The model is down.' }],
      },
    });
    const prompt = await t.send('Look it up.');
    expect(prompt.state).toBe('completed');
    const error = t.toolError(prompt, 'agent.researcher');
    expect(error.message).toContain("Agent 'researcher' failed");
    expect(error.message).toContain('The model is down.');
    expect(t.model.read()).toContain("Agent 'researcher' failed");
    const [run] = outputsOf(prompt, agentRunOutput);
    expect(run?.state).toBe('failed');
  });

  it('runs two read-only agents of one batch in parallel', async () => {
    const started = { a: latch(), b: latch() };
    // Each child's tool waits for the other child's to have started: in series they would never finish.
    const waiting = (mine: 'a' | 'b', other: 'a' | 'b') =>
      createTool({
        id: `probe.${mine}`,
        description: 'Probes.',
        input: z.object({}),
        readOnly: true,
        invoke: async () => {
          started[mine].resolve();
          await started[other].promise;
          return `found by ${mine}`;
        },
      });
    const agent = (name: 'a' | 'b') => ({
      ...researcher,
      name,
      tools: [`probe.${name}`],
      timeoutMs: 60_000,
    });
    const t = await setup({
      agents: [agent('a'), agent('b')],
      tools: [waiting('a', 'b'), waiting('b', 'a')],
      script: {
        parent: [
          callTools(
            { name: 'agent.a', args: { task: 'Probe a.' } },
            { name: 'agent.b', args: { task: 'Probe b.' } },
          ),
          reply('Both probed.'),
        ],
        a: [callTool('probe.a'), reply('a: done')],
        b: [callTool('probe.b'), reply('b: done')],
      },
    });
    const prompt = await t.send('Probe both.');
    expect(prompt.state).toBe('completed');
    expect((t.toolResult(prompt, 'agent.a') as AgentRun).answer).toBe('a: done');
    expect((t.toolResult(prompt, 'agent.b') as AgentRun).answer).toBe('b: done');
    expect(outputsOf(prompt, agentRunOutput).map((run) => run.agent)).toEqual(['a', 'b']);
  });

  it('refuses to run a read-only agent that may use a tool that is not', async () => {
    const writer = createTool({
      id: 'notes.write',
      description: 'Writes a note.',
      input: z.object({}),
      invoke: () => 'written',
    });
    const t = await setup({
      agents: [{ ...researcher, tools: ['notes.write'] }],
      tools: [writer],
      script: { parent: [callTool('agent.researcher', { task: 'Write.' }), reply('Could not.')] },
    });
    const prompt = await t.send('Write.');
    expect(t.toolError(prompt, 'agent.researcher').message).toContain(
      "Agent 'researcher' is read-only but may use tools that are not: notes.write.",
    );
    const conversations = await t.platform.conversations.list(t.userId);
    expect(conversations.items).toHaveLength(1);
  });
});

describe('budgets and permissions in the child', () => {
  it('skips calls past maxToolCalls, and offers no tools once the budget is spent', async () => {
    const search = searchTool();
    const t = await setup({
      agents: [{ ...researcher, maxToolCalls: 1 }],
      tools: [search.tool],
      script: {
        parent: [callTool('agent.researcher', { task: 'Search twice.' }), reply('Done.')],
        researcher: [
          callTools(
            { name: 'notes.search', args: { query: 'one' } },
            { name: 'notes.search', args: { query: 'two' } },
          ),
          reply('Searched once.'),
        ],
      },
    });
    const prompt = await t.send('Search.');
    expect(prompt.state).toBe('completed');
    expect(search.calls.map((call) => call.query)).toEqual(['one']);
    const [, last] = requestsOf(t.model.requests, 'researcher');
    expect(last!.tools).toEqual([]);
    expect(last!.instructions).toContain('Your budget is spent');
    const child = await t.platform.getPrompt(
      (t.toolResult(prompt, 'agent.researcher') as AgentRun).promptId,
      t.userId,
    );
    const results = t.outputs(child, 'tool').map((o) => o.result?.type);
    expect(results).toEqual(['success', 'error']);
  });

  it('stops the child at maxRounds, and its last round has no tools', async () => {
    const search = searchTool();
    const t = await setup({
      agents: [{ ...researcher, maxRounds: 2 }],
      tools: [search.tool],
      script: {
        parent: [callTool('agent.researcher', { task: 'Search.' }), reply('Done.')],
        researcher: [callTool('notes.search', { query: 'one' }), reply('One search was enough.')],
      },
    });
    const prompt = await t.send('Search.');
    const [first, second] = requestsOf(t.model.requests, 'researcher');
    expect(first!.tools.map((tool) => tool.name)).toEqual(['notes.search']);
    expect(second!.tools).toEqual([]);
    expect((t.toolResult(prompt, 'agent.researcher') as AgentRun).answer).toBe('One search was enough.');
  });

  it('denies a call to a tool the agent may not use, even one the app offers', async () => {
    const search = searchTool();
    const mail = searchTool('mail.search');
    const t = await setup({
      agents: [researcher],
      tools: [search.tool, mail.tool],
      script: {
        parent: [callTool('agent.researcher', { task: 'Search mail.' }), reply('Done.')],
        researcher: [callTool('mail.search', { query: 'x' }), reply('Not allowed.')],
      },
    });
    const prompt = await t.send('Search.');
    const child = await t.platform.getPrompt(
      (t.toolResult(prompt, 'agent.researcher') as AgentRun).promptId,
      t.userId,
    );
    // Core refuses a call of a tool the round's model call was not offered; the permission policy would deny it.
    expect(t.toolError(child, 'mail.search').code).toMatch(/^(unknown_tool|denied)$/);
    expect(mail.calls).toEqual([]);
  });
});
