import { createPlatform } from '@tessera/core';
import { reply, scriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { chain, consolidate, delegate } from '../src/index.ts';
import { requestsOf, setup } from './helpers.ts';

const agent = (name: string, readOnly = true) => ({
  name,
  description: `The ${name}.`,
  instructions: `You are the ${name}.`,
  readOnly,
});

describe('the code API', () => {
  it('delegate runs an agent for a user and resolves with its run, failed or not', async () => {
    const t = await setup({
      agents: [agent('writer')],
      script: { writer: [reply('A haiku.'), { error: 'Out of ink.' }] },
    });
    const run = await delegate(t.platform, { agent: 'writer', userId: t.userId, task: 'Write a haiku.' });
    expect(run).toMatchObject({ agent: 'writer', state: 'completed', answer: 'A haiku.', toolCalls: 0 });
    const child = await t.platform.getPrompt(run.promptId, t.userId);
    expect(child).toMatchObject({ input: 'Write a haiku.', metadata: { agent: 'writer', depth: 1 } });

    const failed = await delegate(t.platform, { agent: 'writer', userId: t.userId, task: 'Another.' });
    expect(failed.state).toBe('failed');
    expect(failed.summary).toContain("Agent 'writer' failed");

    await expect(
      delegate(t.platform, { agent: 'painter', userId: t.userId, task: 'Paint.' }),
    ).rejects.toThrow("There is no agent 'painter'; the agents are: writer.");
    await expect(delegate(t.platform, { agent: 'writer', userId: t.userId, task: ' ' })).rejects.toThrow(
      'must be 1-20000 characters',
    );
  });

  it('cuts a long answer for the reader, says so, and refuses a prompt id that is not a run of the agent', async () => {
    const long = `${'a'.repeat(5_000)}${'z'.repeat(5_000)}`;
    const t = await setup({
      agents: [agent('writer')],
      script: { writer: [reply(long)], parent: [reply('Hi.')] },
    });
    const run = await delegate(t.platform, { agent: 'writer', userId: t.userId, task: 'Write a lot.' });
    expect(run.truncated).toBe(true);
    expect(run.answer.length).toBeLessThan(8_100);
    expect(run.answer).toMatch(/^a{5000}z+\n\[… 2000 characters omitted …\]\nz+$/);
    const child = await t.platform.getPrompt(run.promptId, t.userId);
    expect(
      t
        .outputs(child, 'text')
        .map((o) => o.text)
        .join(''),
    ).toBe(long);

    const other = await t.send('Hello.');
    await expect(
      delegate(t.platform, { agent: 'writer', userId: t.userId, task: 'Again.', promptId: other.id }),
    ).rejects.toThrow(`Prompt ${other.id} exists, and is not a run of agent 'writer'.`);
  });

  it('chain gives each agent the task and the previous answer', async () => {
    const t = await setup({
      agents: [agent('researcher'), agent('writer')],
      script: { researcher: [reply('Fact: the sky is blue.')], writer: [reply('The sky, blue as ever.')] },
    });
    const result = await chain(t.platform, {
      agents: ['researcher', 'writer'],
      userId: t.userId,
      task: 'A line about the sky.',
    });
    expect(result.state).toBe('completed');
    expect(result.answer).toBe('The sky, blue as ever.');
    expect(result.runs.map((run) => run.agent)).toEqual(['researcher', 'writer']);
    const [writer] = requestsOf(t.model.requests, 'writer');
    const read = JSON.stringify(writer!.messages);
    expect(read).toContain('A line about the sky.');
    expect(read).toContain('Fact: the sky is blue.');
  });

  it('chain stops at the first step that does not complete', async () => {
    const t = await setup({
      agents: [agent('researcher'), agent('writer')],
      script: { researcher: [{ error: 'No sources.' }] },
    });
    const result = await chain(t.platform, {
      agents: ['researcher', 'writer'],
      userId: t.userId,
      task: 'Go.',
    });
    expect(result.state).toBe('failed');
    expect(result.runs).toHaveLength(1);
  });

  it('consolidate runs the agents, then gives the consolidator every answer', async () => {
    const t = await setup({
      agents: [agent('optimist'), agent('pessimist'), agent('judge')],
      script: {
        optimist: [reply('Ship it.')],
        pessimist: [reply('Wait a week.')],
        judge: [reply('Ship on Monday.')],
      },
    });
    const { runs, consolidated } = await consolidate(t.platform, {
      agents: ['optimist', 'pessimist'],
      consolidator: 'judge',
      userId: t.userId,
      task: 'Ship on Friday?',
    });
    expect(runs.map((run) => [run.agent, run.answer])).toEqual([
      ['optimist', 'Ship it.'],
      ['pessimist', 'Wait a week.'],
    ]);
    expect(consolidated.answer).toBe('Ship on Monday.');
    const read = JSON.stringify(requestsOf(t.model.requests, 'judge')[0]!.messages);
    for (const text of ['Ship on Friday?', 'Ship it.', 'Wait a week.']) expect(read).toContain(text);
  });

  it('says so when the platform has no agents plugin', async () => {
    const platform = createPlatform({ model: scriptedModel() });
    await expect(delegate(platform, { agent: 'writer', userId: 'ada', task: 'Write.' })).rejects.toThrow(
      "The agents plugin is not among the platform's plugins",
    );
  });

  it('refuses a fork agent without a parent, and a group without agents, before any agent runs', async () => {
    const t = await setup({ agents: [{ ...agent('reader'), history: 'fork' }, agent('writer')], script: {} });
    await expect(delegate(t.platform, { agent: 'reader', userId: t.userId, task: 'Read.' })).rejects.toThrow(
      "reads its parent's history",
    );
    const group = { userId: t.userId, task: 'Go.' };
    await expect(
      consolidate(t.platform, { ...group, agents: ['writer'], consolidator: 'reader' }),
    ).rejects.toThrow("reads its parent's history");
    await expect(chain(t.platform, { ...group, agents: [] })).rejects.toThrow('Name at least one agent.');
    await expect(consolidate(t.platform, { ...group, agents: [], consolidator: 'writer' })).rejects.toThrow(
      'Name at least one agent.',
    );
    expect(t.model.requests).toEqual([]);
  });
});
