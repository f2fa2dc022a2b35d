import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { definePlugin, isCall, type PluginHooks, type TesseraEvent, type ToolOutput } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const calls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

const hooking = (id: string, hooks: PluginHooks<unknown>) => definePlugin({ id, hooks });

/** The events a platform publishes, gathered. */
function eventsOf(t: Awaited<ReturnType<typeof createTestPlatform>>) {
  const events: TesseraEvent[] = [];
  t.platform.events.subscribe({}, (event) => {
    events.push(event);
  });
  return events;
}

describe('hooks', () => {
  it('beforeToolCall: hooks edit in plugin order, each seeing the last edit; the model is sent what ran', async () => {
    const { plugin, ran, tools } = toolbox();
    const seen: unknown[] = [];
    const upper = hooking('upper', {
      beforeToolCall: ({ call }) => {
        seen.push(call.input);
        return isCall(call, tools.echo) ? { input: { text: call.input.text.toUpperCase() } } : undefined;
      },
    });
    const exclaim = hooking('exclaim', {
      beforeToolCall: ({ call }) => {
        seen.push(call.input);
        return isCall(call, tools.echo) ? { input: { text: `${call.input.text}!` } } : undefined;
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, upper, exclaim],
      script: [callTool('demo.echo', { text: 'hi' }), reply('Done.')],
    });
    const prompt = await t.send('echo');
    expect(seen).toEqual([{ text: 'hi' }, { text: 'HI' }]);
    expect(ran).toEqual([{ tool: 'demo.echo', input: { text: 'HI!' } }]);
    const [call] = calls(prompt);
    expect(call).toMatchObject({
      input: { text: 'hi' },
      editedInput: { text: 'HI!' },
      editedBy: 'plugin:exclaim',
      editors: ['plugin:upper', 'plugin:exclaim'],
    });
    const sent = t.model.requests[1]!.messages.find((m) => m.type === 'function_call');
    expect(sent).toMatchObject({ arguments: JSON.stringify({ text: 'HI!' }) });
  });

  it('beforeToolCall: an edit the schema refuses is a hook failure, recorded and published; the tool never runs', async () => {
    const { plugin, ran } = toolbox();
    const broken = hooking('broken', { beforeToolCall: () => ({ input: { text: 42 } }) });
    const t = await createTestPlatform({
      plugins: [plugin, broken],
      script: [callTool('demo.echo', { text: 'hi' }), reply('Done.')],
    });
    const events = eventsOf(t);
    const prompt = await t.send('echo');
    expect(ran).toEqual([]);
    expect(prompt.state).toBe('completed');
    expect(calls(prompt)[0]?.result).toMatchObject({ type: 'error', error: { code: 'hook_failed' } });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'prompt.hook-failed', plugin: 'broken', hook: 'beforeToolCall' }),
    );
  });

  it('beforeToolCall: skips a call with a recorded result, or makes it wait for approval (never waives one)', async () => {
    const { plugin, ran } = toolbox();
    const policy = hooking('policy', {
      beforeToolCall: ({ call }) => {
        if (call.toolId === 'demo.echo') return { skip: { output: 'cached' } };
        if (call.toolId === 'demo.pay') return { requireApproval: 'Payments are checked by policy.' };
        return undefined;
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, policy],
      script: [
        callTools({ name: 'demo.echo', args: { text: 'x' } }, { name: 'demo.pay', args: { amount: 5 } }),
        reply('ok'),
      ],
    });
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    const [echo, pay] = calls(paused);
    expect(echo?.result).toEqual({ type: 'success', output: 'cached' });
    expect(pay?.result).toEqual({ type: 'pending', reason: 'Payments are checked by policy.' });
    expect(ran).toEqual([]);
    const done = await t.approve(pay!.id);
    expect(done.state).toBe('completed');
    expect(ran).toEqual([{ tool: 'demo.pay', input: { amount: 5 } }]);
  });

  it('beforeToolCall: a call that waits is shown with the arguments it would run with; every editor is kept', async () => {
    const { plugin, ran, tools } = toolbox();
    const redirect = hooking('redirect', {
      beforeToolCall: ({ call }) =>
        isCall(call, tools.remove) ? { input: { id: `archive/${call.input.id}` } } : undefined,
    });
    const t = await createTestPlatform({
      plugins: [plugin, redirect],
      script: [callTool('demo.delete', { id: 'x' }), reply('Done.')],
    });
    const events = eventsOf(t);
    const paused = await t.send('delete x');
    const requested = events.find((e) => e.type === 'prompt.approval-requested');
    expect(requested).toMatchObject({ toolId: 'demo.delete', input: { id: 'archive/x' } });
    const done = await t.approve(t.pendingCall(paused).id, { id: 'archive/y' });
    expect(ran).toEqual([{ tool: 'demo.delete', input: { id: 'archive/y' } }]);
    expect(calls(done)[0]).toMatchObject({
      input: { id: 'x' },
      editedBy: t.userId,
      editors: ['plugin:redirect', t.userId],
    });
  });

  it('afterToolCall: the model reads the rewritten result; the record keeps what the tool returned', async () => {
    const { plugin } = toolbox();
    const redact = hooking('redact', {
      afterToolCall: ({ result }) =>
        result.type === 'success' ? { result: { output: { echoed: '[redacted]' } } } : undefined,
    });
    const t = await createTestPlatform({
      plugins: [plugin, redact],
      script: [callTool('demo.echo', { text: 'secret' }), reply('Done.')],
    });
    const prompt = await t.send('echo');
    const [call] = calls(prompt);
    expect(call?.result).toEqual({ type: 'success', output: { echoed: 'secret' } });
    expect(call?.rewrittenResult).toEqual({ type: 'success', output: { echoed: '[redacted]' } });
    const output = t.model.requests[1]!.messages.find((m) => m.type === 'function_call_output');
    expect(output).toMatchObject({ output: JSON.stringify({ echoed: '[redacted]' }) });
  });

  it('afterToolCall that throws withholds the result from the model (failing closed) and is published', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [
        plugin,
        hooking('flaky', {
          afterToolCall: () => {
            throw new Error('redactor down');
          },
        }),
      ],
      script: [callTool('demo.echo', { text: 'secret' }), reply('Done.')],
    });
    const events = eventsOf(t);
    const prompt = await t.send('echo');
    const [call] = calls(prompt);
    expect(call?.result).toEqual({ type: 'success', output: { echoed: 'secret' } });
    expect(call?.rewrittenResult).toMatchObject({ type: 'error', error: { code: 'hook_failed' } });
    const output = t.model.requests[1]!.messages.find((m) => m.type === 'function_call_output');
    expect(JSON.stringify(output)).not.toContain('secret');
    expect(events.some((e) => e.type === 'prompt.hook-failed' && e.toolCallId === call?.id)).toBe(true);
  });

  it('beforeModelCall: changes instructions and takes a tool away; a call to it is then unknown', async () => {
    const { plugin, ran } = toolbox();
    const narrow = hooking('narrow', {
      beforeModelCall: ({ request }) => ({
        instructions: `${request.instructions}\nBe brief.`,
        tools: request.tools.filter((tool) => tool.name !== 'demo.echo'),
      }),
    });
    const t = await createTestPlatform({
      plugins: [plugin, narrow],
      instructions: 'You help.',
      script: [callTool('demo.echo', { text: 'x' }), reply('ok')],
    });
    const prompt = await t.send('go');
    expect(t.model.requests[0]?.instructions).toBe('You help.\nBe brief.');
    expect(t.model.requests[0]?.tools.map((tool) => tool.name)).not.toContain('demo.echo');
    expect(calls(prompt)[0]?.result).toMatchObject({ error: { code: 'unknown_tool' } });
    expect(ran).toEqual([]);
  });

  it('beforeModelCall: skips the call, recording its text as the answer', async () => {
    const t = await createTestPlatform({
      plugins: [hooking('cache', { beforeModelCall: () => ({ skip: { text: 'From the cache.' } }) })],
      script: [],
    });
    const prompt = await t.send('hello');
    expect(prompt.state).toBe('completed');
    expect(prompt.output).toMatchObject([{ type: 'text', text: 'From the cache.' }]);
    expect(t.model.requests).toHaveLength(0);
    expect(prompt.usage.modelCalls).toBe(1);
  });

  it('a hook that throws or breaks the messages fails the prompt with hook_failed, closing open calls', async () => {
    const { plugin, ran } = toolbox();
    const dropper = hooking('dropper', {
      beforeModelCall: ({ request, round }) =>
        round === 1
          ? { messages: request.messages.filter((m) => m.type !== 'function_call_output') }
          : undefined,
    });
    const t = await createTestPlatform({
      plugins: [plugin, dropper],
      script: [callTool('demo.echo', { text: 'x' }), reply('never')],
    });
    const events = eventsOf(t);
    const prompt = await t.send('go');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason?.code).toBe('hook_failed');
    expect(prompt.stopReason?.message).toMatch(/dropper.*beforeModelCall.*without an output/);
    expect(ran).toHaveLength(1);
    expect(events.map((e) => e.type)).toContain('prompt.hook-failed');

    const t2 = await createTestPlatform({
      plugins: [
        plugin,
        hooking('after', {
          afterModelCall: () => {
            throw new Error('nope');
          },
        }),
      ],
      script: [callTool('demo.echo', { text: 'y' })],
    });
    const failed = await t2.send('go');
    expect(failed.stopReason?.code).toBe('hook_failed');
    expect(calls(failed)[0]?.result).toMatchObject({ error: { code: 'cancelled' } }); // every call, one result
  });

  it('a hook that never settles does not hold the prompt: cancel ends it', async () => {
    const t = await createTestPlatform({
      plugins: [hooking('stuck', { beforeModelCall: () => new Promise(() => {}) })],
      script: [reply('never')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    const events = eventsOf(t);
    const cancelled = await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    expect(events.map((e) => e.type)).toContain('prompt.cancelled');
    expect(events.map((e) => e.type)).not.toContain('prompt.failed');
  });

  it('betweenRounds: pauses for the user (continue runs the next round), or stops the prompt', async () => {
    const { plugin } = toolbox();
    const checkpoint = hooking('checkpoint', {
      betweenRounds: ({ round }) => (round === 1 ? { pause: 'Review before going on.' } : undefined),
    });
    const t = await createTestPlatform({
      plugins: [plugin, checkpoint],
      script: [callTool('demo.echo', { text: 'x' }), reply('Done.')],
    });
    const events = eventsOf(t);
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    const pause = paused.output.at(-1)!;
    expect(pause).toMatchObject({
      type: 'pause',
      source: 'plugin',
      plugin: 'checkpoint',
      reason: 'Review before going on.',
    });
    expect(events.at(-1)).toMatchObject({ type: 'prompt.pause-requested', outputId: pause.id });
    const done = await t.platform.resume(pause.id, { userId: t.userId, choice: 'continue' }); // as approve()
    expect(done.state).toBe('completed');
    expect(done.output.find((o) => o.id === pause.id)).toMatchObject({
      decision: 'continue',
      decidedBy: t.userId,
    });
    await expect(t.platform.resume(pause.id, { userId: t.userId, choice: 'stop' })).rejects.toThrow(
      /already decided/,
    );

    const stopper = hooking('stopper', { betweenRounds: () => ({ stop: 'Enough.' }) });
    const t2 = await createTestPlatform({
      plugins: [plugin, stopper],
      script: [callTool('demo.echo', { text: 'x' })],
    });
    const stopped = await t2.send('go');
    expect(stopped.state).toBe('completed');
    expect(stopped.stopReason).toMatchObject({
      code: 'stopped_by_plugin',
      message: expect.stringContaining('Enough.'),
    });
  });
});
