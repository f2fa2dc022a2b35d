import type { ModelMessage, ModelRequest, ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer, sseFromChunks } from './fixture-server.ts';

/**
 * What OpenAI-compatible servers send beyond OpenAI's own Chat Completions and Responses: refusals,
 * reasoning text in their own fields, OpenRouter's reasoning details, parallel calls told apart by id
 * rather than index. Recorded traffic where it exists (see fixtures/recorded/README.md), and synthetic
 * streams, built here, for each quirk no recording shows.
 */

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const tool = (name: string) => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { a: { type: 'number' } } },
});
const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'some-model',
  modelClass: 'normal',
  instructions: '',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [tool('weather'), tool('add'), tool('multiply')],
  ...overrides,
});

async function run(
  body: string,
  options: { api?: 'chat' | 'responses'; stream?: boolean; req?: ModelRequest } = {},
) {
  const stream = options.stream ?? true;
  server = await fixtureServer([{ body, ...(!stream && { contentType: 'application/json' }) }]);
  const provider = createOpenAIProvider({
    apiKey: 'test',
    baseURL: server.baseURL,
    api: options.api ?? 'chat',
    stream,
    maxRetries: 0,
  });
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream(options.req ?? request(), new AbortController().signal)) {
    events.push(event);
  }
  return events;
}

/** Streamed deltas of one kind joined, and every other event as it is: the stream's shape, in order. */
function shape(events: ModelStreamEvent[]) {
  const out: unknown[] = [];
  for (const event of events) {
    const last = out.at(-1) as { type?: string; delta?: string } | undefined;
    if ('delta' in event && last?.type === event.type) last.delta += event.delta;
    else if (event.type !== 'usage') out.push({ ...event });
  }
  return out;
}

/** A synthetic Chat Completions stream: one `data:` line per chunk, then `[DONE]`. */
const chatStream = (...deltas: { delta?: object; finish?: string }[]) =>
  `${deltas
    .map(
      ({ delta = {}, finish }) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-synthetic',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta, finish_reason: finish ?? null }],
        })}\n\n`,
    )
    .join('')}data: [DONE]\n\n`;

describe('Chat Completions streams of compatible servers (recorded)', () => {
  it('records an OpenAI refusal (delta.refusal), where there was nothing before', async () => {
    const events = await run(fixture('chat-stream-refusal.sse'));
    expect(shape(events)).toEqual([
      { type: 'refusal-delta', delta: "I'm sorry, I can't assist with that request." },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('streams DeepSeek’s reasoning_content, then the call it led to', async () => {
    const events = await run(sseFromChunks('compat-deepseek-stream-reasoning-tool-call.chunks.txt', 'chat'));
    expect(shape(events)).toEqual([
      {
        type: 'reasoning-delta',
        delta:
          'The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to "San Francisco".',
      },
      { type: 'reasoning' },
      {
        type: 'tool-call',
        callId: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('streams xAI’s reasoning_content before a call', async () => {
    const events = await run(sseFromChunks('compat-xai-stream-reasoning-tool-call.chunks.txt', 'chat'));
    expect(shape(events).map((e) => (e as { type: string }).type)).toEqual([
      'reasoning-delta',
      'reasoning',
      'tool-call',
      'finish',
    ]);
    expect(shape(events)[0]).toEqual({ type: 'reasoning-delta', delta: 'First, the user is' });
  });

  it('reads Groq’s `reasoning` field from a whole answer, and says which field it was', async () => {
    const events = await run(fixture('compat-groq-reasoning.json'), { stream: false });
    const [thought, closed, text] = shape(events) as { type: string; delta?: string }[];
    expect(thought).toMatchObject({ type: 'reasoning-delta' });
    expect(thought!.delta).toMatch(/^Okay, so the user is asking how many times the letter "r" appears/);
    expect(closed).toEqual({ type: 'reasoning', providerData: { field: 'reasoning' } });
    expect(text).toMatchObject({ type: 'text-delta' });
    expect(text!.delta).toMatch(/^The word "strawberry" contains \*\*3\*\*/);
  });

  it('reads a Mistral call that has no index', async () => {
    const events = await run(sseFromChunks('compat-mistral-stream-tool-call.chunks.txt', 'chat'));
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', callId: 'gSIMJiOkT', name: 'weather', arguments: '{"location": "San Francisco"}' },
    ]);
  });
});

describe('Chat Completions quirks no recording shows (synthetic streams)', () => {
  const call = (id: string | undefined, name: string | undefined, args: string, index?: number) => ({
    ...(index !== undefined && { index }),
    ...(id && { id, type: 'function' }),
    function: { ...(name && { name }), arguments: args },
  });

  it('tells parallel calls apart by id when every one comes at index 0 (Ollama, vLLM, proxies)', async () => {
    const events = await run(
      chatStream(
        { delta: { role: 'assistant', tool_calls: [call('call_a', 'add', '', 0)] } },
        { delta: { tool_calls: [call(undefined, undefined, '{"a":2}', 0)] } },
        { delta: { tool_calls: [call('call_b', 'multiply', '', 0)] } },
        { delta: { tool_calls: [call(undefined, undefined, '{"b":3}', 0)] } },
        { finish: 'tool_calls' },
      ),
    );
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', callId: 'call_a', name: 'add', arguments: '{"a":2}' },
      { type: 'tool-call', callId: 'call_b', name: 'multiply', arguments: '{"b":3}' },
    ]);
  });

  it('reads several whole calls in one delta, without index', async () => {
    const events = await run(
      chatStream(
        { delta: { tool_calls: [call('a1', 'add', '{"a":1}'), call('m1', 'multiply', '{"a":2}')] } },
        { finish: 'tool_calls' },
      ),
    );
    expect(events.filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && e.name)).toEqual(
      ['add', 'multiply'],
    );
  });

  it('continues a call without an index, and starts the next one at a new name once the arguments are whole', async () => {
    const events = await run(
      chatStream(
        { delta: { tool_calls: [call(undefined, 'add', '{"a":')] } },
        { delta: { tool_calls: [call(undefined, undefined, '1}')] } },
        { delta: { tool_calls: [call(undefined, 'add', '{"a":2}')] } },
        { finish: 'tool_calls' },
      ),
    );
    const calls = events.filter((e) => e.type === 'tool-call');
    expect(calls.map((e) => e.type === 'tool-call' && [e.name, e.arguments])).toEqual([
      ['add', '{"a":1}'],
      ['add', '{"a":2}'],
    ]);
    // Ids the server left out are made up, one per call.
    expect(new Set(calls.map((e) => e.type === 'tool-call' && e.callId)).size).toBe(2);
  });

  it('keeps stream order: text streamed after a call comes after it', async () => {
    const events = await run(
      chatStream(
        { delta: { content: 'Adding.' } },
        { delta: { tool_calls: [call('a', 'add', '{"a":1}', 0)] } },
        { delta: { content: ' Then done.' } },
        { finish: 'tool_calls' },
      ),
    );
    expect(shape(events).map((e) => (e as { type: string }).type)).toEqual([
      'text-delta',
      'tool-call',
      'text-delta',
      'finish',
    ]);
  });

  it('reads a refusal from a whole answer (message.refusal)', async () => {
    const body = JSON.stringify({
      id: 'chatcmpl-x',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, refusal: "I can't help with that." },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    const events = await run(body, { stream: false });
    expect(shape(events)).toEqual([
      { type: 'refusal-delta', delta: "I can't help with that." },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});

describe('Chat Completions requests: one model response, one assistant message', () => {
  const r1 = 'rsp_1';
  const call = (callId: string, name: string, responseId?: string): ModelMessage => ({
    type: 'function_call',
    callId,
    name,
    arguments: '{"a":1}',
    ...(responseId && { responseId }),
  });
  const result = (callId: string): ModelMessage => ({ type: 'function_call_output', callId, output: '1' });
  const sent = async (messages: ModelMessage[]) => {
    await run(fixture('chat-stream-text.sse'), { req: request({ messages }) });
    return server!.requests[0]!.body.messages as object[];
  };

  it('puts a response’s text, calls and reasoning text (reasoning_content) in one message, then the results', async () => {
    expect(
      await sent([
        { type: 'message', role: 'user', content: 'Go' },
        { type: 'reasoning', text: 'Both at once.', responseId: r1 },
        { type: 'message', role: 'assistant', content: 'Working.', responseId: r1 },
        call('a', 'add', r1),
        call('b', 'multiply', r1),
        result('a'),
        result('b'),
        { type: 'reasoning', text: 'Now answer.', responseId: 'rsp_2' },
        { type: 'message', role: 'assistant', content: 'Done.', responseId: 'rsp_2' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: 'Working.',
        reasoning_content: 'Both at once.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'add', arguments: '{"a":1}' } },
          { id: 'b', type: 'function', function: { name: 'multiply', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '1' },
      // Reasoning text goes back only with calls: an answer's thoughts are not needed again.
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('sends reasoning text back in the field it came in, and OpenRouter’s reasoning_details verbatim', async () => {
    const details = [
      { type: 'reasoning.encrypted', data: 'EjQK…', format: 'google-gemini-v1', id: 'tool_a', index: 0 },
    ];
    expect(
      await sent([
        { type: 'message', role: 'user', content: 'Go' },
        { type: 'reasoning', text: 'Thinking.', providerData: { field: 'reasoning' }, responseId: r1 },
        call('a', 'add', r1),
        result('a'),
        { type: 'reasoning', providerData: { reasoning_details: details }, responseId: 'rsp_2' },
        call('b', 'add', 'rsp_2'),
        result('b'),
      ]),
    ).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: null,
        reasoning: 'Thinking.',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      {
        role: 'assistant',
        content: null,
        reasoning_details: details,
        tool_calls: [{ id: 'b', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'b', content: '1' },
    ]);
  });

  it('does not join the calls of two responses, nor send Responses API reasoning items', async () => {
    expect(
      await sent([
        { type: 'message', role: 'user', content: 'Go' },
        { type: 'reasoning', summary: 'S', providerData: { type: 'reasoning', id: 'rs_1' }, responseId: r1 },
        call('a', 'add', r1),
        call('b', 'add', 'rsp_2'),
        result('a'),
        result('b'),
      ]),
    ).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'b', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '1' },
    ]);
  });
});

describe('Responses API from compatible servers', () => {
  it('streams LM Studio’s reasoning_text, keeps it whole on the reasoning item, and sends the item back', async () => {
    const events = await run(
      sseFromChunks('compat-lmstudio-responses-stream-reasoning-text.chunks.txt', 'responses'),
      {
        api: 'responses',
      },
    );
    const reasoning =
      'The user is asking for the weather in San Francisco. I have a weather function available that takes a location parameter. The user has provided "San Francisco" as the location, so I have all the required information to make the function call.';
    const [thought, item, text, call] = shape(events) as Record<string, unknown>[];
    expect(thought).toEqual({ type: 'reasoning-delta', delta: reasoning });
    expect(item).toMatchObject({ type: 'reasoning', text: reasoning });
    expect(text).toEqual({
      type: 'text-delta',
      delta: "I'll get the current weather information for San Francisco for you.",
    });
    expect(call).toEqual({
      type: 'tool-call',
      callId: 'call_2025306790300011',
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
    });
    // gpt-oss needs its reasoning back after its calls: the item goes back, though it has no encrypted content.
    await server!.close();
    await run(fixture('responses-stream-text.sse'), {
      api: 'responses',
      req: request({
        messages: [
          { type: 'message', role: 'user', content: 'Weather?' },
          { type: 'reasoning', text: reasoning, providerData: item!.providerData, responseId: 'r' },
          { type: 'function_call', callId: 'call_1', name: 'weather', arguments: '{}', responseId: 'r' },
          { type: 'function_call_output', callId: 'call_1', output: 'sunny' },
        ],
      }),
    });
    const input = server!.requests[0]!.body.input as Record<string, unknown>[];
    expect(input.map((entry) => entry.type ?? entry.role)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toMatchObject({ id: 'rs_3yo6zy4vu4hq6iegqwhn1', content: [{ type: 'reasoning_text' }] });
  });

  const refusalEvents = [
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    },
    {
      type: 'response.content_part.added',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      part: { type: 'refusal', refusal: '' },
    },
    {
      type: 'response.refusal.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: "I'm sorry, ",
    },
    {
      type: 'response.refusal.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'I cannot.',
    },
    {
      type: 'response.refusal.done',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      refusal: "I'm sorry, I cannot.",
    },
  ];
  const refused = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'gpt-4o',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: "I'm sorry, I cannot." }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 },
  };

  it('streams a refusal (response.refusal.delta)', async () => {
    const events = [
      ...refusalEvents,
      { type: 'response.output_item.done', output_index: 0, item: refused.output[0] },
      { type: 'response.completed', response: refused },
    ].map((event, sequence_number) => ({ ...event, sequence_number }));
    const body = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    expect(shape(await run(body, { api: 'responses' }))).toEqual([
      { type: 'refusal-delta', delta: "I'm sorry, I cannot." },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('reads a refusal part of a whole response', async () => {
    expect(shape(await run(JSON.stringify(refused), { api: 'responses', stream: false }))).toEqual([
      { type: 'refusal-delta', delta: "I'm sorry, I cannot." },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});
