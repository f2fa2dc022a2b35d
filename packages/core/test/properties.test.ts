import {
  assertWellFormed,
  createTestPlatform,
  type ScriptedCall,
  type ScriptedReply,
  type ScriptedTurn,
} from '@tessera/testing';
import { badgesPlugin } from '@tessera-fixtures/badges';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTool,
  definePlugin,
  type ModelMessage,
  type PauseOutput,
  type Prompt,
  type PromptOutput,
  promptsToMessages,
  type ToolOutput,
} from '../src/index.ts';

/** Tools that log every real invocation with its call id, to check "never before approval, at most once". */
function trackedTools(thrown: unknown = new Error('boom')) {
  const ran: { toolCallId: string; tool: string; input: unknown }[] = [];
  const track =
    <T>(tool: string, result: (input: T) => unknown) =>
    ({ input, toolCallId }: { input: T; toolCallId: string }) => {
      ran.push({ toolCallId, tool, input });
      return result(input);
    };
  const plugin = definePlugin({
    id: 'demo',
    tools: [
      createTool({
        id: 'demo.echo',
        description: 'Echo.',
        input: z.object({ text: z.string() }),
        readOnly: true,
        invoke: track('demo.echo', (i: { text: string }) => i.text),
      }),
      createTool({
        id: 'demo.delete',
        description: 'Delete.',
        input: z.object({ id: z.string() }),
        requireApproval: { required: true, reason: 'Deletes data.' },
        invoke: track('demo.delete', (i: { id: string }) => ({ deleted: i.id })),
      }),
      createTool({
        id: 'demo.pay',
        description: 'Pay.',
        input: z.object({ amount: z.number().positive() }),
        requireApproval: async ({ input }) => ({ required: input.amount > 100, reason: 'Large payment.' }),
        invoke: track('demo.pay', (i: { amount: number }) => ({ paid: i.amount })),
      }),
      createTool({
        id: 'demo.upgrade',
        description: 'Upgrades the last badge of this prompt: replaces an output recorded rounds ago.',
        input: z.object({}),
        invoke: async ({ toolCallId, outputs, update }) => {
          ran.push({ toolCallId, tool: 'demo.upgrade', input: {} });
          const badge = [...outputs()].reverse().find((o) => o.type === 'x-badges.badge');
          if (badge?.type !== 'x-badges.badge') return { upgraded: false };
          await update(badge.id, { type: 'x-badges.badge', label: `${badge.label}+`, level: 'gold' });
          return { upgraded: true };
        },
      }),
      createTool({
        id: 'demo.fail',
        description: 'Fails.',
        input: z.object({}),
        invoke: track('demo.fail', () => {
          throw new Error('boom');
        }),
      }),
      createTool({
        id: 'demo.throw',
        description: 'Throws whatever this scenario throws.',
        input: z.object({}),
        invoke: track('demo.throw', () => {
          throw thrown;
        }),
      }),
    ],
  });
  return { plugin, ran };
}

const needsApproval = (tool: string, input: unknown) =>
  tool === 'demo.delete' || (tool === 'demo.pay' && (input as { amount: number }).amount > 100);

const validArgs: Record<string, fc.Arbitrary<unknown>> = {
  'demo.echo': fc.record({ text: fc.string({ maxLength: 5 }) }),
  'demo.delete': fc.record({ id: fc.string({ maxLength: 5 }) }),
  'demo.pay': fc.record({ amount: fc.integer({ min: 1, max: 300 }) }),
  'demo.fail': fc.constant({}),
  'demo.throw': fc.constant({}),
  'demo.upgrade': fc.constant({}),
  'badges.award': fc.record({ label: fc.constantFrom('gold star', 'streak') }),
  'nope.unknown': fc.constant({}),
};

const callArb: fc.Arbitrary<ScriptedCall> = fc
  .tuple(
    fc.constantFrom(...Object.keys(validArgs)),
    fc.constantFrom('valid', 'valid', 'invalid', 'badjson'),
    // Servers that number their calls in every response, repeat an id, or send none.
    fc.option(fc.constantFrom('call_0', 'call_1', 'dup', ''), { nil: undefined, freq: 2 }),
  )
  .chain(([name, kind, id]): fc.Arbitrary<ScriptedCall> => {
    const call: fc.Arbitrary<ScriptedCall> =
      kind === 'badjson'
        ? fc.constant<ScriptedCall>({ name, arguments: '{"oops":' })
        : kind === 'invalid'
          ? fc.constant<ScriptedCall>({ name, args: { text: 1, id: 2, amount: -5, label: 3 } })
          : validArgs[name]!.map((args): ScriptedCall => ({ name, args }));
    return id === undefined ? call : call.map((c) => ({ ...c, id }));
  });

const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;

/** Anything a tool may throw. */
const thrownArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
  }),
  fc.constant(undefined),
  fc.string().map((description) => Symbol(description)),
  fc.constant(circular),
  fc.string().map((message) => new Error(message)),
  fc.constant(new TypeError()),
);

const turnArb: fc.Arbitrary<ScriptedReply> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.array(callArb, { minLength: 1, maxLength: 3 }).map((toolCalls) => ({ toolCalls })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ text: 'thinking', toolCalls: [{ name: 'demo.echo', args: { text: 't' } }] }),
  },
  { weight: 1, arbitrary: fc.constant({ error: 'model down' }) },
  {
    // A stream that breaks at a random point: after some text, some calls, or just before its end.
    weight: 1,
    arbitrary: fc.record({
      text: fc.constant<string[]>(['thin', 'king']),
      toolCalls: fc.array(callArb, { maxLength: 3 }),
      breakAfter: fc.integer({ min: 0, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ text: 'final answer' }) },
);

/** What each random hook does, call after call (the lists are consumed in order, then cycle). */
const hookPlanArb = fc.record({
  beforeToolCall: fc.array(fc.constantFrom('none', 'edit', 'badEdit', 'skip', 'ask', 'throw'), {
    minLength: 1,
    maxLength: 6,
  }),
  afterToolCall: fc.array(fc.constantFrom('none', 'rewrite', 'throw'), { minLength: 1, maxLength: 4 }),
  permissions: fc.array(fc.constantFrom('none', 'ask', 'deny', 'throw'), { minLength: 1, maxLength: 4 }),
  beforeModelCall: fc.array(
    fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'instructions', 'skip', 'throw'),
    { minLength: 1, maxLength: 4 },
  ),
  betweenRounds: fc.array(fc.constantFrom('none', 'none', 'none', 'none', 'none', 'pause', 'stop', 'throw'), {
    minLength: 1,
    maxLength: 4,
  }),
});
type HookPlan = typeof hookPlanArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * A plugin whose hooks do random things (from `plan`): edits (valid and not), skips, approvals asked,
 * denials, rewrites, pauses, stops, throws. No policy ever allows: an allowed call would rightly run without
 * the approval its tool asks for, which the check below counts as a violation.
 */
function randomHooks(plan: HookPlan) {
  const cursors = new Map<string, number>();
  const next = <K extends keyof HookPlan>(hook: K): HookPlan[K][number] => {
    const at = cursors.get(hook) ?? 0;
    cursors.set(hook, at + 1);
    return plan[hook][at % plan[hook].length]!;
  };
  const editOf = (toolId: string, input: unknown): unknown =>
    toolId === 'demo.pay' ? { amount: ((input as { amount: number }).amount % 300) + 50 } : input;
  return definePlugin({
    id: 'random-hooks',
    hooks: {
      beforeToolCall: ({ call }) => {
        const action = next('beforeToolCall');
        if (action === 'edit') return { input: editOf(call.toolId, call.input) };
        if (action === 'badEdit') return { input: { nonsense: true, amount: 'x', text: 3, id: 4 } };
        if (action === 'skip') return { skip: { output: 'skipped by hook' } };
        if (action === 'ask') return { requireApproval: 'A hook asks.' };
        if (action === 'throw') throw new Error('before hook');
        return undefined;
      },
      afterToolCall: () => {
        const action = next('afterToolCall');
        if (action === 'rewrite') return { result: { output: 'rewritten' } };
        if (action === 'throw') throw new Error('after hook');
        return undefined;
      },
      beforeModelCall: ({ request }) => {
        const action = next('beforeModelCall');
        if (action === 'instructions') return { instructions: `${request.instructions} (checked)` };
        if (action === 'skip') return { skip: { text: 'skipped' } };
        if (action === 'throw') throw new Error('model hook');
        return undefined;
      },
      betweenRounds: () => {
        const action = next('betweenRounds');
        if (action === 'pause') return { pause: 'Check in.' };
        if (action === 'stop') return { stop: 'Enough.' };
        if (action === 'throw') throw new Error('between hook');
        return undefined;
      },
    },
    permissions: () => {
      const action = next('permissions');
      if (action === 'throw') throw new Error('policy');
      return action === 'none' ? undefined : action;
    },
  });
}

const scenarioArb = fc.record({
  hooks: fc.option(hookPlanArb, { nil: undefined, freq: 3 }),
  turns: fc.array(turnArb, { maxLength: 6 }),
  decisions: fc.array(fc.constantFrom('approve', 'approve', 'reject', 'answer', 'skip', 'cancel'), {
    maxLength: 8,
  }),
  abortAfterEvents: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  thrown: thrownArb,
});

/** What a waiting prompt waits on: its pending call or its undecided pause. */
const pendingOf = (prompt: Prompt) =>
  prompt.output.filter(
    (o): o is ToolOutput | PauseOutput =>
      (o.type === 'tool' && o.result?.type === 'pending') || (o.type === 'pause' && !o.decision),
  );

function checkPrompt(prompt: Prompt, ran: { toolCallId: string; tool: string; input: unknown }[]) {
  const calls = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
  const pending = pendingOf(prompt);
  if (prompt.state === 'waiting_for_approval') {
    expect(pending).toHaveLength(1);
    // After the pending call, only unstarted (deferred) calls may lack a result.
    for (const call of calls) if (!call.result) expect(call.startedAt).toBeUndefined();
  } else {
    expect(['completed', 'failed', 'cancelled']).toContain(prompt.state);
    expect(pending).toHaveLength(0);
    for (const call of calls) expect(call.result).toBeDefined();
  }
  for (const call of calls) {
    // Whatever was thrown, an error result says something.
    if (call.result?.type !== 'error') continue;
    const { message } = call.result.error as { message?: unknown };
    expect(typeof message).toBe('string');
    expect((message as string).trim()).not.toBe('');
  }
  const ids = ran.map((r) => r.toolCallId);
  expect(new Set(ids).size).toBe(ids.length); // no call ran twice
  for (const run of ran) {
    if (!needsApproval(run.tool, run.input)) continue;
    const call = calls.find((c) => c.id === run.toolCallId);
    if (call) expect(call.approval?.decision).toBe('approved'); // never ran without approval
  }
  for (const call of calls) {
    // An answered or skipped call never ran, and its result is the one its decision says.
    const decision = call.approval?.decision;
    if (decision !== 'answered' && decision !== 'skipped') continue;
    expect(ids).not.toContain(call.id);
    if (decision === 'answered') expect(call.result).toEqual({ type: 'success', output: { given: call.id } });
    else expect(call.result).toMatchObject({ type: 'error', error: { code: 'skipped' } });
  }
}

function checkProjection(prompts: Prompt[], outputs: Parameters<typeof promptsToMessages>[1]['outputs']) {
  const messages = promptsToMessages(prompts, { outputs });
  assertWellFormed(messages);
  let expected = 0;
  for (const prompt of prompts) {
    if (prompt.input) expected += 1;
    for (const output of prompt.output) {
      if (output.type === 'tool') expected += 2;
      else if (output.type === 'text' || output.type === 'x-badges.badge') expected += 1;
    }
  }
  expect(messages).toHaveLength(expected); // so confetti (display only) contributed nothing
}

describe('the loop under random scripts', () => {
  it('keeps every invariant after every step', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ turns, decisions, abortAfterEvents, thrown, hooks }) => {
        const { plugin, ran } = trackedTools(thrown);
        // The record as the events show it, and what it was each time the model was called.
        const live = new Map<string, PromptOutput>();
        const sent: { messages: readonly ModelMessage[]; record: PromptOutput[] }[] = [];
        const seeing =
          (turn: ScriptedReply): ScriptedTurn =>
          (request) => {
            sent.push({ messages: request.messages, record: [...live.values()] });
            return turn;
          };
        const t = await createTestPlatform({
          plugins: hooks ? [plugin, badgesPlugin, randomHooks(hooks)] : [plugin, badgesPlugin],
          budgets: { maxRounds: 6, maxToolCalls: 8 },
          script: [...turns, { text: 'done' }, { text: 'done' }, { text: 'done' }].map(seeing),
        });
        t.platform.events.subscribe({}, (event) => {
          if (event.type === 'prompt.output' || event.type === 'prompt.output-updated') {
            live.set(event.output.id, event.output); // an update keeps its place
          }
        });
        const controller = new AbortController();
        let seen = 0;
        t.platform.events.subscribe({}, () => {
          if (abortAfterEvents !== undefined && ++seen === abortAfterEvents) controller.abort();
        });
        const started = await t.platform.start({
          conversationId: t.conversation.id,
          userId: t.userId,
          input: 'go',
          signal: controller.signal,
        });
        let prompt = await started.done;
        checkPrompt(prompt, ran);
        for (const decision of decisions) {
          if (prompt.state !== 'waiting_for_approval') break;
          const pending = pendingOf(prompt)[0]!;
          prompt =
            pending.type === 'pause'
              ? decision === 'cancel'
                ? await t.platform.cancel(prompt.id, { userId: t.userId })
                : await t.platform.resume(pending.id, {
                    userId: t.userId,
                    choice: decision === 'approve' ? 'continue' : 'stop',
                    // Past a budget, continuing needs a larger one.
                    ...(decision === 'approve' &&
                      pending.budget && {
                        budgets: { [pending.budget.name]: Math.floor(pending.budget.used) * 2 + 1 },
                      }),
                  })
              : decision === 'approve'
                ? await t.approve(pending.id)
                : decision === 'reject'
                  ? await t.reject(pending.id, 'no')
                  : decision === 'answer'
                    ? await (
                        await t.platform.decide(pending.id, {
                          userId: t.userId,
                          answer: { given: pending.id },
                        })
                      ).done
                    : decision === 'skip'
                      ? await (await t.platform.decide(pending.id, { userId: t.userId, skip: true })).done
                      : await t.platform.cancel(prompt.id, { userId: t.userId });
          checkPrompt(prompt, ran);
          expect(await t.platform.getPrompt(prompt.id, t.userId)).toEqual(prompt);
        }
        const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
        checkProjection(prompts, t.platform.outputs);
        // Each round the model is sent exactly the projection of the record so far, however it was built.
        for (const { messages, record } of sent) {
          expect(messages).toEqual(
            promptsToMessages([{ ...prompt, output: record }], { outputs: t.platform.outputs }),
          );
        }
        // Every call the model made (even one just before its stream broke) is in the record exactly once,
        // under a call id no other call of the conversation has.
        const recorded = prompts.flatMap((p) => p.output).filter((o): o is ToolOutput => o.type === 'tool');
        expect(new Set(recorded.map((c) => c.callId)).size).toBe(recorded.length);
        expect(recorded.map((c) => c.toolId).sort()).toEqual(t.model.calls.map((c) => c.name).sort());
      }),
      { numRuns: 150 },
    );
  });
});
