import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTool, definePlugin, type Prompt, type TesseraEvent, type ToolOutput } from '../src/index.ts';

const isDeepFrozen = (value: unknown): boolean =>
  typeof value !== 'object' ||
  value === null ||
  (Object.isFrozen(value) && Object.values(value).every((item) => isDeepFrozen(item)));

/** Every output an event carries (output events and a prompt's end, which carries the whole prompt). */
const outputsIn = (event: TesseraEvent): unknown[] =>
  'output' in event ? [event.output] : 'prompt' in event ? (event.prompt as Prompt).output : [];

/**
 * The record is shared by the prompt, the store and the events without copies (docs/decisions.md, "The output
 * array is the record"): so nothing a plugin, a tool or a subscriber is handed can change it, at any depth,
 * and what they keep of their own cannot either.
 */
describe('the record the loop shares', () => {
  it('is deeply frozen wherever it is handed out, and keeps what tools and hooks gave it as it was', async () => {
    const kept: { input?: { tags: string[] }; value?: { list: number[] }; rewrite?: { note: string[] } } = {};
    const tagger = createTool({
      id: 'x.tag',
      description: 'Tags.',
      input: z.object({ tags: z.array(z.string()) }),
      readOnly: true,
      invoke: async ({ input, emit }) => {
        kept.input = input;
        input.tags.push('changed by the tool'); // its own input: it may change it, the record keeps the call's
        await emit({ type: 'text', text: 'working' });
        kept.value = { list: [1, 2] };
        return kept.value;
      },
    });
    const needsApproval = createTool({
      id: 'x.send',
      description: 'Sends.',
      input: z.object({ to: z.string() }),
      requireApproval: { required: true, reason: 'It sends.' },
      invoke: () => ({ sent: true }),
    });
    const seenByHooks: unknown[] = [];
    const plugin = definePlugin({
      id: 'x',
      tools: [tagger, needsApproval],
      hooks: {
        beforeToolCall: ({ call }) => (call.toolId === 'x.send' ? { input: { to: 'edited' } } : undefined),
        afterToolCall: ({ call, result }) => {
          if (call.toolId !== 'x.tag') return undefined;
          kept.rewrite = { note: ['rewritten'] };
          return { result: { output: { ...(result as { output: object }).output, ...kept.rewrite } } };
        },
        betweenRounds: ({ prompt }) => {
          seenByHooks.push(...prompt.output);
          return undefined;
        },
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          text: 'Tagging.',
          toolCalls: [{ name: 'x.tag', args: { tags: ['a'] } }],
          events: [{ type: 'reasoning', text: 'why', providerData: { blob: ['opaque'] } }],
        },
        callTools({ name: 'x.send', args: { to: 'b' } }),
        reply('Done.'),
      ],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (event) => void events.push(event));
    const waiting = await t.send('go');
    const done = await t.approve(
      (waiting.output.find((o) => o.type === 'tool' && o.toolId === 'x.send') as ToolOutput).id,
    );
    expect(done.state).toBe('completed');

    // What the tools and hooks kept, changed after they handed it over, changes nothing in the record.
    kept.value!.list.push(3);
    kept.rewrite!.note.push('later');
    const stored = (await t.platform.store.prompts.get(done.id))!;
    const tag = stored.output.find((o) => o.type === 'tool' && o.toolId === 'x.tag') as ToolOutput;
    expect(tag.input).toEqual({ tags: ['a'] });
    expect(tag.result).toEqual({ type: 'success', output: { list: [1, 2] } });
    expect(tag.rewrittenResult).toEqual({ type: 'success', output: { list: [1, 2], note: ['rewritten'] } });
    const send = stored.output.find((o) => o.type === 'tool' && o.toolId === 'x.send') as ToolOutput;
    expect(send).toMatchObject({ input: { to: 'b' }, editedInput: { to: 'edited' }, approval: {} });

    // Every output anyone was handed is frozen all the way down: the events', the hooks', the prompts'.
    const handedOut = [
      ...events.flatMap(outputsIn),
      ...seenByHooks,
      ...waiting.output,
      ...done.output,
      ...stored.output,
    ];
    expect(handedOut.length).toBeGreaterThan(10);
    for (const output of handedOut) expect(isDeepFrozen(output), JSON.stringify(output)).toBe(true);
    expect(isDeepFrozen(done.usage) && isDeepFrozen(stored.usage)).toBe(true);
    expect(() => (tag.input as { tags: string[] }).tags.push('x')).toThrow(TypeError);
  });

  it('keeps a call whose arguments the model repeats in later versions as the first version had them', async () => {
    const t = await createTestPlatform({
      plugins: [
        definePlugin({
          id: 'x',
          tools: [
            createTool({
              id: 'x.echo',
              description: 'Echo.',
              input: z.object({ text: z.string() }),
              invoke: ({ input }) => ({ text: input.text }),
            }),
          ],
        }),
      ],
      script: [callTool('x.echo', { text: 'one' }), reply('Done.')],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (event) => void events.push(event));
    await t.send('go');
    // The call's versions (started, then with its result) share the input frozen once, with the first.
    const versions = events
      .flatMap(outputsIn)
      .filter(
        (o): o is ToolOutput => (o as ToolOutput).type === 'tool' && (o as ToolOutput).toolId === 'x.echo',
      );
    expect(versions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(versions.map((v) => v.input)).size).toBe(1);
    for (const version of versions) expect(isDeepFrozen(version)).toBe(true);
  });
});
