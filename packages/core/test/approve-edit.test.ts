import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalInputError, definePlugin, type TesseraEvent, type ToolOutput } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const calls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

describe('approve with edited arguments', () => {
  it('runs the call with the approved arguments, keeps both in the record, and sends the model the approved ones', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.pay', { amount: 500 }), reply('Paid.')],
    });
    const paused = await t.send('pay 500');
    const [pending] = calls(paused);
    const done = await t.platform.approve(pending!.id, { userId: t.userId, input: { amount: 50 } });
    expect(done.state).toBe('completed');
    expect(ran).toEqual([{ tool: 'demo.pay', input: { amount: 50 } }]);
    const [call] = calls(done);
    expect(call).toMatchObject({
      input: { amount: 500 },
      editedInput: { amount: 50 },
      editedBy: t.userId,
      approval: { decision: 'approved' },
      result: { type: 'success', output: { sent: 50 } },
    });
    const sent = t.model.requests[1]!.messages.find((m) => m.type === 'function_call');
    expect(sent).toMatchObject({ arguments: JSON.stringify({ amount: 50 }) });
  });

  it('refuses arguments the schema does not accept with ApprovalInputError; the call still waits, nothing ran', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.pay', { amount: 500 }), reply('ok')],
    });
    const paused = await t.send('pay');
    const [pending] = calls(paused);
    const error = await t.platform
      .approve(pending!.id, { userId: t.userId, input: { amount: -1 } })
      .catch((e) => e);
    expect(ApprovalInputError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_approval_input', toolCallId: pending!.id });
    expect(error.message).toMatch(/amount/);
    const still = await t.platform.getPrompt(paused.id, t.userId);
    expect(still.state).toBe('waiting_for_approval');
    expect(calls(still)[0]?.result?.type).toBe('pending');
    expect(ran).toEqual([]);
    expect((await t.platform.approve(pending!.id, { userId: t.userId, input: { amount: 7 } })).state).toBe(
      'completed',
    );
  });

  it('validates an edit against a tool a plugin offers from prepare()', async () => {
    const ran: unknown[] = [];
    const plugin = definePlugin({
      id: 'dyn',
      prepare: ({ tools, tool }) => {
        tools.push(
          tool({
            id: 'dyn.send',
            description: 'Send.',
            input: z.object({ to: z.email() }),
            requireApproval: { required: true },
            invoke: ({ input }) => ran.push(input),
          }),
        );
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('dyn.send', { to: 'a@b.co' }), reply('ok')],
    });
    const [pending] = calls(await t.send('send'));
    await expect(
      t.platform.approve(pending!.id, { userId: t.userId, input: { to: 'nope' } }),
    ).rejects.toThrow(ApprovalInputError);
    await t.platform.approve(pending!.id, { userId: t.userId, input: { to: 'c@d.co' } });
    expect(ran).toEqual([{ to: 'c@d.co' }]);
  });
});

describe('prompt.cancelled', () => {
  it('is published for a cancelled running prompt and a cancelled waiting one, never prompt.failed', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('demo.delete', { id: 'x' }), reply('slow', { delayMs: 60_000 })],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (event) => {
      events.push(event);
    });
    const waiting = await t.send('delete');
    expect(waiting.state).toBe('waiting_for_approval');
    const cancelled = await t.platform.cancel(waiting.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    expect((await t.platform.cancel(run.prompt.id, { userId: t.userId })).state).toBe('cancelled');
    const ends = events.filter((e) => e.type === 'prompt.cancelled' || e.type === 'prompt.failed');
    expect(ends.map((e) => [e.type, e.promptId])).toEqual([
      ['prompt.cancelled', waiting.id],
      ['prompt.cancelled', run.prompt.id],
    ]);
  });
});

describe('resuming after approval', () => {
  it('runs prepare() once for the resumed calls and once for the next model call', async () => {
    const { plugin } = toolbox();
    const rounds: number[] = [];
    const counting = definePlugin({
      id: 'counting',
      prepare: ({ round }) => {
        rounds.push(round);
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, counting],
      script: [callTool('demo.delete', { id: 'x' }), reply('Deleted.')],
    });
    const [pending] = calls(await t.send('delete'));
    expect(rounds).toEqual([0]);
    await t.approve(pending!.id);
    // Once for the round the approved call belongs to (in this run, as another process would), once for
    // the model call after it: not once more per step, as it used to.
    expect(rounds).toEqual([0, 0, 1]);
  });
});
