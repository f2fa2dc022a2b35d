import { ConflictError, ConversationBusyError } from '../errors.ts';
import { mark, type RoundCaches } from '../loop/round-caches.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { PromptRun } from '../plugins/define-plugin.ts';
import type { Store } from '../store/store.ts';

/**
 * Starts the conversation's next waiting message as its next prompt, unless a prompt of it is active (that
 * prompt's end calls this again); resolves with the run it started, if any. Messages run oldest first, one
 * at a time: each becomes the prompt with its own id, then leaves the list. Creating the prompt first makes
 * it safe to repeat: a process stopped in between finds the prompt (`ConflictError`) and only takes the
 * message off. A prompt's end calls this only when `caches.messages` marks the conversation.
 */
export async function startNextMessage(
  store: Store,
  conversationId: string,
  start: (message: QueuedMessage) => Promise<PromptRun>,
  caches: Pick<RoundCaches, 'messages' | 'steering'>,
): Promise<PromptRun | undefined> {
  const { messages } = store;
  if (!messages) return undefined;
  // Unmarked before the read, so that a message sent meanwhile keeps its mark; marked again below whenever
  // one may still wait after this, for the end of a prompt that runs then to look again.
  caches.messages.delete(conversationId);
  for (;;) {
    let waiting: QueuedMessage[];
    try {
      waiting = await messages.list(conversationId);
    } catch (error) {
      mark(caches.messages, conversationId);
      throw error;
    }
    const [message, ...behind] = waiting;
    if (!message) return undefined;
    // Marked before the start, whatever comes of it: the end of a prompt that holds the conversation may come
    // after the store refused this start as busy but before the refusal arrives here, and must look again.
    // The end of the prompt started here then reads once more (the messages behind this one, or nothing).
    mark(caches.messages, conversationId);
    // Its first round boundary reads the steering behind it.
    if (behind.some((m) => m.mode === 'steer')) mark(caches.steering, conversationId);
    try {
      const run = await start(message);
      await messages.remove(conversationId, [message.id]);
      return run;
    } catch (error) {
      if (ConversationBusyError.is(error)) return undefined;
      if (!ConflictError.is(error)) throw error;
      // Its prompt exists already: it was started before a process stopped. Only the removal was left.
      await messages.remove(conversationId, [message.id]);
    }
  }
}

/**
 * `look` for a conversation's next message, one look at a time per conversation in this process, each after
 * the last. A second look (a prompt's end) that ran while the first was still starting a message would find
 * that message's prompt reserved here, take it for a prompt already started (`ConflictError`) and take the
 * message off unrun; after the first, it starts what the first could not (refused as busy by the prompt whose
 * end this is). Resolves or rejects as its own look does.
 */
export function oneAtATime<T>(
  look: (conversationId: string) => Promise<T>,
): (conversationId: string) => Promise<T> {
  const looking = new Map<string, Promise<T>>();
  return (conversationId) => {
    const next = (looking.get(conversationId) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => look(conversationId));
    looking.set(conversationId, next);
    const forget = () => {
      if (looking.get(conversationId) === next) looking.delete(conversationId);
    };
    next.then(forget, forget);
    return next;
  };
}
