import { createTool, defineOutput, definePlugin, type OutputOf } from '@tessera/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { callTool, callTools, createTestPlatform, reply } from '../src/index.ts';

// An outside plugin, as a team would publish it: a tool that needs approval for large amounts, typed state,
// an output variant of its own, and a tool offered from the second round of a prompt on.
const Ledger = z.object({ sent: z.number() }).default({ sent: 0 });

const receipt = defineOutput({
  type: 'payments.receipt',
  fields: { to: z.string(), amount: z.number() },
  project: { summary: (r) => `Receipt: ${r.amount} to ${r.to}` },
});
declare module '@tessera/core' {
  interface PromptOutputTypes {
    'payments.receipt': OutputOf<typeof receipt>;
  }
}

const send = createTool({
  id: 'payments.send',
  description: 'Sends money to someone.',
  input: z.object({ to: z.string(), amount: z.number().positive() }),
  state: Ledger,
  requireApproval: ({ input }) => ({
    required: input.amount > 100,
    reason: `Sending ${input.amount} needs approval.`,
  }),
  invoke: async ({ input, state, emit }) => {
    if (input.to === 'mallory') throw new Error('Mallory is blocked.');
    await state.update((ledger) => ({ sent: ledger.sent + input.amount }));
    await emit({ type: 'payments.receipt', to: input.to, amount: input.amount });
    return { sent: state.get().sent };
  },
});

const undo = createTool({
  id: 'payments.undo',
  description: 'Undoes the last payment.',
  input: z.object({}),
  invoke: () => 'undone',
});

const payments = definePlugin({
  id: 'payments',
  // Release 1 stored { total }: a conversation it wrote is migrated on first use.
  state: {
    schema: Ledger,
    version: 2,
    migrate: (old, from) => (from === 1 ? { sent: (old as { total: number }).total } : old),
  },
  outputs: [receipt],
  tools: [send],
  // Undo only makes sense once the model has seen a payment's result: from round 1 (the second) on.
  prepare: ({ round, tools }) => {
    if (round > 0) tools.push(undo);
  },
});

describe('testing an outside plugin with the kit', () => {
  // The README's example: a failed call's error, what the model read, and state an older release stored.
  it('refuses blocked recipients, tells the model, and keeps the migrated ledger', async () => {
    const t = await createTestPlatform({ plugins: [payments] });
    await t.seedState(payments, { version: 1, state: { total: 30 } }); // as release 1 stored it
    t.model.push(callTool('payments.send', { to: 'mallory', amount: 5 }), reply('Not sent.'));
    const prompt = await t.send('Send 5 to Mallory');
    expect(t.toolError(prompt, send)).toMatchObject({ code: 'tool_failed', message: 'Mallory is blocked.' });
    expect(t.model.read()).toContain('Mallory is blocked.'); // the model's last request
    expect(await t.state(payments)).toEqual({ sent: 30 });
  });

  it('pays small amounts at once and large ones after approval, with a receipt each time', async () => {
    const t = await createTestPlatform({ plugins: [payments] });
    t.model.push(callTool('payments.send', { to: 'ada', amount: 20 }), reply('Sent.'));
    let prompt = await t.send('Send 20 to Ada');
    expect(t.toolResult(prompt, send)).toEqual({ sent: 20 });
    expect(t.model.toolsOffered(0)).toEqual(['payments.send']);
    expect(t.model.toolsOffered(1)).toEqual(['payments.send', 'payments.undo']);

    t.model.push(callTool('payments.send', { to: 'bob', amount: 500 }), reply('Sent.'));
    prompt = await t.send('Send 500 to Bob');
    expect(t.pendingCall(prompt).result).toEqual({ type: 'pending', reason: 'Sending 500 needs approval.' });
    expect(await t.state(payments)).toEqual({ sent: 20 });

    prompt = await t.approvePending();
    expect(prompt.state).toBe('completed');
    expect(await t.state(payments)).toEqual({ sent: 520 });
    expect(t.outputs(prompt, 'payments.receipt')).toMatchObject([{ to: 'bob', amount: 500 }]);
    expect(t.outputs(prompt, receipt)[0]?.amount).toBe(500);
  });

  it('says what the prompt holds when a call is not there or did not succeed', async () => {
    const t = await createTestPlatform({
      plugins: [payments],
      script: [callTool('payments.send', { to: 'eve', amount: 900 }), reply('Not sent.')],
    });
    await t.setState(payments, { sent: 7 });
    let prompt = await t.send('Send 900 to Eve');
    expect(() => t.toolResult(prompt, send)).toThrow(
      "The call of 'payments.send' did not succeed: pending (Sending 900 needs approval.).",
    );
    prompt = await t.rejectPending({ reason: 'Not Eve.' });
    expect(() => t.pendingCall(prompt)).toThrow(
      /found none\.\nPrompt prm_\S+ is completed, with 2 outputs:\n {2}0: tool/,
    );
    expect(() => t.toolResult(prompt, send)).toThrow('→ error {"code":"rejected"');
    expect(() => t.toolResult(prompt, 'payments.undo')).toThrow(
      "Expected one call of 'payments.undo', found 0.",
    );
    await expect(t.approvePending()).rejects.toThrow(
      'No prompt of the conversation waits for approval. Prompt prm_',
    );
    expect(() => t.model.toolsOffered(5)).toThrow('it was called 2 times');
    expect(await t.state(payments)).toEqual({ sent: 7 });
  });

  it('approves calls of one batch one after the other, as the loop asks for them', async () => {
    const big = (to: string) => ({ name: 'payments.send', args: { to, amount: 200 } });
    const t = await createTestPlatform({
      plugins: [payments],
      script: [callTools(big('ann'), big('ben')), reply('Paid.')],
    });
    let prompt = await t.send('Pay Ann and Ben');
    expect(t.pendingCall(prompt, 'payments.send').input).toEqual({ to: 'ann', amount: 200 });
    expect(() => t.pendingCall(prompt, 'payments.undo')).toThrow(
      "Expected one call of 'payments.undo' waiting for approval, found none.",
    );
    prompt = await t.approvePending();
    expect(t.pendingCall(prompt).input).toEqual({ to: 'ben', amount: 200 });
    prompt = await t.approvePending({ toolId: 'payments.send' });
    expect(t.outputs(prompt, receipt).map((r) => r.to)).toEqual(['ann', 'ben']);
    expect(() => t.toolResult(prompt, send)).toThrow("Expected one call of 'payments.send', found 2;");
    expect(await t.state(payments)).toEqual({ sent: 400 });
  });

  it('types what it reads: state by the plugin, outputs by their variant, results by the tool', async () => {
    const t = await createTestPlatform({ plugins: [payments], script: [reply('Hi.')] });
    const prompt = await t.send('Hi');
    expectTypeOf(await t.state(payments)).toEqualTypeOf<{ sent: number }>();
    expectTypeOf(t.outputs(prompt, 'payments.receipt')).toEqualTypeOf<OutputOf<typeof receipt>[]>();
    expectTypeOf(t.outputs(prompt, receipt)).toEqualTypeOf<OutputOf<typeof receipt>[]>();
    expect(t.outputs(prompt, 'text').map((o) => o.text)).toEqual(['Hi.']);
    expectTypeOf(() => t.toolResult(prompt, send)).returns.toEqualTypeOf<{ sent: number }>();
    expectTypeOf(() => t.toolResult(prompt, 'payments.send')).returns.toBeUnknown();
  });
});
