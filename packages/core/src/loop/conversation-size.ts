import { ConversationFullError } from '../errors.ts';
import type { PromptRecord, StopReason } from '../model/prompt.ts';
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

/** Whether the history's record, as JSON, is longer than the bound; each record is measured once. */
function overBound(runtime: Runtime, history: readonly PromptRecord[]): boolean {
  const { recordChars } = runtime.caches;
  const max = maxChars(runtime);
  let chars = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const prompt = history[i]!;
    let size = recordChars.get(prompt);
    if (size === undefined) {
      size = JSON.stringify(prompt).length;
      recordChars.set(prompt, size);
    }
    chars += size;
    if (chars > max) return true;
  }
  return false;
}

/**
 * Checked before anything of a prompt runs: the stop reason it ends with when its history is over the bound
 * (the conversation is then marked full here), else `undefined`.
 */
export function conversationFull(
  runtime: Runtime,
  prompt: { userId: string; conversationId: string },
  history: readonly PromptRecord[],
): StopReason | undefined {
  if (!overBound(runtime, history)) return undefined;
  mark(runtime.caches.full, fullKey(prompt.userId, prompt.conversationId));
  const { code, message } = new ConversationFullError(prompt.conversationId, maxChars(runtime));
  return { code, message };
}

/** Refuses, before anything is written, a send to a conversation found full in this process. */
export function refuseFull(runtime: Runtime, send: { userId: string; conversationId: string }): void {
  if (runtime.caches.full.has(fullKey(send.userId, send.conversationId))) {
    throw new ConversationFullError(send.conversationId, maxChars(runtime));
  }
}
