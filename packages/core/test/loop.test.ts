import { assertWellFormed, callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ConversationBusyError,
  createTool,
  definePlugin,
  MemoryStore,
  ModelError,
  promptsToMessages,
  type TesseraEvent,
  type ToolInput,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const tools = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

describe('the loop', () => {
  it('streams text, records it once as one output, and completes', async () => {
    const t = await createTestPlatform({ script: [reply(['Hel', 'lo ', 'there'])] });
    const deltas: string[] = [];
    t.platform.events.subscribe({}, (e) => {
      if (e.type === 'prompt.text-delta') deltas.push(e.delta);
    });
    const prompt = await t.send('Hi');
    expect(deltas).toEqual(['Hel', 'lo ', 'there']);
    expect(prompt.state).toBe('completed');
    expect(prompt.stopReason).toBeUndefined();
    expect(prompt.output).toEqual([expect.objectContaining({ type: 'text', text: 'Hello there' })]);
    expect(t.model.requests[0]?.messages).toEqual([{ type: 'message', role: 'user', content: 'Hi' }]);
  });

  it('invokes a tool, records input, result and times, and shows the model the pair next round', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        { text: 'Let me echo.', toolCalls: [{ name: 'demo.echo', args: { text: 'hi' }, id: 'c1' }] },
        reply('Done'),
      ],
    });
    const prompt = await t.send('Echo hi');
    expect(ran).toEqual([{ tool: 'demo.echo', input: { text: 'hi' } }]);
    expect(prompt.output.map((o) => o.type)).toEqual(['text', 'tool', 'text']);
    const [call] = tools(prompt);
    expect(call).toMatchObject({
      callId: 'c1',
      toolId: 'demo.echo',
      input: { text: 'hi' },
      result: { type: 'success', output: { echoed: 'hi' } },
    });
    expect(call?.startedAt && call.endedAt && call.startedAt <= call.endedAt).toBe(true);
    // The text and the call came from one model response, and say so.
    const responseId = call?.responseId;
    expect(responseId).toMatch(/^rsp_/);
    expect(prompt.output[0]).toMatchObject({ responseId });
    expect(prompt.output[2]).not.toMatchObject({ responseId });
    const second = t.model.requests[1]!.messages;
    expect(second).toEqual([
      { type: 'message', role: 'user', content: 'Echo hi' },
      { type: 'message', role: 'assistant', content: 'Let me echo.', responseId },
      { type: 'function_call', callId: 'c1', name: 'demo.echo', arguments: '{"text":"hi"}', responseId },
      { type: 'function_call_output', callId: 'c1', output: '{"echoed":"hi"}' },
    ]);
    expect(t.model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'demo.echo',
      'demo.delete',
      'demo.pay',
      'demo.fail',
    ]);
    expect(t.model.requests[0]?.tools[0]?.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('turns bad JSON, wrong arguments and unknown tools into errors the model can correct', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools(
          { name: 'demo.echo', arguments: '{"text": "unterminated' },
          { name: 'demo.echo', args: { text: 42 } },
          { name: 'demo.nope', args: {} },
        ),
        callTool('demo.echo', { text: 'fixed' }),
        reply('Done'),
      ],
    });
    const prompt = await t.send('go');
    const [badJson, badArgs, unknown, fixed] = tools(prompt);
    expect(badJson?.result).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
    expect(badJson?.arguments).toBe('{"text": "unterminated');
    expect(badArgs?.result).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
    expect(JSON.stringify(badArgs?.result)).toContain('text');
    expect(unknown?.result).toMatchObject({ type: 'error', error: { code: 'unknown_tool' } });
    expect(JSON.stringify(unknown?.result)).toContain('demo.echo');
    expect(fixed?.result).toEqual({ type: 'success', output: { echoed: 'fixed' } });
    expect(ran).toEqual([{ tool: 'demo.echo', input: { text: 'fixed' } }]);
    const outputs = t.model.requests[1]!.messages.filter((m) => m.type === 'function_call_output');
    expect(outputs).toHaveLength(3);
    for (const output of outputs)
      expect(output.type === 'function_call_output' && output.output).toMatch(/^Error: /);
    assertWellFormed(t.model.requests[2]!.messages);
  });

  it('records a throwing tool as an error and goes on', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.fail'), reply('Sorry')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.result).toEqual({
      type: 'error',
      error: { code: 'tool_failed', message: 'the disk is on fire' },
    });
    expect(prompt.state).toBe('completed');
  });

  it('stops a tool that runs past its timeout and aborts its signal', async () => {
    let aborted = false;
    const slow = createTool({
      id: 'slow.wait',
      description: 'Waits forever.',
      input: z.object({}),
      timeoutMs: 20,
      invoke: ({ signal }) =>
        new Promise(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'slow', tools: [slow] })],
      script: [callTool('slow.wait'), reply('Gave up')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.result).toMatchObject({ type: 'error', error: { code: 'timeout' } });
    expect(aborted).toBe(true);
    expect(prompt.state).toBe('completed');
  });

  it('gives each call its own timeout, whatever the other calls of the run took or take', async () => {
    // Only the short deadlines can end these calls: were a call's timer the run's first deadline (a minute away),
    // the test would outlive its own timeout instead of asserting on a clock a loaded machine stretches.
    const wait = (id: string, timeoutMs: number, takesMs?: number) =>
      createTool({
        id,
        description: takesMs === undefined ? 'Never ends by itself.' : `Takes ${takesMs} ms.`,
        input: z.object({}),
        readOnly: true,
        timeoutMs,
        invoke: ({ signal }) =>
          new Promise((resolve, reject) => {
            const timer = takesMs === undefined ? undefined : setTimeout(() => resolve(id), takesMs);
            signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(signal.reason);
            });
          }),
      });
    const t = await createTestPlatform({
      plugins: [
        definePlugin({
          id: 'waits',
          tools: [wait('w.long', 60_000, 5), wait('w.short', 30), wait('w.ok', 60_000, 60)],
        }),
      ],
      script: [
        callTool('w.long'), // a long deadline first: the short one after it must still fire on time
        callTools({ name: 'w.ok' }, { name: 'w.short' }), // in parallel: one times out, the other finishes
        callTool('w.short'),
        reply('Done'),
      ],
    });
    const prompt = await t.send('go');
    expect(tools(prompt).map((call) => call.result?.type)).toEqual(['success', 'success', 'error', 'error']);
    expect(tools(prompt).map((call) => (call.result as { error?: { code: string } }).error?.code)).toEqual([
      undefined,
      undefined,
      'timeout',
      'timeout',
    ]);
  });

  it('runs read-only calls of one batch in parallel and other calls in order', async () => {
    const log: string[] = [];
    let release: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const look = createTool({
      id: 'io.look',
      description: 'Read something.',
      input: z.object({ n: z.number() }),
      readOnly: true,
      timeoutMs: 2_000,
      invoke: async ({ input }) => {
        log.push(`look ${input.n} start`);
        if (++started === 2) release();
        await bothStarted; // deadlocks (and times out) unless both run at once
        log.push(`look ${input.n} end`);
        return input.n;
      },
    });
    const write = createTool({
      id: 'io.write',
      description: 'Write something.',
      input: z.object({ n: z.number() }),
      invoke: async ({ input }) => {
        log.push(`write ${input.n} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`write ${input.n} end`);
        return input.n;
      },
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'io', tools: [look, write] })],
      script: [
        callTools(
          { name: 'io.look', args: { n: 1 } },
          { name: 'io.look', args: { n: 2 } },
          { name: 'io.write', args: { n: 3 } },
          { name: 'io.write', args: { n: 4 } },
        ),
        reply('Done'),
      ],
    });
    const prompt = await t.send('go');
    expect(tools(prompt).map((o) => o.result)).toEqual(
      [1, 2, 3, 4].map((n) => ({ type: 'success', output: n })),
    );
    expect(log.slice(0, 2).sort()).toEqual(['look 1 start', 'look 2 start']);
    expect(log.slice(4)).toEqual(['write 3 start', 'write 3 end', 'write 4 start', 'write 4 end']);
  });

  it('sends the model, every round, the history and the record as they are now, replaced outputs included', async () => {
    const { badgesPlugin } = await import('@tessera-fixtures/badges');
    const { plugin } = toolbox();
    const upgrades = definePlugin({
      id: 'upgrades',
      tools: [
        createTool({
          id: 'badges.upgrade',
          description: 'Upgrade the last badge.',
          input: z.object({}),
          invoke: async ({ outputs, update }) => {
            const badge = [...outputs()].reverse().find((o) => o.type === 'x-badges.badge');
            if (badge?.type !== 'x-badges.badge') return 'no badge';
            await update(badge.id, { type: 'x-badges.badge', label: `${badge.label}+`, level: 'gold' });
            return 'upgraded';
          },
        }),
      ],
    });
    const t = await createTestPlatform({
      plugins: [plugin, badgesPlugin, upgrades],
      script: [
        callTool('demo.echo', { text: 'earlier' }),
        reply('Earlier answer.'),
        callTool('badges.award', { label: 'First' }),
        callTool('badges.upgrade'),
        callTool('demo.echo', { text: 'x'.repeat(50) }),
        reply('Done'),
        reply('Third.'),
        reply('Fourth.'),
      ],
      maxResultChars: 40,
    });
    const first = await t.send('before');
    const second = await t.send('now');
    const requests = t.model.requests.slice(2);
    const last = requests.at(-1)!.messages;
    expect(last).toContainEqual({
      type: 'message',
      role: 'assistant',
      content: '[badge awarded: First+ (gold)]',
    });
    expect(JSON.stringify(last)).not.toContain('(bronze)');
    const upToNow = { ...second, output: second.output.slice(0, -1) }; // all but the final answer
    expect(last).toEqual(
      promptsToMessages([first, upToNow], { outputs: t.platform.outputs, maxResultChars: 40 }),
    );
    for (const request of requests) assertWellFormed(request.messages);
    // Each request is its own array: what the model was sent earlier did not grow afterwards.
    expect(requests.slice(0, 4).map((r) => r.messages.length)).toEqual([5, 8, 10, 12]);
    // The next prompts' history continues this one's (joined once, then extended, never stale).
    const third = await t.send('third');
    await t.send('fourth');
    const options = { outputs: t.platform.outputs, maxResultChars: 40 };
    expect(t.model.requests.at(-2)?.messages).toEqual(
      promptsToMessages([first, second, { ...third, output: [] }], options),
    );
    expect(t.model.requests.at(-1)?.messages).toEqual(
      promptsToMessages([first, second, third, { ...third, input: 'fourth', output: [] }], options),
    );
  });

  it('fails the prompt with a clear reason when the model fails, keeping streamed text', async () => {
    const t = await createTestPlatform({
      script: [
        (request) => {
          expect(request.messages).toHaveLength(1);
          return { error: new ModelError('rate limited for too long', { kind: 'rate_limit', status: 429 }) };
        },
      ],
    });
    const failed = await t.send('hi');
    expect(failed.state).toBe('failed');
    expect(failed.stopReason).toEqual({
      code: 'model_error',
      message: 'The model call failed: rate limited for too long',
    });
    const stored = await t.platform.getPrompt(failed.id, t.userId);
    expect(stored.state).toBe('failed');
  });

  it('accumulates token usage over rounds', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          ...callTool('demo.echo', { text: 'a' }),
          usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 50, cost: 0.5 },
        },
        reply('Done', { usage: { inputTokens: 200, outputTokens: 20, reasoningTokens: 7, cost: 0.25 } }),
      ],
    });
    const prompt = await t.send('go');
    expect(prompt.usage).toEqual({
      inputTokens: 300,
      outputTokens: 30,
      cachedInputTokens: 50,
      reasoningTokens: 7,
      totalTokens: 330,
      modelCalls: 2,
      cost: 0.75,
    });
    expect((await t.platform.getPrompt(prompt.id, t.userId)).usage).toEqual(prompt.usage);
  });

  it('bounds the results sent to the model and keeps the full value in the record', async () => {
    const big = createTool({
      id: 'data.big',
      description: 'Returns a lot.',
      input: z.object({}),
      invoke: () => 'x'.repeat(5_000),
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'data', tools: [big] })],
      maxResultChars: 300,
      script: [callTool('data.big'), reply('Done')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.result).toEqual({ type: 'success', output: 'x'.repeat(5_000) });
    const sent = t.model.requests[1]!.messages.find((m) => m.type === 'function_call_output');
    expect(sent?.type === 'function_call_output' && sent.output.length).toBeLessThan(400);
    expect(sent?.type === 'function_call_output' && sent.output).toContain('characters omitted');
  });

  it('records an error for a tool result that cannot be stored as JSON', async () => {
    const circular = createTool({
      id: 'data.circular',
      description: 'Returns a cycle.',
      input: z.object({}),
      invoke: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'data', tools: [circular] })],
      script: [callTool('data.circular'), reply('Done')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.result).toMatchObject({ type: 'error', error: { code: 'tool_failed' } });
  });
});

describe('one prompt per conversation', () => {
  it('refuses a second prompt while one runs, and while one waits for approval', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [reply('slow', { delayMs: 30 }), callTool('demo.delete', { id: 'r1' }), reply('Deleted')],
    });
    const first = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'one',
    });
    await expect(t.send('two')).rejects.toBeInstanceOf(ConversationBusyError);
    expect((await first.done).state).toBe('completed');
    const waiting = await t.send('delete r1');
    expect(waiting.state).toBe('waiting_for_approval');
    await expect(t.send('three')).rejects.toBeInstanceOf(ConversationBusyError);
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(prompts.map((p) => p.input)).toEqual(['one', 'delete r1']);
  });

  it('never interleaves outputs of concurrent sends', async () => {
    const t = await createTestPlatform({ script: [reply('a', { delayMs: 5 }), reply('b'), reply('c')] });
    const results = await Promise.allSettled([t.send('1'), t.send('2'), t.send('3')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.output).toHaveLength(1);
  });
});

describe('conversations', () => {
  it('are renamed by their user only, with a title of 1-200 characters', async () => {
    const t = await createTestPlatform();
    const renamed = await t.platform.conversations.rename(t.conversation.id, t.userId, '  Sales plan  ');
    expect(renamed.title).toBe('Sales plan');
    await expect(t.platform.conversations.rename(t.conversation.id, 'mallory', 'Mine')).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    for (const bad of ['   ', 'x'.repeat(201)]) {
      await expect(t.platform.conversations.rename(t.conversation.id, t.userId, bad)).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    expect((await t.platform.conversations.get(t.conversation.id, t.userId)).title).toBe('Sales plan');
  });

  it('take the title a send gives when they have none, with the prompt (also from a store without createWithHistory)', async () => {
    const memory = new MemoryStore();
    const { createWithHistory: _, ...prompts } = memory.prompts;
    const plain = new Proxy(memory, {
      get(target, property) {
        if (property === 'prompts') return prompts;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    for (const store of [memory, plain]) {
      const t = await createTestPlatform({ store, script: [reply('a'), reply('b')] });
      const send = { conversationId: t.conversation.id, userId: t.userId };
      await expect(t.platform.send({ ...send, input: 'x', title: ' ' })).rejects.toMatchObject({
        code: 'invalid_input',
      });
      expect(await t.platform.conversations.prompts(t.conversation.id, t.userId)).toEqual([]);
      const started = await t.platform.start({ ...send, input: 'Plan a trip', title: '  Plan a trip ' });
      expect(started.conversation.title).toBeUndefined(); // as it was: the caller can tell it named it
      await started.done;
      await t.platform.send({ ...send, input: 'More', title: 'More' });
      expect((await t.platform.conversations.get(t.conversation.id, t.userId)).title).toBe('Plan a trip');
    }
  });
});

describe('a prompt id chosen by the caller', () => {
  it('is used, and a second start with it is refused, whatever state the first is in', async () => {
    const t = await createTestPlatform({ script: [reply('Once.'), reply('never sent')] });
    const send = { conversationId: t.conversation.id, userId: t.userId, promptId: 'prm_fire-42' };
    const first = await t.platform.send(send);
    expect(first).toMatchObject({ id: 'prm_fire-42', state: 'completed' });
    await expect(t.platform.start({ ...send, input: 'again' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(t.platform.start({ ...send, promptId: '../etc' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(prompts.map((p) => [p.id, p.input])).toEqual([['prm_fire-42', undefined]]);
    expect(t.model.requests).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('cancels during the model call', async () => {
    const t = await createTestPlatform({ script: [reply('never', { delayMs: 5_000 })] });
    const controller = new AbortController();
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'hi',
      signal: controller.signal,
    });
    controller.abort();
    const prompt = await run.done;
    expect(prompt.state).toBe('cancelled');
    expect(prompt.stopReason?.code).toBe('cancelled');
    expect(prompt.output).toEqual([]);
  });

  it('cancels a running tool: the call gets a cancelled result, the tool sees its signal abort', async () => {
    let toolSignal: AbortSignal | undefined;
    let started: () => void = () => {};
    const isRunning = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hang = createTool({
      id: 'x.hang',
      description: 'Hangs.',
      input: z.object({}),
      invoke: ({ signal }) => {
        toolSignal = signal;
        started();
        return new Promise(() => {});
      },
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'x', tools: [hang] })],
      script: [callTools({ name: 'x.hang' }, { name: 'x.hang' })],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await isRunning;
    const cancelled = await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    expect(toolSignal?.aborted).toBe(true);
    const [first, second] = tools(cancelled);
    expect(first?.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    expect(second?.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    expect(second?.startedAt).toBeUndefined();
    assertWellFormed(
      (await import('../src/index.ts')).promptsToMessages([cancelled], { outputs: t.platform.outputs }),
    );
  });
});

describe('budgets', () => {
  it('pauses after max rounds with a clear reason (budgets.test.ts has the rest)', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxRounds: 3 },
      script: Array.from({ length: 5 }, (_, i) => callTool('demo.echo', { text: String(i) })),
    });
    const prompt = await t.send('loop forever');
    expect(prompt.state).toBe('waiting_for_approval');
    expect(prompt.output.at(-1)).toMatchObject({ type: 'pause', source: 'budget' });
    expect(prompt.output.at(-1)).toMatchObject({ reason: expect.stringContaining('3 model calls') });
    expect(t.model.requests).toHaveLength(3);
    expect(tools(prompt)).toHaveLength(3);
  });

  it('stops at the wall-time budget, aborting what runs', async () => {
    const hang = createTool({
      id: 'x.hang',
      description: 'Hangs.',
      input: z.object({}),
      invoke: () => new Promise(() => {}),
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'x', tools: [hang] })],
      budgets: { maxWallTimeMs: 30 },
      script: [callTool('x.hang')],
    });
    const prompt = await t.send('go');
    expect(prompt.state).toBe('completed');
    expect(prompt.stopReason?.code).toBe('max_wall_time');
    expect(tools(prompt)[0]?.result).toMatchObject({ type: 'error', error: { code: 'budget_exceeded' } });
  });
});

describe('events', () => {
  /**
   * A platform with one tool, `t.run` (or the toolbox's `demo.echo`), that the model calls once before it
   * answers; its store counts the prompt writes, and the conversation's events are kept.
   */
  const counted = async (
    tool: 'demo.echo' | { readOnly?: boolean; invoke: (call: ToolInput<{ text: string }>) => unknown },
  ) => {
    const store = new MemoryStore();
    let writes = 0;
    const update = store.prompts.update.bind(store.prompts);
    store.prompts.update = (...args) => {
      writes++;
      return update(...args);
    };
    const plugin =
      tool === 'demo.echo'
        ? toolbox().plugin
        : definePlugin({
            id: 't',
            tools: [
              createTool({
                id: 't.run',
                description: 'Runs.',
                input: z.object({ text: z.string() }),
                ...tool,
              }),
            ],
          });
    const script = [callTool(tool === 'demo.echo' ? tool : 't.run', { text: 'a' }), reply('Done')];
    const t = await createTestPlatform({ plugins: [plugin], store, script });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({ conversationId: t.conversation.id }, (e) => {
      events.push(e);
    });
    return { t, events, writes: () => writes, store };
  };

  it('publishes every new output, updates, and the end, in order', async () => {
    const { t, events } = await counted({ invoke: () => ({ written: true }) });
    await t.send('go');
    expect(events.map((e) => e.type)).toEqual([
      'prompt.started',
      'prompt.output', // the tool call, running: written before its tool (which has side effects) runs
      'prompt.output-updated', // its result
      'prompt.text-delta',
      'prompt.output', // the text
      'prompt.completed',
    ]);
  });

  it('writes a read-only call that ends at once with its result, in one write and one event', async () => {
    const { t, events, writes } = await counted('demo.echo');
    const prompt = await t.send('go');
    expect(events.map((e) => e.type)).toEqual([
      'prompt.started',
      'prompt.output', // the call, run and ended
      'prompt.text-delta',
      'prompt.output',
      'prompt.completed',
    ]);
    expect(events[1]).toMatchObject({
      output: { type: 'tool', startedAt: expect.any(String), result: { type: 'success' } },
    });
    expect(writes()).toBe(2); // the call with its result, then the text with the final state
    expect(tools(prompt)[0]).toMatchObject({ result: { type: 'success', output: { echoed: 'a' } } });
  });

  it('runs a read-only call before it is written: a crash then loses the model call whole', async () => {
    const stored: unknown[] = [];
    const { t, store } = await counted({
      readOnly: true,
      invoke: async ({ promptId }) => {
        stored.push((await store.prompts.get(promptId))?.output);
        return { read: true };
      },
    });
    const prompt = await t.send('go');
    // Nothing of the round is in the store while the tool runs (its usage neither): recovery asks again.
    expect(stored).toEqual([[]]);
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
    expect(prompt.usage.modelCalls).toBe(2);
  });

  it('writes a read-only call that runs longer before its result, and what it emits after it', async () => {
    let finish = () => {};
    const { t, events } = await counted({
      readOnly: true,
      invoke: async ({ emit }) => {
        await new Promise<void>((resolve) => (finish = resolve));
        await emit({ type: 'text', text: 'progress' });
        return { read: true };
      },
    });
    const sending = t.send('go');
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('prompt.output'), { timeout: 30_000 });
    // Running past QUIET_START_MS, the call is written (and shown) running, without its result.
    expect(events.at(-1)).toMatchObject({
      type: 'prompt.output',
      output: { type: 'tool', startedAt: expect.any(String) },
    });
    expect(events.at(-1)).not.toHaveProperty('output.result');
    finish();
    const prompt = await sending;
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text', 'text']);
    expect(events.map((e) => e.type)).toEqual([
      'prompt.started',
      'prompt.output',
      'prompt.output', // what it emitted, after its call
      'prompt.output-updated',
      'prompt.text-delta',
      'prompt.output',
      'prompt.completed',
    ]);
  });

  it('writes a read-only call before what it emits, even when it emits at once', async () => {
    const { t, events } = await counted({
      readOnly: true,
      invoke: async ({ emit }) => {
        await emit({ type: 'text', text: 'shown' });
        return { read: true };
      },
    });
    const prompt = await t.send('go');
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text', 'text']);
    expect(prompt.output[1]).toMatchObject({ text: 'shown', toolCallId: prompt.output[0]!.id });
    expect(events.map((e) => e.type).slice(0, 4)).toEqual([
      'prompt.started',
      'prompt.output',
      'prompt.output',
      'prompt.output-updated',
    ]);
  });
});
