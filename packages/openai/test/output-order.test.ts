import { createPlatform, type ModelStreamEvent, type ReasoningOutput } from '@tessera/core';
import { afterEach, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer } from './fixture-server.ts';

/**
 * OpenRouter's Responses API finishes a reasoning item (`response.output_item.done`, output_index 0) after the
 * message that follows it (output_index 1). The outputs are recorded once each, in the response's order.
 */

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const LATE_REASONING = 'compat-openrouter-responses-stream-reasoning-late-done.sse';
const THOUGHT = 'The user asks for the capital of France. It is Paris.';
const ANSWER = 'The capital of France is Paris.';
const REASONING_ITEM = {
  type: 'reasoning',
  id: 'rs_tmp_b1f4c2a9e8d7',
  summary: [],
  content: [{ type: 'reasoning_text', text: THOUGHT }],
};

it('gives the reasoning item once, before the text, though its done event came after the message', async () => {
  server = await fixtureServer([{ body: fixture(LATE_REASONING) }]);
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
  const events: ModelStreamEvent[] = [];
  const request = {
    model: 'deepseek/deepseek-r1-0528',
    modelClass: 'normal' as const,
    instructions: '',
    messages: [{ type: 'message' as const, role: 'user' as const, content: 'Capital of France?' }],
    tools: [],
  };
  for await (const event of provider.stream(request, new AbortController().signal)) events.push(event);
  const kinds = events.map((event) => event.type);
  expect(kinds.filter((kind) => kind === 'reasoning')).toHaveLength(1);
  expect(kinds.lastIndexOf('reasoning')).toBeLessThan(kinds.indexOf('text-delta'));
  expect(events.find((event) => event.type === 'reasoning')).toEqual({
    type: 'reasoning',
    text: THOUGHT,
    providerData: REASONING_ITEM,
  });
  const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
  expect(text).toBe(ANSWER);
  expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
});

it('records one reasoning, then the text, and sends the reasoning item before the assistant message', async () => {
  server = await fixtureServer([{ body: fixture(LATE_REASONING) }, { body: fixture(LATE_REASONING) }]);
  const platform = createPlatform({
    model: createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }),
    models: { normal: 'deepseek/deepseek-r1-0528' },
  });
  const { id } = await platform.conversations.create({ userId: 'u' });
  const first = await platform.send({ conversationId: id, userId: 'u', input: 'Capital of France?' });
  expect(first.state).toBe('completed');
  expect(first.output.map((output) => output.type)).toEqual(['reasoning', 'text']);
  expect(first.output[0] as ReasoningOutput).toMatchObject({ text: THOUGHT, providerData: REASONING_ITEM });
  expect(first.output[1]).toMatchObject({ type: 'text', text: ANSWER });

  await platform.send({ conversationId: id, userId: 'u', input: 'And of Italy?' });
  expect(server.requests[1]!.body.input).toEqual([
    { role: 'user', content: 'Capital of France?' },
    REASONING_ITEM,
    { role: 'assistant', content: ANSWER },
    { role: 'user', content: 'And of Italy?' },
  ]);
});

it('gives a reasoning item before the call that came after it, though the call was done first', async () => {
  // The order OpenRouter sent in earendil-works/pi#4171 (a call at output_index 1 done before the reasoning
  // item at 0, which carries its encrypted content only when done); written here, not recorded.
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-opaque' };
  const call = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'bash',
    arguments: '{"command":"ls"}',
  };
  const stream = [
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'reasoning', id: 'rs_1', summary: [] },
    },
    { type: 'response.output_item.added', output_index: 1, item: { ...call, arguments: '' } },
    {
      type: 'response.function_call_arguments.delta',
      output_index: 1,
      item_id: 'fc_1',
      delta: call.arguments,
    },
    { type: 'response.output_item.done', output_index: 1, item: call },
    { type: 'response.output_item.done', output_index: 0, item: reasoning },
    { type: 'response.completed', response: { status: 'completed', output: [reasoning, call] } },
  ]
    .map(
      (event, sequence_number) =>
        `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`,
    )
    .join('');
  server = await fixtureServer([{ body: stream }]);
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
  const events: ModelStreamEvent[] = [];
  const request = {
    model: 'openai/gpt-5.5',
    modelClass: 'normal' as const,
    instructions: '',
    messages: [{ type: 'message' as const, role: 'user' as const, content: 'List the files.' }],
    tools: [{ name: 'bash', description: 'Runs a command.', parameters: { type: 'object' } }],
  };
  for await (const event of provider.stream(request, new AbortController().signal)) events.push(event);
  expect(events.filter((event) => event.type !== 'usage')).toEqual([
    { type: 'reasoning', providerData: reasoning },
    { type: 'tool-call', callId: 'call_1', name: 'bash', arguments: '{"command":"ls"}' },
    { type: 'finish', reason: 'tool_calls' },
  ]);
});

it('does not hold back more than 10,000 events for an earlier item that never finishes', async () => {
  // A hostile or broken server: the reasoning item at output_index 0 is never done, the message after it
  // streams on. Past the bound the text flows as it comes; the server then stalls, so the text can only
  // have come from events that were not held to the end.
  const lines = [
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'reasoning', id: 'rs_1', summary: [] },
    },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { type: 'message', id: 'm_1', content: [] },
    },
    ...Array.from({ length: 10_050 }, () => ({
      type: 'response.output_text.delta',
      output_index: 1,
      item_id: 'm_1',
      content_index: 0,
      delta: 'a',
    })),
  ];
  const body = lines.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
  server = await fixtureServer([{ body, stallAfter: body.length }]);
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
  const controller = new AbortController();
  const request = {
    model: 'm',
    modelClass: 'normal' as const,
    instructions: '',
    messages: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
    tools: [],
  };
  let first: ModelStreamEvent | undefined;
  for await (const event of provider.stream(request, controller.signal)) {
    first = event;
    break;
  }
  expect(first).toEqual({ type: 'text-delta', delta: 'a' });
}, 60_000);
