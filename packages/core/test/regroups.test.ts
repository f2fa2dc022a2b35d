import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../src/index.ts';
import { appendGrouped, regroups } from '../src/projection/prompts-to-messages.ts';

const responseId = fc.option(fc.constantFrom('r1', 'r2', 'r3'), { nil: undefined });
const callId = fc.constantFrom('c1', 'c2', 'c3', 'c4');
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({
    type: fc.constant('function_call' as const),
    callId,
    name: fc.constant('t'),
    arguments: fc.constant('{}'),
    responseId,
  }),
  fc.record({ type: fc.constant('function_call_output' as const), callId, output: fc.constant('ok') }),
  fc.record({
    type: fc.constant('message' as const),
    role: fc.constant('user' as const),
    content: fc.constant('u'),
  }),
  fc.record({
    type: fc.constant('message' as const),
    role: fc.constant('assistant' as const),
    content: fc.constant('a'),
    responseId,
  }),
  fc.record({ type: fc.constant('reasoning' as const), text: fc.constant('why'), responseId }),
);

describe('grouping a projection by response', () => {
  it('regroups says exactly when appendGrouped would change the order (in order, nothing is copied again)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 14 }), fc.nat(4), (messages, start) => {
        const from = Math.min(start, messages.length);
        const grouped = appendGrouped(messages.slice(from), messages.slice(0, from));
        const changed = grouped.some((item, i) => item !== messages[i]);
        expect(regroups(messages, from)).toBe(changed);
      }),
      { numRuns: 3000 },
    );
  });
});
