import {
  assertWellFormed,
  callTool,
  callTools,
  createTestPlatform,
  reply,
  ScriptedModel,
} from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  createPlatform,
  createTool,
  definePlugin,
  MemoryStore,
  NotFoundError,
  promptsToMessages,
  type TesseraEvent,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const toolCalls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

describe('approval', () => {
  it('pauses with a pending result in place, an event, and the tool not run', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'r1' })],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (e) => {
      events.push(e);
    });
    const prompt = await t.send('delete r1');
    expect(prompt.state).toBe('waiting_for_approval');
    const [call] = toolCalls(prompt);
    expect(call?.result).toEqual({ type: 'pending', reason: 'This permanently deletes data.' });
    expect(ran).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'prompt.approval-requested',
      toolCallId: call?.id,
      toolId: 'demo.delete',
      input: { id: 'r1' },
      reason: 'This permanently deletes data.',
    });
    expect((await t.platform.getPrompt(prompt.id, t.userId)).state).toBe('waiting_for_approval');
  });

  it('approve() runs the tool once with the original input, replaces pending in place and resumes', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'r1' }), reply('Deleted.')],
    });
    const paused = await t.send('delete r1');
    const [pending] = toolCalls(paused);
    const done = await t.approve(pending!.id);
    expect(ran).toEqual([{ tool: 'demo.delete', input: { id: 'r1' } }]);
    expect(done.state).toBe('completed');
    expect(done.output.map((o) => o.type)).toEqual(['tool', 'text']);
    const [call] = toolCalls(done);
    expect(call?.id).toBe(pending?.id);
    expect(call?.result).toEqual({ type: 'success', output: { deleted: 'r1' } });
    expect(call?.approval).toMatchObject({
      reason: 'This permanently deletes data.',
      decision: 'approved',
      decidedBy: t.userId,
    });
    await expect(t.approve(pending!.id)).rejects.toBeInstanceOf(ConflictError);
    expect(ran).toHaveLength(1);
  });

  it('reject() records an error the model reads, never runs the tool, and resumes', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'r1' }), reply('Understood, I will not delete it.')],
    });
    const paused = await t.send('delete r1');
    const done = await t.reject(toolCalls(paused)[0]!.id, 'I still need that record');
    expect(ran).toEqual([]);
    expect(done.state).toBe('completed');
    expect(toolCalls(done)[0]?.result).toMatchObject({ type: 'error', error: { code: 'rejected' } });
    const output = t.model.requests[1]!.messages.find((m) => m.type === 'function_call_output');
    expect(output?.type === 'function_call_output' && output.output).toContain('did not approve');
    expect(output?.type === 'function_call_output' && output.output).toContain('I still need that record');
  });

  it('asks for approval as a function of the input, and fails closed when that function throws', async () => {
    const { plugin, ran } = toolbox();
    const risky = createTool({
      id: 'risky.check',
      description: 'Has a broken approval check.',
      input: z.object({}),
      requireApproval: () => {
        throw new Error('policy service down');
      },
      invoke: () => 'ran',
    });
    const t = await createTestPlatform({
      plugins: [plugin, definePlugin({ id: 'risky', tools: [risky] })],
      script: [callTool('demo.pay', { amount: 50 }), callTool('demo.pay', { amount: 500 })],
    });
    const first = await t.send('pay 50');
    expect(first.state).toBe('waiting_for_approval');
    expect(ran).toEqual([{ tool: 'demo.pay', input: { amount: 50 } }]);
    expect(toolCalls(first)[1]?.result).toEqual({
      type: 'pending',
      reason: 'Sending $500 requires approval.',
    });

    const t2 = await createTestPlatform({
      plugins: [plugin, definePlugin({ id: 'risky', tools: [risky] })],
      script: [callTool('risky.check')],
    });
    const second = await t2.send('go');
    expect(second.state).toBe('waiting_for_approval');
    expect(JSON.stringify(toolCalls(second)[0]?.result)).toContain('policy service down');
  });

  it('defers the rest of the batch, then processes it in order after the decision', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools(
          { name: 'demo.echo', args: { text: 'before' } },
          { name: 'demo.delete', args: { id: 'r1' } },
          { name: 'demo.echo', args: { text: 'after' } },
          { name: 'demo.delete', args: { id: 'r2' } },
        ),
        reply('All done.'),
      ],
    });
    const paused = await t.send('go');
    expect(ran).toEqual([{ tool: 'demo.echo', input: { text: 'before' } }]);
    const calls = toolCalls(paused);
    expect(calls.map((c) => c.result?.type)).toEqual(['success', 'pending', undefined, undefined]);
    expect(calls[2]?.startedAt).toBeUndefined();
    assertWellFormed(promptsToMessages([paused], { outputs: t.platform.outputs }));

    const pausedAgain = await t.approve(calls[1]!.id);
    expect(pausedAgain.state).toBe('waiting_for_approval');
    expect(ran.map((r) => r.input)).toEqual([{ text: 'before' }, { id: 'r1' }, { text: 'after' }]);
    const done = await t.reject(toolCalls(pausedAgain)[3]!.id);
    expect(done.state).toBe('completed');
    expect(toolCalls(done).map((c) => c.result?.type)).toEqual(['success', 'success', 'success', 'error']);
    expect(t.model.requests).toHaveLength(2);
    assertWellFormed(t.model.requests[1]!.messages);
  });

  it('refuses unknown, foreign and already-decided calls and changes nothing', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'r1' }), reply('ok')],
    });
    const paused = await t.send('delete');
    const id = toolCalls(paused)[0]!.id;
    await expect(t.approve('call_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.platform.approve(id, { userId: 'someone_else' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(t.platform.reject(id, { userId: 'someone_else' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await t.platform.getPrompt(paused.id, t.userId)).toEqual(paused);
    await t.reject(id);
    await expect(t.approve(id)).rejects.toBeInstanceOf(ConflictError);
    expect(ran).toEqual([]);
  });

  it('runs the tool at most once when approvals race', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'r1' }), reply('ok')],
    });
    const id = toolCalls(await t.send('delete'))[0]!.id;
    const results = await Promise.allSettled([t.approve(id), t.approve(id), t.reject(id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(ran.length).toBeLessThanOrEqual(1);
  });

  it('resumes from the store alone: another platform instance approves a prompt paused by the first', async () => {
    const store = new MemoryStore();
    const first = toolbox();
    const a = createPlatform({
      plugins: [first.plugin],
      store,
      model: new ScriptedModel([callTool('demo.delete', { id: 'r9' })]),
    });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const paused = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'delete r9' });
    expect(paused.state).toBe('waiting_for_approval');

    const second = toolbox();
    const model = new ScriptedModel([reply('Deleted r9.')]);
    const b = createPlatform({ plugins: [second.plugin], store, model });
    const done = await b.approve(toolCalls(paused)[0]!.id, { userId: 'u1' });
    expect(done.state).toBe('completed');
    expect(first.ran).toEqual([]);
    expect(second.ran).toEqual([{ tool: 'demo.delete', input: { id: 'r9' } }]);
    expect(model.requests[0]?.messages.map((m) => m.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
  });

  it('a cancel that meets the loop as it pauses still ends the prompt cancelled', async () => {
    const { plugin, ran } = toolbox();
    const store = new MemoryStore();
    let cancelling: Promise<unknown> | undefined;
    const platform = createPlatform({
      plugins: [plugin],
      model: new ScriptedModel([callTool('demo.delete', { id: 'a' })]),
      store: {
        ...store,
        prompts: {
          ...store.prompts,
          // The cancel arrives while the loop writes its pause: the loop ends waiting, not aborted.
          update: (id, patch, options) => {
            if (patch.state === 'waiting_for_approval') cancelling = platform.cancel(id, { userId: 'ada' });
            return store.prompts.update(id, patch, options);
          },
        },
      },
    });
    const conversation = await platform.conversations.create({ userId: 'ada' });
    await platform.send({ conversationId: conversation.id, userId: 'ada', input: 'go' });
    const cancelled = (await cancelling) as { state: string; output: { type: string }[] };
    expect(cancelled.state).toBe('cancelled');
    expect(toolCalls(cancelled)[0]?.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    expect(ran).toEqual([]);
  });

  it('cancels a prompt waiting for approval, closing every open call', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools({ name: 'demo.delete', args: { id: 'a' } }, { name: 'demo.echo', args: { text: 'x' } }),
      ],
    });
    const paused = await t.send('go');
    const cancelled = await t.platform.cancel(paused.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    expect(toolCalls(cancelled).map((c) => c.result)).toEqual([
      expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'cancelled' }) }),
      expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'cancelled' }) }),
    ]);
    await expect(t.approve(toolCalls(paused)[0]!.id)).rejects.toBeInstanceOf(ConflictError);
    expect(ran).toEqual([]);
    expect((await t.send('next')).state).toBeDefined();
  });
});
