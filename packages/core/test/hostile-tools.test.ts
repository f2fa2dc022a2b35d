import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  createTool,
  definePlugin,
  errorMessage,
  MAX_RESULT_RECORD_CHARS,
  ToolCallError,
  type ToolCallErrorCode,
  type ToolOutput,
} from '../src/index.ts';

const tools = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;

/** Whatever a tool may throw, and what the record (and so the model) must read for it. */
const thrown: [string, () => unknown, string][] = [
  ['undefined', () => undefined, 'Threw a non-Error value: undefined'],
  ['null', () => null, 'Threw a non-Error value: null'],
  ['a symbol', () => Symbol('boom'), 'Threw a non-Error value: Symbol(boom)'],
  ['a BigInt', () => 10n, 'Threw a non-Error value: 10n'],
  ['a circular object', () => circular, 'Threw a non-Error value: {"name":"loop","self":"[Circular]"}'],
  ['an object holding a BigInt', () => ({ n: 1n }), 'Threw a non-Error value: {"n":"1n"}'],
  ['a function', () => function check() {}, 'Threw a non-Error value: function check'],
  ['an Error without a message', () => new Error(), 'Error with no message'],
  ['a TypeError without a message', () => new TypeError(''), 'TypeError with no message'],
  ['an empty string', () => '', 'Threw an empty string'],
  ['a string', () => 'plain words', 'plain words'],
  ['an error-like object', () => ({ message: 'from another realm' }), 'from another realm'],
  [
    'a proxy that throws on every access',
    () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
          getPrototypeOf: () => {
            throw new Error('trap');
          },
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
    'Threw a value that cannot be described',
  ],
];

describe('a tool that throws anything', () => {
  for (const [what, value, message] of thrown) {
    it(`records ${what} as a clear tool_failed error the model can read, and goes on`, async () => {
      const bad = createTool({
        id: 'bad.throw',
        description: 'Throws.',
        input: z.object({}),
        invoke: () => {
          throw value();
        },
      });
      const t = await createTestPlatform({
        plugins: [definePlugin({ id: 'bad', tools: [bad] })],
        script: [callTool('bad.throw', {}, 'c1'), reply('Sorry')],
      });
      const prompt = await t.send('go');
      expect(prompt.state).toBe('completed');
      const [call] = tools(prompt);
      expect(call?.result).toEqual({ type: 'error', error: { code: 'tool_failed', message } });
      expect(call?.endedAt).toBeDefined();
      expect(t.model.requests[1]?.messages).toContainEqual({
        type: 'function_call_output',
        callId: 'c1',
        output: `Error: ${message}`,
      });
    });
  }

  it('records a ToolCallError with its code (cancelled, timeout), and any other code as tool_failed', async () => {
    for (const [code, recorded] of [
      ['cancelled', 'cancelled'],
      ['timeout', 'timeout'],
      ['rejected', 'tool_failed'], // a user's decision is not a tool's to claim
    ] as const) {
      const t = await createTestPlatform({
        plugins: [
          definePlugin({
            id: 'waits',
            tools: [
              createTool({
                id: 'waits.job',
                description: 'Waits on a job.',
                input: z.object({}),
                invoke: () => {
                  throw new ToolCallError(code as ToolCallErrorCode, `The job ended: ${code}.`);
                },
              }),
            ],
          }),
        ],
        script: [callTool('waits.job', {}), reply('Noted.')],
      });
      const [call] = tools(await t.send('go'));
      expect(call?.result).toEqual({
        type: 'error',
        error: { code: recorded, message: `The job ended: ${code}.` },
      });
    }
  });

  it('errorMessage never returns an empty text and never throws', () => {
    for (const [, value] of thrown) {
      const text = errorMessage(value());
      expect(typeof text).toBe('string');
      expect(text.trim()).not.toBe('');
    }
  });
});

describe('a tool that outlives its call', () => {
  it('may no longer emit, update or write state once its call has a result: it throws, nothing is recorded', async () => {
    const Count = z.object({ count: z.number() }).default({ count: 0 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const late: unknown[] = [];
    let lateDone!: Promise<void>;
    const stubborn = createTool({
      id: 'stubborn.work',
      description: 'Ignores its signal.',
      input: z.object({}),
      state: Count,
      timeoutMs: 10,
      invoke: ({ emit, update, state }) => {
        lateDone = (async () => {
          const progress = await emit({ type: 'text', text: 'working' });
          await released; // long after the timeout
          for (const write of [
            () => emit({ type: 'text', text: 'late' }),
            () => update(progress, { type: 'text', text: 'late update' }),
            () => state.set({ count: 99 }),
            () => state.update((current) => ({ count: current.count + 1 })),
          ]) {
            await write().then(
              () => late.push('written'),
              (error: unknown) => late.push(error),
            );
          }
        })();
        return lateDone;
      },
    });
    const plugin = definePlugin({ id: 'stubborn', state: Count, tools: [stubborn] });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('stubborn.work'), reply('It timed out')],
    });
    const prompt = await t.send('go');
    expect(tools(prompt)[0]?.result).toMatchObject({ type: 'error', error: { code: 'timeout' } });
    release();
    await lateDone;

    expect(late).toHaveLength(4);
    for (const error of late) {
      expect(ConflictError.is(error)).toBe(true);
      expect((error as Error).message).toMatch(/already has its result/);
    }
    const stored = (await t.platform.getPrompt(prompt.id, t.userId))!;
    const texts = stored.output.filter((o) => o.type === 'text').map((o) => (o as { text: string }).text);
    expect(texts).toEqual(['working', 'It timed out']);
    expect(await t.state(plugin)).toEqual({ count: 0 });
  });
});

describe('a tool that returns more than the record keeps', () => {
  const huge = 'a'.repeat(MAX_RESULT_RECORD_CHARS) + 'z'.repeat(1_000_000);
  const returning = (value: unknown) =>
    definePlugin({
      id: 'web',
      tools: [
        createTool({ id: 'web.fetch', description: 'Fetches.', input: z.object({}), invoke: () => value }),
      ],
    });

  it(`keeps MAX_RESULT_RECORD_CHARS (${MAX_RESULT_RECORD_CHARS}) characters of it, its start and its end, as text`, async () => {
    // A toJSON makes the text whatever its length: measured as JSON makes it, not by the object's own parts.
    for (const value of [huge, { page: huge }, { small: 1, toJSON: () => huge }]) {
      const t = await createTestPlatform({
        plugins: [returning(value)],
        script: [callTool('web.fetch'), reply('Read.')],
      });
      const prompt = await t.send('fetch it');
      expect(prompt.state).toBe('completed');
      const output = (tools(prompt)[0]!.result as { type: 'success'; output: unknown }).output;
      expect(typeof output).toBe('string');
      const kept = output as string;
      expect(kept.length).toBeLessThan(MAX_RESULT_RECORD_CHARS + 100);
      expect(kept).toMatch(/^(\{"page":"|")?a+\n\[… \d+ characters omitted …\]\nz+("\}|")?$/);
    }
  });
});

describe('a tool that returns what JSON cannot hold', () => {
  it('a cyclic value, or one too deep, is a clear error result; the loop goes on', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    cyclic.again = cyclic;
    let deep: unknown = 'bottom';
    for (let i = 0; i < 300; i++) deep = { deeper: deep };
    const kept = [
      { type: 'error', error: { message: expect.stringMatching(/cannot be stored as JSON/) } },
      { type: 'success', output: expect.stringMatching(/^\{"deeper":\{"deeper":/) }, // kept as its JSON text
    ];
    for (const [i, value] of [cyclic, deep].entries()) {
      const tool = createTool({
        id: 'odd.get',
        description: 'Gets.',
        input: z.object({}),
        invoke: () => value,
      });
      const t = await createTestPlatform({
        plugins: [definePlugin({ id: 'odd', tools: [tool] })],
        script: [callTool('odd.get'), reply('Noted.')],
      });
      const prompt = await t.send('get it');
      expect(prompt.state).toBe('completed');
      expect(tools(prompt)[0]!.result).toMatchObject(kept[i]!);
    }
  });
});
