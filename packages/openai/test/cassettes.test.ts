import { readdirSync, readFileSync } from 'node:fs';
import { createPlatform, createTool, definePlugin, MemoryStore, type ToolOutput } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { createOpenAIProvider, type ModelSettings } from '../src/index.ts';
import { FIXTURES, fixtureServer, type Reply } from './fixture-server.ts';

/**
 * Replays every cassette in `cassettes/` (go-vcr v2 from charmbracelet/fantasy, VCR.py from pydantic-ai):
 * the recorded answers are served in order while a whole prompt runs through @tessera/core, and then the
 * requests our provider sent are held against the ones the recording client sent to the real API.
 */

type Json = Record<string, unknown>;
type Interaction = {
  url: string;
  body: Json;
  reply: Reply;
};

const CASSETTES = new URL('cassettes/', FIXTURES);

function load(name: string): Interaction[] {
  const doc = parse(readFileSync(new URL(name, CASSETTES), 'utf8')) as { interactions: Json[] };
  return doc.interactions.map((interaction) => {
    const request = interaction.request as Json;
    const response = interaction.response as Json;
    // go-vcr keeps the body as a string and the status as `code`; VCR.py keeps `parsed_body` for JSON
    // requests, the response body under `string` and the status as `status.code`.
    const body = (request.parsed_body as Json | undefined) ?? (JSON.parse(request.body as string) as Json);
    const text = typeof response.body === 'string' ? response.body : (response.body as Json).string;
    const headers = response.headers as Record<string, string[]>;
    const contentType = Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1][0];
    const status = (response.code as number | undefined) ?? ((response.status as Json).code as number);
    return {
      url: (request.url ?? request.uri) as string,
      body,
      reply: { status, body: text as string, contentType },
    };
  });
}

// ---- what the recorded answers say (read here without the provider's code) ---------------------------

const dataLines = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: ') && !line.startsWith('data: [DONE]'))
    .map((line) => JSON.parse(line.slice(6)) as Json);

/** The text a recorded answer gives, whatever its API and framing. */
function answerText(interaction: Interaction): string {
  const { reply, url, body } = interaction;
  const chat = url.endsWith('/chat/completions');
  if (body.stream) {
    return dataLines(reply.body)
      .map((event) =>
        chat
          ? ((event.choices as Json[])[0]?.delta as Json | undefined)?.content
          : event.type === 'response.output_text.delta'
            ? event.delta
            : undefined,
      )
      .filter((piece): piece is string => typeof piece === 'string')
      .join('');
  }
  const whole = JSON.parse(reply.body) as Json;
  if (chat) return (((whole.choices as Json[])[0]!.message as Json).content as string | null) ?? '';
  return (whole.output as Json[])
    .filter((item) => item.type === 'message')
    .flatMap((item) => (item.content as Json[]).map((part) => part.text as string))
    .join('');
}

// ---- requests of either API, as one list of items ----------------------------------------------------

type Item =
  | { kind: 'message'; role: string; content: string }
  | { kind: 'reasoning'; id: string; encrypted: boolean }
  /** Chat Completions: reasoning an assistant message carries (text in its field, OpenRouter's details). */
  | { kind: 'thought'; field?: string; text?: string; details?: Json[] }
  | { kind: 'call'; callId: string; name: string; arguments: unknown }
  | { kind: 'output'; callId: string; output: string };

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: Json) => part.text as string).join('')
      : '';

/** The instructions and the conversation a request carries; system/developer messages are instructions. */
function conversation(body: Json, chat: boolean): { instructions: string; items: Item[] } {
  const instructions: string[] = body.instructions ? [body.instructions as string] : [];
  const items: Item[] = [];
  for (const entry of (chat ? body.messages : body.input) as Json[]) {
    const type = (entry.type as string | undefined) ?? 'message';
    if (chat && entry.role === 'tool') {
      items.push({ kind: 'output', callId: entry.tool_call_id as string, output: textOf(entry.content) });
    } else if (type === 'message' && (entry.role === 'system' || entry.role === 'developer')) {
      instructions.push(textOf(entry.content));
    } else if (type === 'message') {
      const field = ['reasoning_content', 'reasoning'].find((key) => typeof entry[key] === 'string');
      if (field || entry.reasoning_details) {
        items.push({
          kind: 'thought',
          ...(field && { field, text: entry[field] as string }),
          ...(Array.isArray(entry.reasoning_details) && { details: entry.reasoning_details as Json[] }),
        });
      }
      const content = textOf(entry.content);
      if (content !== '' || !chat) items.push({ kind: 'message', role: entry.role as string, content });
      for (const call of (entry.tool_calls as Json[] | undefined) ?? []) {
        const fn = call.function as Json;
        items.push({
          kind: 'call',
          callId: call.id as string,
          name: fn.name as string,
          arguments: JSON.parse(fn.arguments as string),
        });
      }
    } else if (type === 'function_call') {
      items.push({
        kind: 'call',
        callId: entry.call_id as string,
        name: entry.name as string,
        arguments: JSON.parse(entry.arguments as string),
      });
    } else if (type === 'function_call_output') {
      items.push({ kind: 'output', callId: entry.call_id as string, output: textOf(entry.output) });
    } else if (type === 'reasoning') {
      items.push({
        kind: 'reasoning',
        id: entry.id as string,
        encrypted: typeof entry.encrypted_content === 'string',
      });
    } else {
      throw new Error(`unexpected item ${type}`);
    }
  }
  return { instructions: instructions.join('\n\n'), items };
}

/** A tool definition of either API as name, description and the shape of its parameters. */
function toolShape(tool: Json, chat: boolean) {
  const fn = chat ? (tool.function as Json) : tool;
  const parameters = fn.parameters as Json;
  const properties = parameters.properties as Record<string, Json>;
  return {
    name: fn.name as string,
    description: fn.description as string | null,
    // The shape: the object's properties with their types and descriptions, and which are required. Extra
    // keywords are ours and fine: strict mode adds `additionalProperties: false` (pydantic-ai's recording
    // sends just that, strict), and zod writes the safe-integer range of `z.int()` as minimum/maximum.
    parameters: {
      type: parameters.type,
      properties: Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          { type: value.type, ...(value.description !== undefined && { description: value.description }) },
        ]),
      ),
      required: [...((parameters.required as string[]) ?? [])].sort(),
    },
  };
}

// ---- tools that answer as the recording clients' tools did -------------------------------------------

const TOOLS = {
  weather: createTool({
    id: 'weather',
    description: 'Get weather information for a location',
    input: z.object({ location: z.string().describe('the city') }),
    invoke: () => '40 C',
  }),
  add: createTool({
    id: 'add',
    description: 'Add two numbers',
    input: z.object({ a: z.int().describe('first number'), b: z.int().describe('second number') }),
    invoke: ({ input }) => input.a + input.b,
  }),
  multiply: createTool({
    id: 'multiply',
    description: 'Multiply two numbers',
    input: z.object({ a: z.int().describe('first number'), b: z.int().describe('second number') }),
    invoke: ({ input }) => input.a * input.b,
  }),
  get_capital: createTool({
    id: 'get_capital',
    description: 'The capital of a country.',
    input: z.object({ country: z.string() }),
    invoke: () => 'Potato City',
  }),
};

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const names = readdirSync(CASSETTES).filter((name) => name.endsWith('.yaml'));

describe('replaying the original cassettes through the platform', () => {
  it('finds every cassette', () => {
    expect(names).toHaveLength(14);
  });

  for (const name of names) {
    it(name.replace(/\.yaml$/, ''), async () => {
      const recorded = load(name);
      const first = recorded[0]!.body;
      const chat = recorded[0]!.url.endsWith('/chat/completions');
      const stream = first.stream === true;
      const model = first.model as string;
      const offered = ((first.tools as Json[] | undefined) ?? []).map(
        (tool) => toolShape(tool, chat).name as keyof typeof TOOLS,
      );
      const reasoning = first.reasoning as { effort?: ModelSettings['reasoningEffort'] } | undefined;
      const maxTokens = (first.max_output_tokens ?? first.max_completion_tokens ?? first.max_tokens) as
        | number
        | undefined;
      const settings: ModelSettings = {
        ...(maxTokens !== undefined && { maxOutputTokens: maxTokens }),
        ...(reasoning?.effort && { reasoningEffort: reasoning.effort }),
      };
      const { instructions, items: firstItems } = conversation(first, chat);
      const input = firstItems.find((item) => item.kind === 'message' && item.role === 'user');

      server = await fixtureServer(recorded.map((interaction) => interaction.reply));
      const platform = createPlatform({
        plugins: [definePlugin({ id: 'recorded', tools: offered.map((tool) => TOOLS[tool]) })],
        model: createOpenAIProvider({
          apiKey: 'test',
          baseURL: server.baseURL,
          api: chat ? 'chat' : 'responses',
          stream,
          maxRetries: 0,
          models: { [model]: settings },
        }),
        models: { normal: model },
        instructions,
        store: new MemoryStore(),
      });
      const { id } = await platform.conversations.create({ userId: 'u' });
      const prompt = await platform.send({
        conversationId: id,
        userId: 'u',
        input: input?.kind === 'message' ? input.content : '',
      });

      // ---- what the prompt recorded -------------------------------------------------------------------
      expect(prompt.state).toBe('completed');
      expect(server.requests).toHaveLength(recorded.length);
      expect(prompt.usage.modelCalls).toBe(recorded.length);
      const texts = recorded.map(answerText).filter((text) => text !== '');
      expect(prompt.output.flatMap((o) => (o.type === 'text' ? [o.text] : []))).toEqual(texts);
      expect(texts.length).toBeGreaterThan(0);
      // The calls the model made are the ones the recording client sent back in the next turn.
      const recordedNext = recorded[1] && conversation(recorded[1].body, chat).items;
      const recordedCalls = recordedNext?.filter((item) => item.kind === 'call') ?? [];
      const recordedOutputs = recordedNext?.filter((item) => item.kind === 'output') ?? [];
      // Every two-turn cassette here is a tool conversation: its second turn must carry calls.
      expect(recordedCalls.length > 0).toBe(recorded.length > 1);
      const tools = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
      expect(
        tools.map((tool) => ({
          kind: 'call',
          callId: tool.callId,
          name: tool.toolId,
          arguments: tool.input,
        })),
      ).toEqual(recordedCalls);
      expect(
        tools.map((tool) => ({
          kind: 'output',
          callId: tool.callId,
          output: tool.result?.type === 'success' ? String(tool.result.output) : tool.result,
        })),
      ).toEqual(recordedOutputs);

      // ---- the requests we sent, against the recorded ones ----------------------------------------------
      for (const [index, { url, body: theirs }] of recorded.entries()) {
        const { path, body: ours } = server.requests[index]!;
        // The same endpoint; OpenRouter's base URL has a prefix (`/api/v1`) that ours has not.
        expect(new URL(url).pathname.endsWith(path)).toBe(true);
        // The model name is whatever the platform maps `normal` to; set to the recorded one here.
        expect(ours.model).toBe(theirs.model);
        expect(Boolean(ours.stream)).toBe(stream);
        if (chat && stream) expect(ours.stream_options).toEqual({ include_usage: true });
        else expect(ours).not.toHaveProperty('stream_options');
        // Chat: `max_completion_tokens` replaced the deprecated `max_tokens` (fantasy still sends that one
        // to OpenAI; its llama.cpp recording shows compatible servers take the new name).
        expect(chat ? ours.max_completion_tokens : ours.max_output_tokens).toBe(maxTokens);
        if (theirs.reasoning) {
          expect(ours.reasoning).toEqual(theirs.reasoning);
          expect(ours.include).toEqual(theirs.include);
        }
        // pydantic-ai asked for encrypted reasoning without a reasoning setting; we ask for it only with a
        // `reasoningEffort`. Its recorded answer carries the encrypted content all the same.

        // Tools: the same names and parameter shapes. Tolerated: we send `strict: true` where the schema
        // allows it (fantasy sends `strict: false`), leave `tool_choice` at its default `auto` (fantasy and
        // pydantic-ai send `auto`), and write a description where pydantic-ai's tool had none (`null`).
        const theirTools = ((theirs.tools as Json[] | undefined) ?? []).map((tool) => toolShape(tool, chat));
        const ourTools = ((ours.tools as Json[] | undefined) ?? []).map((tool) => toolShape(tool, chat));
        expect(ourTools.map(({ name, parameters }) => ({ name, parameters }))).toEqual(
          theirTools.map(({ name, parameters }) => ({ name, parameters })),
        );
        for (const [i, tool] of theirTools.entries()) {
          if (typeof tool.description === 'string') expect(ourTools[i]!.description).toBe(tool.description);
        }

        // The instructions: the same text. Tolerated: the Responses API gets it as `instructions`, where
        // fantasy sends a system/developer input message; the API reads both as the same thing.
        // Also tolerated: we always send `store: false` (pydantic-ai left the default, `true`): we never rely
        // on what the API stores.
        const theirTurn = conversation(theirs, chat);
        const ourTurn = conversation(ours, chat);
        expect(ourTurn.instructions).toBe(theirTurn.instructions);

        // Reasoning items: each one the client sent back, we send back too (same id, with its encrypted
        // content, as `store: false` needs). Tolerated: fantasy leaves out reasoning items it could send, we
        // send every one that has encrypted content (pydantic-ai's recording shows the API takes them).
        const theirReasoning = theirTurn.items.filter((item) => item.kind === 'reasoning');
        const ourReasoning = ourTurn.items.filter((item) => item.kind === 'reasoning');
        for (const item of ourReasoning) expect(item).toMatchObject({ encrypted: true });
        for (const item of theirReasoning) expect(ourReasoning).toContainEqual(item);
        const sent = (item: Item) =>
          item.kind !== 'reasoning' ||
          theirReasoning.some((their) => their.kind === 'reasoning' && their.id === item.id);

        // The whole sequence, in order: messages, reasoning, each response's calls together and then their
        // outputs (call, call, output, output), with the same ids, names and arguments. Tolerated: the text of
        // an assistant message is ours as the model streamed it (pydantic-ai's cassette writes its curly
        // quotes as straight ones) and goes without the `phase` pydantic-ai copies from the answer: core keeps
        // a message's text only. Arguments are compared parsed: core sends back the validated input,
        // re-serialized (`{"a":2,"b":3}` for `{"a": 2, "b": 3}`).
        const shape = (item: Item) =>
          item.kind === 'message'
            ? { kind: item.kind, role: item.role, ...(item.role === 'user' && { content: item.content }) }
            : item.kind === 'thought'
              ? { kind: item.kind }
              : item;
        expect(ourTurn.items.filter(sent).map(shape)).toEqual(theirTurn.items.map(shape));

        // Reasoning on Chat assistant messages goes back in the field it came in (llama.cpp's
        // `reasoning_content`), and OpenRouter's `reasoning_details` as the answer gave them. Tolerated:
        // fantasy loses the first streamed piece of a text block (`" user wants…"` for `"The user wants…"`);
        // we send the whole text.
        const thoughts = (items: Item[]) => items.filter((item) => item.kind === 'thought');
        for (const [i, theirs] of thoughts(theirTurn.items).entries()) {
          const ours = thoughts(ourTurn.items)[i]!;
          if (theirs.kind !== 'thought' || ours.kind !== 'thought') continue;
          if (theirs.text !== undefined && !theirs.details) expect(ours).toEqual(theirs);
          expect(ours.details?.length).toBe(theirs.details?.length);
          for (const [at, detail] of (theirs.details ?? []).entries()) {
            const mine = ours.details![at]!;
            if (detail.type === 'reasoning.text') {
              expect(mine).toMatchObject({ type: detail.type, index: detail.index, format: detail.format });
              expect((mine.text as string).endsWith(detail.text as string)).toBe(true);
            } else expect(mine).toEqual(detail);
          }
        }
        if (chat) {
          // Every tool message answers the assistant message right before its run of tool messages.
          const messages = ours.messages as Json[];
          for (const [position, message] of messages.entries()) {
            if (message.role !== 'tool') continue;
            let at = position - 1;
            while (messages[at]!.role === 'tool') at--;
            const ids = ((messages[at]!.tool_calls as Json[] | undefined) ?? []).map((call) => call.id);
            expect(ids).toContain(message.tool_call_id);
          }
        }
      }
    });
  }
});
