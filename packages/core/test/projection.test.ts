import { assertWellFormed } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineOutput,
  emptyUsage,
  estimateTokens,
  OutputRegistry,
  ProjectionCache,
  type Prompt,
  type PromptOutput,
  promptsToMessages,
} from '../src/index.ts';

const registry = () => {
  const outputs = new OutputRegistry();
  outputs.register(
    defineOutput({ type: 'widget', fields: { data: z.unknown() }, project: 'skip' }),
    'widgets',
  );
  outputs.register(
    defineOutput({
      type: 'file',
      fields: { name: z.string(), size: z.number() },
      project: { summary: (file) => `[file: ${file.name}, ${file.size} bytes]` },
    }),
    'files',
  );
  return outputs;
};

let n = 0;
const prompt = (output: unknown[], input?: string, state: Prompt['state'] = 'completed'): Prompt => ({
  id: `prm_${++n}`,
  conversationId: 'conv',
  userId: 'u',
  model: 'normal',
  visible: true,
  state,
  ...(input !== undefined && { input }),
  output: output as PromptOutput[],
  usage: emptyUsage(),
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const at = '2026-01-01T00:00:00.000Z';
const text = (t: string) => ({ type: 'text', id: `o${++n}`, createdAt: at, text: t });
const tool = (callId: string, result?: unknown, extra: object = {}) => ({
  type: 'tool',
  id: `o${++n}`,
  createdAt: at,
  callId,
  toolId: 'weather.get',
  input: { city: 'Paris' },
  ...(result !== undefined && { result }),
  ...extra,
});

describe('promptsToMessages', () => {
  it('projects the specification’s example: text, tool pair, widget skipped, file summarised, pending paired', () => {
    const messages = promptsToMessages(
      [
        prompt(
          [
            text('Checking.'),
            tool('c1', { type: 'success', output: { temp: 21 } }),
            { type: 'widget', id: 'w', createdAt: at, data: { chart: [1, 2] } },
            { type: 'file', id: 'f', createdAt: at, name: 'forecast.csv', size: 120 },
            tool('c2', { type: 'pending', reason: 'Needs approval.' }),
            text('Waiting for you.'),
          ],
          "What's the weather?",
        ),
      ],
      { outputs: registry() },
    );
    expect(messages).toEqual([
      { type: 'message', role: 'user', content: "What's the weather?" },
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', callId: 'c1', name: 'weather.get', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', callId: 'c1', output: '{"temp":21}' },
      { type: 'message', role: 'assistant', content: '[file: forecast.csv, 120 bytes]' },
      { type: 'function_call', callId: 'c2', name: 'weather.get', arguments: '{"city":"Paris"}' },
      {
        type: 'function_call_output',
        callId: 'c2',
        output: "Waiting for the user's approval: Needs approval.",
      },
      { type: 'message', role: 'assistant', content: 'Waiting for you.' },
    ]);
  });

  it('gives every call exactly one output: errors, queued, interrupted, unparseable arguments', () => {
    const messages = promptsToMessages(
      [
        prompt([
          tool('c1', { type: 'error', error: { code: 'timeout', message: 'too slow' } }),
          tool('c2'),
          tool('c3', undefined, { startedAt: at }),
          tool('c4', { type: 'error', error: 'bad' }, { input: undefined, arguments: '{"city":' }),
        ]),
      ],
      { outputs: registry() },
    );
    assertWellFormed(messages);
    const outputs = messages
      .filter((m) => m.type === 'function_call_output')
      .map((m) => m.type === 'function_call_output' && m.output);
    expect(outputs).toEqual([
      'Error: too slow',
      'No result: the call was never run.',
      'No result: the call was interrupted before it finished. It may or may not have taken effect.',
      'Error: bad',
    ]);
    expect(messages.find((m) => m.type === 'function_call' && m.callId === 'c4')).toMatchObject({
      arguments: '{"city":',
    });
  });

  it('leaves out a prompt without input as a user message, and outputs of variants no plugin registers', () => {
    const messages = promptsToMessages(
      [prompt([text('Reminder!'), { type: 'gone.plugin', id: 'x', createdAt: at }])],
      {
        outputs: registry(),
      },
    );
    expect(messages).toEqual([{ type: 'message', role: 'assistant', content: 'Reminder!' }]);
  });

  it('fits a token budget by leaving out the oldest whole prompts, never the current one', () => {
    const history = Array.from({ length: 10 }, (_, i) =>
      prompt(
        [tool(`h${i}`, { type: 'success', output: 'x'.repeat(400) }), text(`answer ${i}`)],
        `question ${i}`,
      ),
    );
    const current = prompt(
      [tool('now', { type: 'success', output: 'y'.repeat(2_000) })],
      'current',
      'running',
    );
    const all = promptsToMessages([...history, current], { outputs: registry() });
    const budget = Math.floor(estimateTokens(all) / 2);
    const trimmed = promptsToMessages([...history, current], {
      outputs: registry(),
      budget: { maxTokens: budget },
    });
    assertWellFormed(trimmed);
    expect(estimateTokens(trimmed)).toBeLessThanOrEqual(budget);
    expect(trimmed.length).toBeLessThan(all.length);
    expect(trimmed.at(-2)).toMatchObject({ type: 'function_call', callId: 'now' });
    const firstUser = trimmed.find((m) => m.type === 'message' && m.role === 'user');
    expect(firstUser?.type === 'message' && firstUser.content).toMatch(/^question \d$/);
    expect(trimmed[0]).toEqual(firstUser);
    const tiny = promptsToMessages([...history, current], { outputs: registry(), budget: { maxTokens: 1 } });
    expect(tiny[0]).toEqual({ type: 'message', role: 'user', content: 'current' });
  });
});

describe('the projection cache', () => {
  const ended = (input: string) => prompt([], input);
  const projected = (prompt: Prompt) => ({
    messages: [{ type: 'message' as const, role: 'user' as const, content: prompt.input! }],
    tokens: 1,
  });

  it('is bounded in characters, not only in prompts: the least recently used go first, and a huge one is never kept', () => {
    const cache = new ProjectionCache(1_000, 8_100);
    const prompts = 'abcdefghi'.split('').map((letter) => ended(letter.repeat(1_000)));
    for (const prompt of prompts) cache.set(prompt, projected(prompt));
    // Nine of ~1,000 characters in 8,100: the first went when the ninth came.
    const fresh = (p: Prompt) => ({ ...p }) as Prompt; // not found by identity: by key
    expect(prompts.map((p) => cache.get(fresh(p)) !== undefined)).toEqual([false, ...Array(8).fill(true)]);
    const huge = ended('z'.repeat(2_000)); // over an eighth of the room
    cache.set(huge, projected(huge));
    expect(cache.get(fresh(huge))).toBeUndefined();
  });
});
