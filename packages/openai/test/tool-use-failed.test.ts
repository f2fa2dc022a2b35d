import { readFileSync } from 'node:fs';
import {
  createPlatform,
  createTool,
  definePlugin,
  type ModelRequest,
  type ModelStreamEvent,
  type TextOutput,
  type ToolOutput,
} from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { createOpenAIProvider } from '../src/index.ts';
import { FIXTURES, fixtureServer, type Reply } from './fixture-server.ts';

/**
 * Groq checks the model's tool call against the tool's schema and, when it fails, ends the call with
 * `code: 'tool_use_failed'` and the model's output in `failed_generation`. The call goes back to the model as
 * a failed call, so that it can correct itself, rather than failing the prompt. Recorded traffic: pydantic-ai's
 * cassettes of api.groq.com (see fixtures/recorded/README.md); the other shapes are written here.
 */

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

type Json = Record<string, unknown>;

/** The recorded answers of a VCR.py cassette, in order, as the fixture server sends them. */
function recordedReplies(name: string): Reply[] {
  const doc = parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as { interactions: Json[] };
  return doc.interactions.map((interaction) => {
    const response = interaction.response as Json;
    const headers = response.headers as Record<string, string[]>;
    const body = response.body as Json | undefined;
    return {
      status: (response.status as Json).code as number,
      contentType: headers['content-type']![0],
      body: body ? (body.string as string) : JSON.stringify(response.parsed_body),
    };
  });
}

const lookUp = createTool({
  id: 'get_something_by_name',
  description: 'Something, by its name.',
  input: z.object({ name: z.string() }).strict(),
  invoke: ({ input }) => `Something with name: ${input.name}`,
});

async function runPrompt(replies: Reply[], stream: boolean) {
  server = await fixtureServer(replies);
  const platform = createPlatform({
    plugins: [definePlugin({ id: 'things', tools: [lookUp] })],
    model: createOpenAIProvider({
      apiKey: 'test',
      baseURL: server.baseURL,
      api: 'chat',
      stream,
      maxRetries: 0,
    }),
    models: { normal: 'openai/gpt-oss-120b' },
  });
  const { id } = await platform.conversations.create({ userId: 'u' });
  return platform.send({
    conversationId: id,
    userId: 'u',
    input: 'Please call the "get_something_by_name" tool with non-existent parameters to test error handling',
  });
}

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'openai/gpt-oss-120b',
  modelClass: 'normal',
  instructions: '',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [{ name: 'get_something_by_name', description: '', parameters: { type: 'object' } }],
  ...overrides,
});

async function events(reply: Reply, stream = false) {
  server = await fixtureServer([reply]);
  const provider = createOpenAIProvider({
    apiKey: 'test',
    baseURL: server.baseURL,
    api: 'chat',
    stream,
    maxRetries: 0,
  });
  const out: ModelStreamEvent[] = [];
  for await (const event of provider.stream(request(), new AbortController().signal)) out.push(event);
  return out;
}

/** The calls a request sent back: each assistant call with the result the model was given for it. */
function callsSentBack(body: Json) {
  const messages = body.messages as Json[];
  return messages.flatMap((message) =>
    ((message.tool_calls as Json[] | undefined) ?? []).map((call) => ({
      arguments: (call.function as Json).arguments,
      result: messages.find((m) => m.role === 'tool' && m.tool_call_id === call.id)?.content as string,
    })),
  );
}

describe('a tool call Groq refused (recorded)', () => {
  it('goes back to the model as a failed call, and its corrected call runs (HTTP 400, not streamed)', async () => {
    const prompt = await runPrompt(recordedReplies('compat-groq-tool-use-failed.yaml'), false);
    expect(prompt.state).toBe('completed');
    const [refused, corrected] = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(refused).toMatchObject({ toolId: 'get_something_by_name', input: { foo: 'bar' } });
    expect(refused!.result).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
    expect(corrected).toMatchObject({ input: { name: 'test' } });
    expect(corrected!.result).toEqual({ type: 'success', output: 'Something with name: test' });

    // The second request: the refused call, with the validation error, is what the model corrects.
    const [sent] = callsSentBack(server!.requests[1]!.body);
    expect(sent!.arguments).toBe('{"foo":"bar"}');
    expect(sent!.result).toContain("The arguments do not match the schema of 'get_something_by_name'");
    expect(sent!.result).toContain('Unrecognized key: "foo"');
    expect(server!.requests).toHaveLength(3);
  });

  it('keeps what streamed before the error event and hands the refused call back (streamed)', async () => {
    const prompt = await runPrompt(recordedReplies('compat-groq-tool-use-failed-streaming.yaml'), true);
    expect(prompt.state).toBe('completed');
    expect(prompt.output[0]).toMatchObject({ type: 'reasoning' });
    expect((prompt.output[0] as { text: string }).text).toMatch(
      /^We need to call the tool with invalid parameters/,
    );
    const [refused, corrected] = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(refused).toMatchObject({ input: { invalid_param: 'value' } });
    expect(refused!.result).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
    expect(corrected!.result).toEqual({ type: 'success', output: 'Something with name: example' });
    expect(prompt.output.at(-1)).toMatchObject({ type: 'text' });

    const second = server!.requests[1]!.body;
    const [sent] = callsSentBack(second);
    expect(sent!.arguments).toBe('{"invalid_param":"value"}');
    expect(sent!.result).toContain('do not match the schema');
    // The reasoning went back in the field Groq streamed it in, on the message with the refused call.
    const assistant = (second.messages as Json[]).find((m) => m.role === 'assistant')!;
    expect(assistant.reasoning).toMatch(/^We need to call the tool with invalid parameters/);
  });

  it('gives a refusal that names no tool back as the model’s text with a note, and the prompt completes', async () => {
    const [refused] = recordedReplies('compat-groq-tool-use-failed-text.yaml');
    expect(await events(refused!)).toEqual([
      {
        type: 'text-delta',
        delta:
          'maybe\n\n(The model server refused this answer: Tool choice is required, but model did not call a tool)',
      },
      { type: 'finish', reason: 'stop' },
    ]);
    const prompt = await runPrompt([refused!], false);
    expect(prompt.state).toBe('completed');
    expect((prompt.output.at(-1) as TextOutput).text).toMatch(/^maybe\n\n\(The model server refused/);
  });
});

describe('refused tool calls in shapes no recording shows (written here)', () => {
  const refusal = (
    failed_generation: string,
    message = 'Failed to call a function. Please adjust your prompt.',
  ) =>
    JSON.stringify({
      error: { message, type: 'invalid_request_error', code: 'tool_use_failed', failed_generation },
    });

  it('reads Llama’s <function=name…> text as the call it names', async () => {
    const out = await events({
      status: 400,
      body: refusal(
        '<function=get_something_by_name({"nme": "x"})></function>',
        'tool call validation failed: attempted to call tool \'get_something_by_name({"nme": "x"})\' which was not in request.tools',
      ),
    });
    expect(out).toEqual([
      {
        type: 'tool-call',
        callId: 'call_tool_use_failed_1',
        name: 'get_something_by_name',
        arguments: '{"nme": "x"}',
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const tag = await events({
      status: 400,
      body: refusal('<function=get_something_by_name>{"a": 1}</function>'),
    });
    expect(tag[0]).toMatchObject({ name: 'get_something_by_name', arguments: '{"a": 1}' });
  });

  it('reads Groq’s refusal passed on by OpenRouter (metadata.raw), inside a stream', async () => {
    const raw = refusal('{"name": "get_something_by_name", "arguments": {"foo": 1}}');
    const body = `data: ${JSON.stringify({ error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: 'Groq' } } })}\n\n`;
    expect(await events({ body }, true)).toEqual([
      {
        type: 'tool-call',
        callId: 'call_tool_use_failed_1',
        name: 'get_something_by_name',
        arguments: '{"foo":1}',
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('takes a JSON answer with a `name` field for text, not for a call', async () => {
    const out = await events({ status: 400, body: refusal('{"name": "Alice", "age": 3}') });
    expect(out[0]).toMatchObject({ type: 'text-delta' });
    expect((out[0] as { delta: string }).delta).toMatch(
      /^\{"name": "Alice", "age": 3\}\n\n\(The model server refused/,
    );
  });

  it('bounds what it reads of a huge generation', async () => {
    const out = await events({
      status: 400,
      body: refusal(`{"name": "get_something_by_name", "arguments": "${'x'.repeat(200_000)}"}`),
    });
    expect(out.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    expect((out[0] as { delta: string }).delta.length).toBeLessThan(70_000);
  });

  it('still fails the call on a 400 that is not a refused generation', async () => {
    const body = JSON.stringify({
      error: { message: 'bad model', type: 'invalid_request_error', code: 'model_not_found' },
    });
    await expect(events({ status: 400, body })).rejects.toMatchObject({ kind: 'bad_request' });
  });
});
