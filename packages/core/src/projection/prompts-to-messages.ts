import type { Prompt } from '../model/prompt.ts';
import { isFinalState } from '../model/prompt.ts';
import { boundText } from '../outputs/bounds.ts';
import type { ProjectionContext } from '../outputs/define-output.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import { isWithheld, withheldIn } from '../outputs/withheld.ts';
import { type ModelMessage, userMessage } from '../provider/messages.ts';
import { estimateTokens } from '../provider/provider.ts';
import { ResponseOrder } from './response-order.ts';

export const DEFAULT_MAX_RESULT_CHARS = 20_000;

export type ProjectionOptions = {
  /** The registered output variants and their projections. */
  outputs: OutputRegistry;
  /**
   * Bound on each text a single output contributes (tool results, call arguments, summaries). Default
   * 20,000 chars.
   */
  maxResultChars?: number;
  /**
   * Fit the history into this many estimated tokens: the oldest whole prompts are left out first, never a
   * call without its result, never the last (current) prompt.
   */
  budget?: { maxTokens: number; estimate?: (messages: readonly ModelMessage[]) => number };
  /** Reuses the projection of prompts that have ended, which never changes. */
  cache?: ProjectionCache;
};

/**
 * One prompt's messages: its input as a user message, then each output through its variant's projection,
 * grouped by model response (see `appendGrouped`).
 */
export function projectPrompt(
  prompt: Prompt,
  outputs: OutputRegistry,
  context: ProjectionContext,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  // What a guardrail blocked is left out; its `guardrail` output says so where it was recorded.
  const withheld = withheldIn(prompt);
  if (prompt.input !== undefined && prompt.input !== '' && !withheld?.input)
    messages.push(userMessage(prompt.input));
  const start = messages.length;
  for (const output of prompt.output) {
    if (withheld && isWithheld(output, withheld)) continue;
    for (const message of outputs.project(output, context)) messages.push(message);
  }
  return grouped(messages, start);
}

/** `messages` with those from `start` on grouped by response (see `appendGrouped`), in place. */
const grouped = (messages: ModelMessage[], start: number): ModelMessage[] =>
  regroups(messages, start) ? appendGrouped(messages.splice(start), messages) : messages;

/**
 * Whether `appendGrouped` would change the order of `messages` from `start` on: only when an item of a
 * response comes after something it holds back (its calls' results, what they emitted), or a result after
 * something emitted. Most rounds (one call a response) are in order already, and are not copied again.
 */
export function regroups(messages: readonly ModelMessage[], start = 0): boolean {
  return !new ResponseOrder().all(messages, start);
}

/**
 * Pushes `source` onto `into` with each model response's items (reasoning, text and calls carrying its
 * `responseId`) first, in the order the model streamed them, then the outputs of its calls, then whatever
 * else its calls recorded (outputs tools emitted): one answer, then its results (A, B, result A, result B),
 * as the APIs expect a turn with parallel calls. Messages of no response pass through where they are.
 */
export function appendGrouped(source: readonly ModelMessage[], into: ModelMessage[]): ModelMessage[] {
  let response: string | undefined;
  const calls: string[] = [];
  const results: ModelMessage[] = [];
  const emitted: ModelMessage[] = [];
  for (let i = 0; i < source.length; i++) {
    const message = source[i]!;
    const id = message.type === 'function_call_output' ? undefined : message.responseId;
    if (id !== undefined) {
      if (id !== response) {
        closeResponse(into, results, emitted);
        calls.length = 0;
        response = id;
      }
      if (message.type === 'function_call') calls.push(message.callId);
      into.push(message);
    } else if (response === undefined) {
      into.push(message);
    } else if (message.type === 'function_call_output' && calls.includes(message.callId)) {
      results.push(message);
    } else if (message.type === 'message' && message.role === 'user') {
      closeResponse(into, results, emitted);
      response = undefined;
      into.push(message);
    } else {
      emitted.push(message);
    }
  }
  closeResponse(into, results, emitted);
  return into;
}

function closeResponse(into: ModelMessage[], results: ModelMessage[], emitted: ModelMessage[]): void {
  if (results.length > 0) {
    for (const message of results) into.push(message);
    results.length = 0;
  }
  if (emitted.length > 0) {
    for (const message of emitted) into.push(message);
    emitted.length = 0;
  }
}

type Projected = { messages: ModelMessage[]; tokens: number };

/**
 * Projections of ended prompts, keyed by prompt id and bounded in number and in characters (least recently
 * used goes first): one process's cache serves every user, and a prompt's projection holds its input and
 * results, up to hundreds of KB each. A prompt object seen before (stores that keep their records in memory
 * hand out the same one) is found by identity first, without building its key.
 */
export class ProjectionCache {
  readonly #entries = new Map<string, Projected & { chars: number }>();
  readonly #byObject = new WeakMap<Prompt, { updatedAt: string; projected: Projected }>();
  /** Whole histories joined into one array, by their last prompt (see `projectHistory`). */
  readonly joined = new WeakMap<Prompt, Joined>();
  readonly #limit: number;
  readonly #maxChars: number;
  #chars = 0;
  constructor(limit = 20_000, maxChars = 32_000_000) {
    this.#limit = limit;
    this.#maxChars = maxChars;
  }
  get(prompt: Prompt): Projected | undefined {
    if (!isFinalState(prompt.state)) return undefined;
    const known = this.#byObject.get(prompt);
    if (known && known.updatedAt === prompt.updatedAt) return known.projected;
    const key = `${prompt.id}@${prompt.updatedAt}`;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      this.#byObject.set(prompt, { updatedAt: prompt.updatedAt, projected: hit });
    }
    return hit;
  }
  set(prompt: Prompt, projected: Projected): void {
    if (!isFinalState(prompt.state)) return;
    // The default estimate counts characters (four a token), whatever the provider's tokenizer says.
    const chars = estimateTokens(projected.messages) * 4;
    if (chars > this.#maxChars / 8) return; // one prompt never takes the room of many
    const key = `${prompt.id}@${prompt.updatedAt}`;
    this.#forget(key);
    this.#entries.set(key, { ...projected, chars });
    this.#chars += chars;
    this.#byObject.set(prompt, { updatedAt: prompt.updatedAt, projected });
    while (this.#entries.size > this.#limit || this.#chars > this.#maxChars) {
      this.#forget(this.#entries.keys().next().value as string);
    }
  }

  #forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#chars -= entry.chars;
  }
}

type Joined = { prompts: readonly Prompt[]; updatedAt: readonly string[]; messages: readonly ModelMessage[] };

/** How far back `projectHistory` looks for a history it joined before, which this one continues. */
const MAX_NEW_PROMPTS = 8;

/**
 * The messages of a history of ended prompts (a conversation's prompts before the current one), as
 * `promptsToMessages` makes them, joined once and then reused: as they are by every run over the same prompt
 * objects (the in-memory store hands out the same ones), and extended by the next prompt of a conversation,
 * whose history is the last one plus a prompt or two. Read-only: a caller copies it before adding to it (it
 * is not frozen, because `concat` takes a slow path on frozen arrays).
 */
export function projectHistory(
  prompts: readonly Prompt[],
  options: ProjectionOptions,
): readonly ModelMessage[] {
  const { cache } = options;
  const last = prompts.at(-1);
  if (!cache || !last || !prompts.every((prompt) => isFinalState(prompt.state))) {
    return promptsToMessages(prompts, options);
  }
  let messages: readonly ModelMessage[] | undefined;
  for (let end = prompts.length; end > 0 && end >= prompts.length - MAX_NEW_PROMPTS; end--) {
    const earlier = cache.joined.get(prompts[end - 1]!);
    if (!earlier || !continues(prompts, earlier, end)) continue;
    if (end === prompts.length) return earlier.messages;
    messages = earlier.messages.concat(promptsToMessages(prompts.slice(end), options));
    cache.joined.delete(prompts[end - 1]!); // one joined history per conversation, not one per prompt
    break;
  }
  messages ??= promptsToMessages(prompts, options);
  cache.joined.set(last, {
    prompts: [...prompts],
    updatedAt: prompts.map((prompt) => prompt.updatedAt),
    messages,
  });
  return messages;
}

/** Whether `prompts` starts with the `end` prompts `earlier` was joined from, unchanged. */
function continues(prompts: readonly Prompt[], earlier: Joined, end: number): boolean {
  if (earlier.prompts.length !== end) return false;
  for (let i = 0; i < end; i++) {
    if (earlier.prompts[i] !== prompts[i] || earlier.updatedAt[i] !== prompts[i]!.updatedAt) return false;
  }
  return true;
}

/**
 * The lossy projection of a conversation's prompts (the last one being the current prompt) into
 * provider-neutral model messages: user inputs, assistant text, and function call + output pairs, with
 * display-only outputs left out. Every call gets exactly one output, whatever state it is in.
 */
export function promptsToMessages(prompts: readonly Prompt[], options: ProjectionOptions): ModelMessage[] {
  const maxChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const context: ProjectionContext = { bound: (text) => boundText(text, maxChars), maxChars };
  const estimate = options.budget?.estimate ?? estimateTokens;
  const projected = prompts.map((prompt) => {
    const cached = options.cache?.get(prompt);
    if (cached) return cached;
    const messages = projectPrompt(prompt, options.outputs, context);
    const entry = { messages, tokens: estimate(messages) };
    options.cache?.set(prompt, entry);
    return entry;
  });

  let first = 0;
  if (options.budget) {
    let total = projected.reduce((sum, entry) => sum + entry.tokens, 0);
    while (first < projected.length - 1 && total > options.budget.maxTokens) {
      total -= projected[first]!.tokens;
      first += 1;
    }
  }
  const messages: ModelMessage[] = [];
  for (let i = first; i < projected.length; i++) {
    for (const message of projected[i]!.messages) messages.push(message);
  }
  return messages;
}
