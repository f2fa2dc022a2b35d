import { ConversationFullError } from '../errors.ts';
import type { Prompt, PromptRecord, StopReason } from '../model/prompt.ts';
import { mark } from './round-caches.ts';
import type { Runtime } from './runtime.ts';

/**
 * A conversation's size bound (`PlatformOptions.maxConversationChars`). Every prompt's start reads its whole
 * history, and so does every read of the conversation: without a bound, one user sending long messages makes
 * each of them cost seconds and hundreds of MB, for every user of the process.
 */

/** The most characters a conversation's record holds by default. */
export const DEFAULT_MAX_CONVERSATION_CHARS = 10_000_000;

const maxChars = (runtime: Runtime) => runtime.options.maxConversationChars ?? DEFAULT_MAX_CONVERSATION_CHARS;

/** A conversation's key among the full ones: its user's too, so another user's send learns nothing of it. */
const fullKey = (userId: string, conversationId: string) => `${userId}\u0000${conversationId}`;

/** A prompt's length as JSON, measured once per (frozen) object: stores hand out the same one again. */
function charsOf(runtime: Runtime, prompt: PromptRecord): number {
  const { recordChars } = runtime.caches;
  let size = recordChars.get(prompt);
  if (size === undefined) {
    size = JSON.stringify(prompt).length;
    recordChars.set(prompt, size);
  }
  return size;
}

/**
 * The size of one prompt's conversation: its history and the prompt's record, measured once when its run
 * starts, then counted as the record grows by what can be long (each model response, each tool result, each
 * steering message), so that checking before every model call and every tool call costs no measuring.
 */
export class ConversationSize {
  readonly #runtime: Runtime;
  readonly #history: readonly PromptRecord[];
  #chars: number | undefined;
  /** Outputs already looked at for steering messages. */
  #seen = 0;

  constructor(runtime: Runtime, history: readonly PromptRecord[]) {
    this.#runtime = runtime;
    this.#history = history;
  }

  /** The record grew by about `chars` (a model response, a tool result). */
  add(chars: number): void {
    if (this.#chars !== undefined) this.#chars += chars;
  }

  /** The stop reason a prompt ends with when its conversation is over the bound (marked full here), else undefined. */
  check(prompt: Prompt): StopReason | undefined {
    const max = maxChars(this.#runtime);
    if (this.#chars === undefined) {
      let chars = JSON.stringify(prompt).length;
      for (const earlier of this.#history) chars += charsOf(this.#runtime, earlier);
      this.#chars = chars;
      this.#seen = prompt.output.length;
    } else {
      const { output } = prompt;
      for (; this.#seen < output.length; this.#seen++) {
        const added = output[this.#seen]!;
        if (added.type === 'steering') this.#chars += (added as { text: string }).text.length;
      }
    }
    if (this.#chars <= max) return undefined;
    mark(this.#runtime.caches.full, fullKey(prompt.userId, prompt.conversationId));
    const { code, message } = new ConversationFullError(prompt.conversationId, max);
    return { code, message };
  }

  /** As `check`, throwing the `ConversationFullError` (the loop ends the prompt with it). */
  assert(prompt: Prompt): void {
    if (this.check(prompt)) throw new ConversationFullError(prompt.conversationId, maxChars(this.#runtime));
  }
}

/** Refuses, before anything is written, a send to a conversation found full in this process. */
export function refuseFull(runtime: Runtime, send: { userId: string; conversationId: string }): void {
  if (runtime.caches.full.has(fullKey(send.userId, send.conversationId))) {
    throw new ConversationFullError(send.conversationId, maxChars(runtime));
  }
}
