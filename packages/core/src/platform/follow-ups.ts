import { ConflictError, ConversationBusyError } from '../errors.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { PromptRun } from '../plugins/define-plugin.ts';
import type { Store } from '../store/store.ts';

/**
 * Starts the conversation's next waiting message as its next prompt, unless a prompt of it is active (that
 * prompt's end calls this again); resolves with the run it started, if any. Messages run oldest first, one
 * at a time: each becomes the prompt with its own id, then leaves the list. Creating the prompt first makes
 * it safe to repeat: a process stopped in between finds the prompt (`ConflictError`) and only takes the
 * message off.
 */
export async function startNextMessage(
  store: Store,
  conversationId: string,
  start: (message: QueuedMessage) => Promise<PromptRun>,
): Promise<PromptRun | undefined> {
  const { messages } = store;
  if (!messages) return undefined;
  for (;;) {
    const [message] = await messages.list(conversationId);
    if (!message) return undefined;
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
