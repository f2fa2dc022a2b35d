import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOutput, definePlugin, type ModelMessage, type Prompt, userMessage } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const userTexts = (messages: readonly ModelMessage[]) =>
  messages
    .filter((m) => m.type === 'message' && m.role === 'user')
    .map((m) => (m as { content: string }).content);

/** A plugin's own output variant, recorded from a hook (the model never reads it). */
const noteOutput = defineOutput({ type: 'note', fields: { text: z.string() }, project: 'skip' });

describe('beforeFirstModelCall', () => {
  it("runs once before a prompt's first model call, with the whole history, the model and the record", async () => {
    const seen: { history: string[]; round: number }[] = [];
    const plugin = definePlugin({
      id: 'noter',
      outputs: [noteOutput],
      hooks: {
        beforeFirstModelCall: async ({ history, prompt, model, project, record }) => {
          seen.push({ history: history.map((p) => p.input ?? ''), round: prompt.usage.modelCalls });
          if (history.length === 0) return;
          // A call of the hook's own to the prompt's model: no tools unless given, not one of the rounds.
          let text = '';
          for await (const event of model.stream({
            instructions: 'Name the topics.',
            messages: [...project(history), userMessage('Topics?')],
          }))
            if (event.type === 'text-delta') text += event.delta;
          expect(model.name).toBe('normal');
          expect(model.estimate([userMessage('abcd'.repeat(10))])).toBeGreaterThan(0);
          await record({ type: 'note', text } as never); // a plugin would declare the variant's type
        },
      },
    });
    const { plugin: tools } = toolbox();
    const t = await createTestPlatform({
      plugins: [tools, plugin],
      // A budget that leaves the first prompt out of the model's requests: the hook still sees it.
      historyTokens: 30,
      script: [reply('One.'), reply('Topics: first.'), callTool('demo.echo', { text: 'x' }), reply('Two.')],
    });
    await t.send('first prompt, which is long enough to be left out by the history budget');
    const second = await t.send('second');

    expect(seen).toEqual([
      { history: [], round: 0 },
      { history: ['first prompt, which is long enough to be left out by the history budget'], round: 0 },
    ]);
    const own = t.model.requests[1]!;
    expect(own.instructions).toBe('Name the topics.');
    expect(own.tools).toEqual([]);
    expect(userTexts(own.messages)).toEqual([
      'first prompt, which is long enough to be left out by the history budget',
      'Topics?',
    ]);
    // Recorded before the prompt's model calls; the hook's call is not counted as one of them.
    expect(second.output[0]).toMatchObject({ type: 'note', text: 'Topics: first.' });
    expect(second.usage.modelCalls).toBe(2);
    expect(second.state).toBe('completed');
  });

  it('fails the prompt with hook_failed when it records an output no plugin registered', async () => {
    const plugin = definePlugin({
      id: 'stray',
      hooks: {
        beforeFirstModelCall: async ({ record }) => {
          await record({ type: 'unknown', text: 'x' } as never);
        },
      },
    });
    const t = await createTestPlatform({ plugins: [plugin], script: [] });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toMatchObject({ code: 'hook_failed' });
    expect(prompt.stopReason?.message).toMatch(/stray.*beforeFirstModelCall.*not registered/);
  });
});

describe('historyView', () => {
  /** Reads the last prompt only, after a note standing in for the rest. */
  const lastOnly = definePlugin({
    id: 'last-only',
    hooks: {
      historyView: ({ history }) =>
        history.length < 2
          ? undefined
          : { prompts: history.slice(-1), before: [userMessage(`[${history.length - 1} earlier prompts]`)] },
    },
  });

  it('sends what the view puts first, then the prompts it chose, in every round', async () => {
    const { plugin: tools } = toolbox();
    const t = await createTestPlatform({
      plugins: [tools, lastOnly],
      script: [reply('1'), reply('2'), callTool('demo.echo', { text: 'x' }), reply('3')],
    });
    await t.send('first');
    await t.send('second');
    await t.send('third');
    expect(userTexts(t.model.requests[2]!.messages)).toEqual(['[1 earlier prompts]', 'second', 'third']);
    expect(userTexts(t.model.requests[3]!.messages)).toEqual(['[1 earlier prompts]', 'second', 'third']);
  });

  it('is fitted to the history budget afterwards: the oldest prompts of the view go, what it put first stays', async () => {
    const keepAll = definePlugin({
      id: 'keep-all',
      hooks: { historyView: ({ history }) => ({ prompts: history, before: [userMessage('[note]')] }) },
    });
    const t = await createTestPlatform({
      plugins: [keepAll],
      historyTokens: 60,
      script: [reply('1'), reply('2'), reply('3')],
    });
    await t.send(`first ${'a'.repeat(100)}`);
    await t.send(`second ${'b'.repeat(100)}`);
    await t.send('third');
    const sent = userTexts(t.model.requests[2]!.messages);
    expect(sent[0]).toBe('[note]');
    expect(sent.at(-1)).toBe('third');
    expect(sent.some((text) => text.startsWith('first'))).toBe(false);
  });

  it('fails the prompt with hook_failed for prompts not in its history, or calls without outputs', async () => {
    const stranger = { id: 'elsewhere', input: 'x', output: [] } as unknown as Prompt;
    const broken = [
      definePlugin({ id: 'stranger', hooks: { historyView: () => ({ prompts: [stranger] }) } }),
      definePlugin({
        id: 'dangling',
        hooks: {
          historyView: ({ history }) => ({
            prompts: history,
            before: [{ type: 'function_call', callId: 'c1', name: 'demo.echo', arguments: '{}' }],
          }),
        },
      }),
    ];
    for (const plugin of broken) {
      const t = await createTestPlatform({ plugins: [plugin], script: [reply('1')] });
      await t.send('first');
      const prompt = await t.send('second');
      expect(prompt.stopReason).toMatchObject({ code: 'hook_failed' });
      expect(prompt.stopReason?.message).toContain(`${plugin.id}`);
    }
  });
});
