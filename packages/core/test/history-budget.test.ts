import { callTool, createTestPlatform, reply } from '@tessera/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, type ModelRequest, userMessage } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const BUDGET = 3_000;

/** One exchange of a conversation: the user's input, an optional tool call, the answer (sizes in characters). */
const exchange = fc.record({
  input: fc.integer({ min: 1, max: 2_000 }),
  echo: fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: undefined }),
  answer: fc.integer({ min: 0, max: 2_000 }),
  /** What the provider reports as the request's input tokens, as a multiple of the estimate: anything. */
  reportedScale: fc.constantFrom(0, 0.1, 0.5, 1, 1.5, 3),
});

/** The provider counts what it was sent its own way (at `scale` times four characters a token). */
const usageFor = (request: ModelRequest, scale: number) => ({
  inputTokens: Math.round(estimateTokens(request.messages) * scale),
  outputTokens: 10,
});

describe('the history budget', () => {
  it('holds for every request the model receives, whatever the provider reported before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchange, { minLength: 1, maxLength: 30 }), async (exchanges) => {
        const { plugin } = toolbox();
        const t = await createTestPlatform({ plugins: [plugin], historyTokens: BUDGET });
        for (const [n, step] of exchanges.entries()) {
          if (step.echo !== undefined) {
            t.model.push((request) => ({
              ...callTool('demo.echo', { text: 'e'.repeat(step.echo!) }),
              usage: usageFor(request, step.reportedScale),
            }));
          }
          t.model.push((request) => ({
            ...reply('a'.repeat(step.answer) || 'ok'),
            usage: usageFor(request, step.reportedScale),
          }));
          await t.send(`${n} ${'q'.repeat(step.input)}`);
        }
        for (const request of t.model.requests) {
          // Each prompt alone fits (≤ ~1,600 tokens), so the whole request must.
          expect(estimateTokens(request.messages)).toBeLessThanOrEqual(BUDGET);
        }
        // And nothing is left out that fits: the last request keeps the latest prompts.
        const last = t.model.requests.at(-1)!;
        expect(last.messages[0]?.type).toBe('message');
      }),
      { numRuns: 40 },
    );
  });

  it("holds by the provider's own count when it counts more than the estimate", async () => {
    const small = fc.record({
      input: fc.integer({ min: 1, max: 600 }),
      echo: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
      answer: fc.integer({ min: 0, max: 600 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(small, { minLength: 2, maxLength: 25 }),
        fc.constantFrom(1, 1.5, 3),
        async (exchanges, scale) => {
          const { plugin } = toolbox();
          const t = await createTestPlatform({ plugins: [plugin], historyTokens: BUDGET });
          // What the provider counts: everything it was sent (tools and instructions too), its own way.
          const counted: number[] = [];
          const count = (request: ModelRequest) => {
            const all = [
              ...request.messages,
              ...(request.instructions ? [userMessage(request.instructions)] : []),
              ...(request.tools.length > 0 ? [userMessage(JSON.stringify(request.tools))] : []),
            ];
            const inputTokens = Math.ceil(estimateTokens(all) * scale);
            counted.push(inputTokens);
            return { inputTokens, outputTokens: 10 };
          };
          for (const [n, step] of exchanges.entries()) {
            if (step.echo !== undefined) {
              t.model.push((request) => ({
                ...callTool('demo.echo', { text: 'e'.repeat(step.echo!) }),
                usage: count(request),
              }));
            }
            t.model.push((request) => ({ ...reply('a'.repeat(step.answer) || 'ok'), usage: count(request) }));
            await t.send(`${n} ${'q'.repeat(step.input)}`);
          }
          // From the second request on, the provider's count of each is known to the loop.
          for (const tokens of counted.slice(1)) expect(tokens).toBeLessThanOrEqual(BUDGET + scale);
        },
      ),
      { numRuns: 30 },
    );
  });
});
