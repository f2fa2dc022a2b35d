import { sampleConversation, samplePrompt, sampleTime } from '@tessera/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputRegistry, type Prompt, type PromptOutput } from '../src/index.ts';
import { PromptProjection } from '../src/projection/prompt-projection.ts';
import { projectPrompt } from '../src/projection/prompts-to-messages.ts';

const at = sampleTime(0);
const responseId = fc.option(fc.constantFrom('r1', 'r2', 'r3'), { nil: undefined });

/** What a round may do to a running prompt's outputs: mostly add at the end, sometimes replace or remove. */
type Change =
  | { kind: 'text'; responseId?: string; text: string }
  | { kind: 'call'; responseId?: string; callId: string; result: boolean }
  | { kind: 'guardrail' }
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'remove'; at: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('text' as const), responseId, text: fc.constantFrom('a', 'b') }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      responseId,
      callId: fc.constantFrom('c1', 'c2', 'c3'),
      result: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('guardrail' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(9), text: fc.string() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat(9) }) },
);

let n = 0;
function applied(outputs: readonly PromptOutput[], c: Change): PromptOutput[] {
  const id = `out_${++n}`;
  const base = { id, createdAt: at };
  switch (c.kind) {
    case 'text':
      return [...outputs, { ...base, type: 'text', text: c.text, responseId: c.responseId } as PromptOutput];
    case 'call':
      return [
        ...outputs,
        {
          ...base,
          type: 'tool',
          callId: c.callId,
          toolId: 't',
          input: { q: c.callId },
          responseId: c.responseId,
          ...(c.result && { result: { type: 'success', output: { ok: c.callId } } }),
        } as PromptOutput,
      ];
    case 'guardrail':
      return [
        ...outputs,
        {
          ...base,
          type: 'guardrail',
          guardrail: 'output',
          plugin: 'p',
          reason: 'no',
          target: 'response',
          targetId: 'r1',
        } as PromptOutput,
      ];
    case 'replace': {
      if (outputs.length === 0) return [...outputs];
      const i = c.at % outputs.length;
      const old = outputs[i]!;
      const next = old.type === 'text' ? { ...old, text: c.text } : { ...old };
      return outputs.map((o, j) => (j === i ? (next as PromptOutput) : o));
    }
    case 'remove':
      return outputs.filter((_, j) => outputs.length === 0 || j !== c.at % outputs.length);
  }
}

const promptWith = (output: PromptOutput[]): Prompt => ({ ...samplePrompt(sampleConversation()), output });

describe("the running prompt's projection, kept between rounds", () => {
  it('gives every round what projecting the prompt whole gives', () => {
    const outputs = new OutputRegistry();
    const context = { bound: (text: string) => text, maxChars: 20_000 };
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 3 }), { maxLength: 12 }), (rounds) => {
        const projection = new PromptProjection(outputs, context);
        let output: PromptOutput[] = [];
        for (const round of rounds) {
          for (const c of round) output = applied(output, c);
          const prompt = promptWith(output);
          expect(projection.messages(prompt)).toEqual(projectPrompt(prompt, outputs, context));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
