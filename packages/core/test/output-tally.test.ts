import { sampleConversation, samplePrompt, sampleTime } from '@tessera/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyUsage, type Prompt, type PromptOutput, planStep } from '../src/index.ts';
import { OutputTally } from '../src/loop/output-tally.ts';
import { DEFAULT_BUDGETS } from '../src/loop/runtime.ts';

const at = sampleTime(0);
const code = fc.constantFrom('tool_failed', 'timeout', 'rejected', 'denied', 'cancelled');
const result = fc.option(
  fc.oneof(
    fc.constant({ type: 'success', output: 1 }),
    code.map((c) => ({ type: 'error', error: { code: c, message: 'm' } })),
    fc.constant({ type: 'pending', reason: 'ask' }),
  ),
  { nil: undefined, freq: 4 },
);
const output: fc.Arbitrary<PromptOutput> = fc
  .oneof(
    { weight: 6, arbitrary: fc.record({ result, started: fc.boolean() }) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'continue', 'stop') },
  )
  .map(
    (o, i = 0) =>
      (typeof o === 'object' && o !== null
        ? {
            type: 'tool',
            id: `call_${i}`,
            createdAt: at,
            callId: `c${i}`,
            toolId: 't',
            input: {},
            ...(o.started && { startedAt: at }),
            ...(o.result && { result: o.result }),
          }
        : {
            type: 'pause',
            id: `out_${i}`,
            createdAt: at,
            source: 'plugin',
            reason: 'r',
            ...(o && { decision: o }),
          }) as PromptOutput,
  );

const promptWith = (output: PromptOutput[], modelCalls: number): Prompt => ({
  ...samplePrompt(sampleConversation(), { usage: { ...emptyUsage(), modelCalls } }),
  output,
});

// Low enough that the generated outputs reach them.
const budgets = { ...DEFAULT_BUDGETS, maxRounds: 20, maxConsecutiveToolErrors: 2 };

describe('the counts a record keeps over its outputs', () => {
  it('kept output by output, they are what counting all the outputs gives', () => {
    fc.assert(
      fc.property(
        fc.array(output, { maxLength: 12 }),
        fc.array(output, { maxLength: 12 }),
        (first, second) => {
          const tally = new OutputTally();
          for (const o of first) tally.count(o, 1);
          // Each output replaced by the one at its place in `second` (or removed when there is none).
          first.forEach((o, i) => {
            tally.count(o, -1);
            if (second[i]) tally.count(second[i], 1);
          });
          expect({ ...tally }).toEqual({ ...OutputTally.of(second.slice(0, first.length)) });
        },
      ),
    );
  });

  it('planStep plans from them what it plans from reading every output', () => {
    fc.assert(
      fc.property(fc.array(output, { maxLength: 12 }), fc.nat(30), (outputs, modelCalls) => {
        const prompt = promptWith(outputs, modelCalls);
        const tally = OutputTally.of(outputs);
        // A tally that is never plain makes planStep read every output.
        const reading = Object.assign(OutputTally.of(outputs), { pauses: tally.pauses + 1 });
        expect(planStep(prompt, budgets, tally)).toEqual(planStep(prompt, budgets, reading));
      }),
      { numRuns: 2000 },
    );
  });
});
