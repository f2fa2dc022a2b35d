import { assertWellFormed, callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlatform,
  createTool,
  definePlugin,
  MAX_RESPONSE_CALLS,
  MAX_RESPONSE_CHARS,
  type ModelMessage,
  type ModelProvider,
  type ModelStreamEvent,
  type Prompt,
  promptsToMessages,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const tools = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

/** Every function call is followed, before the next call of another response, by exactly one output. */
function expectPaired(messages: readonly ModelMessage[]) {
  assertWellFormed(messages);
  const calls = messages.filter((m) => m.type === 'function_call').map((m) => m.callId);
  const outputs = messages.filter((m) => m.type === 'function_call_output').map((m) => m.callId);
  expect(outputs.sort()).toEqual(calls.sort());
}

describe('a model that repeats call ids', () => {
  it('gives two calls with one id in one response distinct ids, the first keeping the model’s', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools(
          { name: 'demo.echo', args: { text: 'a' }, id: 'dup' },
          { name: 'demo.echo', args: { text: 'b' }, id: 'dup' },
        ),
        reply('Done'),
      ],
    });
    const prompt = await t.send('go');
    const [first, second] = tools(prompt);
    expect(first?.callId).toBe('dup');
    expect(second?.callId).not.toBe('dup');
    expect(second?.result).toEqual({ type: 'success', output: { echoed: 'b' } });
    expect(ran).toHaveLength(2);
    const sent = t.model.requests[1]!.messages;
    expectPaired(sent);
    expect(sent).toContainEqual({
      type: 'function_call_output',
      callId: second!.callId,
      output: '{"echoed":"b"}',
    });
  });

  it('keeps ids unique across responses and prompts when a server says call_0 every time', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTool('demo.echo', { text: 'a' }, 'call_0'),
        callTool('demo.echo', { text: 'b' }, 'call_0'),
        reply('Done'),
        callTool('demo.echo', { text: 'c' }, 'call_0'),
        reply('Done again'),
      ],
    });
    await t.send('one');
    const last = await t.send('two');
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    const ids = prompts.flatMap((p: Prompt) => tools(p).map((c) => c.callId));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('call_0');
    for (const request of t.model.requests) expectPaired(request.messages);
    expectPaired(promptsToMessages(prompts, { outputs: t.platform.outputs }));
    expect(last.state).toBe('completed');
  });

  it('gives a call with an empty id one of its own', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTools({ name: 'demo.echo', args: { text: 'a' }, id: '' }), reply('Done')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.callId).not.toBe('');
  });
});

describe('a stream that fails after a complete tool call', () => {
  it('records the call with an error saying it was not run; the tool never runs', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          text: 'Deleting.',
          toolCalls: [{ name: 'demo.echo', args: { text: 'a' }, id: 'c1' }],
          breakAfter: 2,
        },
      ],
    });
    const prompt = await t.send('go');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason?.code).toBe('model_error');
    const [call] = tools(prompt);
    expect(call?.callId).toBe('c1');
    expect(call?.startedAt).toBeUndefined();
    expect(call?.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    const message = (call!.result as { error: { message: string } }).error.message;
    expect(message).toMatch(/^Not run/);
    expect(message).toContain('The connection was lost.');
    expect(ran).toEqual([]);
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expectPaired(promptsToMessages(prompts, { outputs: t.platform.outputs }));
  });
});

describe('call arguments sent back to the model', () => {
  it('are bounded like results, and stay JSON; the record keeps them whole', async () => {
    const write = createTool({
      id: 'files.write',
      description: 'Writes a file.',
      input: z.object({ path: z.string(), content: z.string() }),
      invoke: () => 'written',
    });
    const content = `${'a'.repeat(900_000)}${'z'.repeat(900_000)}`; // long, within MAX_RESPONSE_CHARS
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'files', tools: [write] })],
      maxResultChars: 1_000,
      script: [callTool('files.write', { path: 'big.txt', content }), reply('Done')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.input).toEqual({ path: 'big.txt', content });
    const call = t.model.requests[1]!.messages.find((m) => m.type === 'function_call');
    const sent = call?.type === 'function_call' ? call.arguments : '';
    expect(sent.length).toBeLessThan(1_100);
    const parsed = JSON.parse(sent);
    expect(parsed.path).toBe('big.txt');
    expect(parsed.content).toMatch(/^a+\n\[… \d+ characters omitted …\]\nz+$/);
  });

  it('are bounded when they are long for another reason, and when they are not JSON', async () => {
    const many = createTool({
      id: 'data.many',
      description: 'Takes many numbers.',
      input: z.object({ values: z.array(z.number()) }),
      invoke: () => 'ok',
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'data', tools: [many] })],
      maxResultChars: 500,
      script: [
        callTools(
          { name: 'data.many', args: { values: Array.from({ length: 10_000 }, (_, i) => i) } },
          { name: 'data.many', arguments: `{"values": [${'1,'.repeat(10_000)}` },
        ),
        reply('Done'),
      ],
    });
    await t.send('go');
    const calls = t.model.requests[1]!.messages.filter((m) => m.type === 'function_call');
    for (const call of calls) {
      expect(call.type === 'function_call' && call.arguments.length).toBeLessThan(600);
    }
    const [whole, broken] = calls.map((c) => (c.type === 'function_call' ? c.arguments : ''));
    expect(JSON.parse(whole!)).toHaveProperty('truncated_arguments');
    expect(broken).toContain('characters omitted');
  });
});

describe('a model that streams without end', () => {
  /** A provider whose one answer is `event(i)` for i = 0, 1, … for ever; it counts what it gave and sees its end. */
  const endless = (event: (i: number) => ModelStreamEvent) => {
    const seen = { given: 0, closed: false };
    const provider: ModelProvider = {
      id: 'endless',
      async *stream() {
        try {
          for (;;) yield event(seen.given++);
        } finally {
          seen.closed = true;
        }
      },
    };
    return { provider, seen };
  };
  const sendTo = async (provider: ModelProvider, plugins = [toolbox().plugin]) => {
    const platform = createPlatform({ model: provider, plugins });
    const { id } = await platform.conversations.create({ userId: 'ada' });
    return platform.send({ conversationId: id, userId: 'ada', input: 'go' });
  };

  it(`fails the call past MAX_RESPONSE_CHARS (${MAX_RESPONSE_CHARS}) characters, keeping what came before, and closes the stream`, async () => {
    const { provider, seen } = endless(() => ({ type: 'text-delta', delta: 'x'.repeat(10_000) }));
    const prompt = await sendTo(provider);
    expect(prompt).toMatchObject({ state: 'failed', stopReason: { code: 'model_error' } });
    expect(prompt.stopReason?.message).toMatch(/longer than 2,000,000 characters/);
    expect(seen).toEqual({ given: MAX_RESPONSE_CHARS / 10_000 + 1, closed: true });
    const [text] = prompt.output;
    expect(text).toMatchObject({ type: 'text' });
    expect((text as { text: string }).text).toHaveLength(MAX_RESPONSE_CHARS);
  });

  it(`fails the call past MAX_RESPONSE_CALLS (${MAX_RESPONSE_CALLS}) tool calls; none of them runs`, async () => {
    const { plugin, ran } = toolbox();
    const { provider, seen } = endless((i) => ({
      type: 'tool-call',
      callId: `c${i}`,
      name: 'demo.echo',
      arguments: '{"text":"a"}',
    }));
    const prompt = await sendTo(provider, [plugin]);
    expect(prompt).toMatchObject({ state: 'failed', stopReason: { code: 'model_error' } });
    expect(prompt.stopReason?.message).toMatch(/more than 256 tool calls/);
    expect(seen.closed).toBe(true);
    expect(ran).toEqual([]);
    expect(tools(prompt)).toHaveLength(MAX_RESPONSE_CALLS);
    expect(tools(prompt).every((call) => call.result?.type === 'error')).toBe(true);
  });
});
