import { readFileSync } from 'node:fs';
import {
  createPlatform,
  createTool,
  definePlugin,
  MemoryStore,
  type ReasoningOutput,
  type ToolOutput,
} from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { createOpenAIProvider } from '../src/index.ts';
import { FIXTURES, fixture, fixtureServer, type Reply, sseFromChunks } from './fixture-server.ts';

/**
 * DeepSeek's thinking mode answers 400 when an assistant message with tool calls comes back without its
 * `reasoning_content`. These run whole prompts through @tessera/core on recorded DeepSeek answers and hold
 * the requests we send against what DeepSeek needs (and, for the recorded conversation, against what the
 * recording client sent to the live API, which answered them).
 */

type Json = Record<string, unknown>;
let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const tool = (id: string, result: unknown, input: z.ZodObject = z.object({})) =>
  createTool({ id, description: id, input, invoke: () => result });

async function send(replies: Reply[], tools: ReturnType<typeof tool>[], stream: boolean, input: string) {
  server = await fixtureServer(replies);
  const platform = createPlatform({
    plugins: [definePlugin({ id: 'recorded', tools })],
    model: createOpenAIProvider({
      apiKey: 'test',
      baseURL: server.baseURL,
      api: 'chat',
      stream,
      maxRetries: 0,
    }),
    models: { normal: 'deepseek-reasoner' },
    store: new MemoryStore(),
  });
  const { id } = await platform.conversations.create({ userId: 'u' });
  const prompt = await platform.send({ conversationId: id, userId: 'u', input });
  return { prompt, requests: server.requests.map((request) => request.body.messages as Json[]) };
}

describe('DeepSeek thinking mode with tools', () => {
  it('records the streamed reasoning with its call, as one response, and sends it back on the call', async () => {
    const { prompt, requests } = await send(
      [
        { body: sseFromChunks('compat-deepseek-stream-reasoning-tool-call.chunks.txt', 'chat') },
        { body: fixture('chat-stream-text.sse') },
      ],
      [tool('weather', 'sunny', z.object({ location: z.string() }))],
      true,
      'Weather in San Francisco?',
    );
    expect(prompt.state).toBe('completed');
    expect(prompt.output.map((o) => o.type)).toEqual(['reasoning', 'tool', 'text']);
    const [reasoning, call] = prompt.output as [ReasoningOutput, ToolOutput];
    expect(reasoning.text).toMatch(/^The user is asking for the weather in San Francisco\./);
    expect(reasoning.responseId).toBe(call.responseId);
    expect(requests[1]!.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        reasoning_content: reasoning.text,
        tool_calls: [
          {
            id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', content: 'sunny' },
    ]);
  });

  it('replays a recorded conversation: each tool-call turn goes back with its reasoning, parallel calls in one message', async () => {
    // pydantic-ai's VCR.py recording of api.deepseek.com (deepseek-reasoner, not streamed), whole.
    const cassette = parse(
      readFileSync(new URL('compat-deepseek-thinking-tool-calls.yaml', FIXTURES), 'utf8'),
    ) as { interactions: { request: { parsed_body: Json }; response: { parsed_body: Json } }[] };
    const recorded = cassette.interactions;
    const { prompt, requests } = await send(
      recorded.map(({ response }) => ({
        body: JSON.stringify(response.parsed_body),
        contentType: 'application/json',
      })),
      [
        tool('load_capability', {}, z.object({ id: z.string() })),
        tool('get_player_name', 'Anne'),
        tool('roll_dice', '4'),
      ],
      false,
      'My guess is 4',
    );
    expect(prompt.state).toBe('completed');
    expect(prompt.output.map((o) => o.type)).toEqual([
      'reasoning',
      'text',
      'tool',
      'reasoning',
      'text',
      'tool',
      'tool',
      'reasoning',
      'text',
    ]);

    // The assistant messages the live API was sent (and answered) for the model's own turns. (The recording
    // client also sent a tool-search turn of its own making, which we have no reason to send.) Arguments
    // are compared parsed: core sends back the validated input, re-serialized.
    const assistant = (messages: Json[]) =>
      messages
        .filter((message) => message.role === 'assistant' && message.reasoning_content !== '')
        .map(({ content, reasoning_content, tool_calls }) => ({
          content,
          reasoning_content,
          tool_calls: (tool_calls as { id: string; function: { name: string; arguments: string } }[]).map(
            (call) => ({
              id: call.id,
              name: call.function.name,
              arguments: JSON.parse(call.function.arguments),
            }),
          ),
        }));
    const theirs = assistant(recorded[2]!.request.parsed_body.messages as Json[]);
    expect(theirs).toHaveLength(2);
    expect(assistant(requests[1]!)).toEqual(theirs.slice(0, 1));
    expect(assistant(requests[2]!)).toEqual(theirs);
    // The two parallel calls are one message, followed by both results.
    const last = requests[2]!;
    const turn = last.findIndex((message) => (message.tool_calls as Json[] | undefined)?.length === 2);
    expect(last.slice(turn + 1).map((message) => message.role)).toEqual(['tool', 'tool']);
  });
});
