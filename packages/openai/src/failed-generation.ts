import type { ModelStreamEvent } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';

/**
 * A server that checks the model's tool call itself and refuses it: Groq ends the call with
 * `code: 'tool_use_failed'` and the model's output in `failed_generation` (as an HTTP 400 before a stream,
 * or as an `error` event inside one; OpenRouter passes Groq's body on as a string in `metadata.raw`). The
 * request was fine, the model's output was not, so the output goes back to the model instead of failing the
 * prompt: as the call it tried to make, which the loop validates against the tool's schema and records as
 * failed (`invalid_arguments`, `unknown_tool`) so the model can correct it in its next round; or, when it
 * names no tool, as the text it wrote with a note of the server's refusal. The prompt's budgets (`maxRounds`,
 * `maxConsecutiveToolErrors`) bound how often a model may try again.
 */
export type FailedGeneration = { message: string; generation: string };

/** Longer generations are not parsed (a hostile server could send megabytes); their text is cut to this. */
const MAX_GENERATION_CHARS = 64 * 1024;
/** The server's message and OpenRouter's `metadata.raw` are read up to these sizes. */
const MAX_MESSAGE_CHARS = 1_000;
const MAX_RAW_CHARS = 256 * 1024;
const MAX_CALLS = 16;
const MAX_NAME_CHARS = 256;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

/** The refused generation an error carries (the SDK's `error.error`, the body's `error` object), if any. */
export function failedGeneration(error: unknown): FailedGeneration | undefined {
  const body = isObject(error) ? own(error, 'error') : undefined;
  if (!isObject(body)) return undefined;
  if (own(body, 'code') === 'tool_use_failed') {
    const generation = own(body, 'failed_generation');
    const message = own(body, 'message');
    return {
      message: (typeof message === 'string' ? message : 'The server refused the tool call.').slice(
        0,
        MAX_MESSAGE_CHARS,
      ),
      generation: typeof generation === 'string' ? generation : '',
    };
  }
  const raw = isObject(own(body, 'metadata')) ? own(own(body, 'metadata') as Json, 'raw') : undefined;
  if (typeof raw !== 'string' || raw.length > MAX_RAW_CHARS || !raw.includes('tool_use_failed'))
    return undefined;
  try {
    return failedGeneration(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** Where `untilRefused` leaves the refusal that ended a stream. */
export type Refusal = { failed?: FailedGeneration };

/**
 * `source` until the server refuses a tool call in it: the stream then ends, and `refusal.failed` holds the
 * refused generation. Any other error passes on.
 */
export async function* untilRefused<T>(source: AsyncIterable<T>, refusal: Refusal): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    const failed = failedGeneration(error);
    if (!failed) throw error;
    refusal.failed = failed;
  }
}

/** The events that hand a refused generation back to the loop, in place of the error. */
export function* refusedGenerationEvents(
  failed: FailedGeneration,
  names: ToolNames,
): Generator<ModelStreamEvent> {
  const calls = failed.generation.length <= MAX_GENERATION_CHARS ? callsIn(failed.generation) : [];
  if (calls.length > 0) {
    for (const [n, call] of calls.entries()) {
      yield {
        type: 'tool-call',
        callId: `call_tool_use_failed_${n + 1}`,
        name: names.fromApi(call.name),
        arguments: call.arguments,
      };
    }
    yield { type: 'finish', reason: 'tool_calls' };
    return;
  }
  const text = failed.generation.slice(0, MAX_GENERATION_CHARS).trim();
  const note = `(The model server refused this answer: ${failed.message})`;
  yield { type: 'text-delta', delta: text ? `${text}\n\n${note}` : note };
  yield { type: 'finish', reason: 'stop' };
}

type Call = { name: string; arguments: string };

/**
 * The calls a refused generation names, in the shapes servers give: JSON `{"name", "arguments"}` (or a list
 * of them, or in `<tool_call>` tags), and Llama's `<function=name>{…}</function>` (also `<function=name{…}>`
 * and `<function=name({…})>`). Arguments are kept as the model wrote them: the loop parses and validates them.
 */
function callsIn(generation: string): Call[] {
  const text = generation
    .trim()
    .replace(/^<tool_call>\s*/, '')
    .replace(/\s*<\/tool_call>$/, '');
  if (text.startsWith('<function=')) return functionTags(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const items = Array.isArray(parsed) ? parsed.slice(0, MAX_CALLS) : [parsed];
  const calls = items.map(jsonCall);
  return calls.every((call) => call !== undefined) ? calls : [];
}

const CALL_KEYS = new Set(['name', 'arguments', 'parameters', 'id', 'type']);

/** `{"name": …, "arguments": …}` and nothing else (a JSON answer with a `name` field is not a call). */
function jsonCall(item: unknown): Call | undefined {
  if (!isObject(item) || !Object.keys(item).every((key) => CALL_KEYS.has(key))) return undefined;
  const name = own(item, 'name');
  if (typeof name !== 'string' || name === '' || name.length > MAX_NAME_CHARS) return undefined;
  const args = own(item, 'arguments') ?? own(item, 'parameters');
  return { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
}

const FUNCTION_TAG = /<function=([A-Za-z0-9_.:-]{1,256})(.*?)(?:<\/function>|(?=<function=)|$)/gs;

function functionTags(text: string): Call[] {
  const calls: Call[] = [];
  for (const [, name, rest] of text.matchAll(FUNCTION_TAG)) {
    if (calls.length >= MAX_CALLS) break;
    let args = rest!.trim();
    if (args.startsWith('>')) args = args.slice(1).trim();
    if (args.endsWith('>')) args = args.slice(0, -1).trim();
    if (args.startsWith('(') && args.endsWith(')')) args = args.slice(1, -1).trim();
    calls.push({ name: name!, arguments: args });
  }
  return calls;
}
