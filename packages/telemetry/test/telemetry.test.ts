import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  createPlatform,
  createTool,
  definePlugin,
  type EventRelay,
  MemoryStore,
  type RelayMessage,
} from '@tessera/core';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { callTools, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tracePrompts } from '../src/index.ts';

const exporter = new InMemorySpanExporter();

const plugin = definePlugin({
  id: 'math',
  tools: [
    createTool({
      id: 'math.add',
      description: 'Adds.',
      input: z.object({ a: z.number(), b: z.number() }),
      invoke: ({ input }) => ({ sum: input.a + input.b }),
    }),
    createTool({
      id: 'math.divide',
      description: 'Divides.',
      input: z.object({ a: z.number(), b: z.number() }),
      invoke: ({ input }) => {
        if (input.b === 0) throw new Error('division by zero');
        return input.a / input.b;
      },
    }),
  ],
});

describe('OpenTelemetry spans', () => {
  beforeAll(() => {
    // What an app does to turn tracing on: register an SDK's provider with the API.
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
  });
  beforeEach(() => exporter.reset());

  it('traces a prompt, its model calls and its tool calls with the GenAI semantic conventions', async () => {
    const t = await createTestPlatform({
      plugins: [plugin],
      models: { normal: 'gpt-test', high: 'gpt-test-high' },
      script: [
        {
          ...callTools(
            { name: 'math.add', args: { a: 1, b: 2 }, id: 'c1' },
            { name: 'math.divide', args: { a: 1, b: 0 }, id: 'c2' },
          ),
          usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 60 },
        },
        reply('3, and 1/0 is undefined.', { usage: { inputTokens: 140, outputTokens: 9 } }),
      ],
    });
    tracePrompts(t.platform);
    const prompt = await t.send('Add 1 and 2, divide 1 by 0');
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((span) => span.name === name);

    const [root] = byName('invoke_agent tessera');
    expect(root).toBeDefined();
    expect(root!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.conversation.id': prompt.conversationId,
      'gen_ai.usage.input_tokens': 240,
      'gen_ai.usage.output_tokens': 29,
      'tessera.prompt.id': prompt.id,
      'tessera.prompt.state': 'completed',
    });

    const chats = byName('chat gpt-test');
    expect(chats).toHaveLength(2);
    expect(chats.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 60,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(chats[1]!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);

    const add = byName('execute_tool math.add')[0]!;
    expect(add.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'math.add',
      'gen_ai.tool.call.id': 'c1',
      'tessera.tool.outcome': 'success',
    });
    expect(add.status.code).not.toBe(SpanStatusCode.ERROR);
    const divide = byName('execute_tool math.divide')[0]!;
    expect(divide.status.code).toBe(SpanStatusCode.ERROR);
    expect(divide.attributes['error.type']).toBe('tool_failed');

    // One trace: the prompt's span is the parent of every other.
    const rootId = root!.spanContext().spanId;
    for (const span of [...chats, add, divide]) {
      expect(span.spanContext().traceId).toBe(root!.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(rootId);
    }
  });

  it("nests a sub-agent's prompt under the call that ran it: invoke_agent under execute_tool, traced once", async () => {
    const helper = defineAgent({
      name: 'helper',
      description: 'Adds numbers.',
      instructions: 'Add what you are asked to.',
      tools: ['math.add'],
    });
    const t = await createTestPlatform({
      plugins: [plugin, agentsPlugin({ agents: [helper] })],
      script: [
        callTools({ name: 'agent.helper', args: { task: 'Add 1 and 2' }, id: 'p1' }), // the user's prompt
        callTools({ name: 'math.add', args: { a: 1, b: 2 }, id: 'h1' }), // the helper's prompt
        reply('3'),
        reply('The helper says 3.'),
      ],
    });
    tracePrompts(t.platform);
    const prompt = await t.send('What is 1 + 2? Ask the helper.');
    expect(prompt.state).toBe('completed');
    await vi.waitFor(() => expect(exporter.getFinishedSpans().length).toBeGreaterThanOrEqual(7));
    const spans = exporter.getFinishedSpans();
    const one = (name: string) => {
      const found = spans.filter((span) => span.name === name);
      expect(found, name).toHaveLength(1); // the child's own end did not trace it a second time
      return found[0]!;
    };
    const root = one('invoke_agent tessera');
    const call = one('execute_tool agent.helper');
    const child = one('invoke_agent helper');
    const add = one('execute_tool math.add');
    expect(call.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(child.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(add.parentSpanContext?.spanId).toBe(child.spanContext().spanId);
    expect(child.attributes['gen_ai.agent.name']).toBe('helper');
    for (const span of spans) expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
  });

  it("marks a prompt whose model call failed, and that call's span, as errors", async () => {
    const t = await createTestPlatform({ script: [{ error: 'The model is down.' }] });
    tracePrompts(t.platform);
    const prompt = await t.send('Hi');
    expect(prompt.state).toBe('failed');
    const root = exporter.getFinishedSpans().find((span) => span.name.startsWith('invoke_agent'))!;
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes['error.type']).toBe('model_error');
  });

  it('traces a prompt cancelled while it waits for approval', async () => {
    const guarded = definePlugin({
      id: 'guarded',
      tools: [
        createTool({
          id: 'guarded.reset',
          description: 'Resets.',
          input: z.object({}),
          requireApproval: { required: true, reason: 'Resetting needs approval.' },
          invoke: () => 'reset',
        }),
      ],
    });
    const t = await createTestPlatform({
      plugins: [guarded],
      script: [callTools({ name: 'guarded.reset', args: {}, id: 'c1' })],
    });
    tracePrompts(t.platform);
    const paused = await t.send('Reset');
    expect(paused.state).toBe('waiting_for_approval');
    expect(exporter.getFinishedSpans()).toEqual([]);
    await t.platform.cancel(paused.id, { userId: t.userId });
    const root = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent tessera');
    expect(root?.attributes['tessera.prompt.state']).toBe('cancelled');
  });

  it('traces each prompt once, in the process that ran it, and stops when told', async () => {
    const hub = relayHub();
    const store = new MemoryStore();
    const a = createPlatform({
      model: new ScriptedModel([reply('One.'), reply('Two.')]),
      store,
      relay: hub.join(),
    });
    const b = createPlatform({ model: new ScriptedModel(), store, relay: hub.join() });
    const untraceA = tracePrompts(a);
    tracePrompts(b);
    const seenInB: string[] = [];
    b.events.subscribe({}, (event) => {
      if (event.type === 'prompt.completed') seenInB.push(event.promptId);
    });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const first = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'one' });
    await vi.waitFor(() => expect(seenInB).toEqual([first.id]), { timeout: 30_000 });
    const roots = () => exporter.getFinishedSpans().filter((span) => span.name === 'invoke_agent tessera');
    expect(roots().map((span) => span.attributes['tessera.prompt.id'])).toEqual([first.id]);

    untraceA();
    await a.send({ conversationId: conversation.id, userId: 'u1', input: 'two' });
    await vi.waitFor(() => expect(seenInB).toHaveLength(2), { timeout: 30_000 });
    expect(roots()).toHaveLength(1);
  });
});

/** Processes joined by a relay, in memory: each message reaches every other member, asynchronously. */
function relayHub() {
  const members = new Set<(message: RelayMessage) => void>();
  return {
    join(): EventRelay {
      let self: ((message: RelayMessage) => void) | undefined;
      return {
        publish: (message) => {
          const copy = JSON.parse(JSON.stringify(message)) as RelayMessage;
          for (const member of members) if (member !== self) queueMicrotask(() => member(copy));
        },
        subscribe: (handler) => {
          self = handler;
          members.add(handler);
          return () => members.delete(handler);
        },
      };
    },
  };
}
