import type { QueuedMessage } from './QueuedMessages.tsx';

/** The fields of a server event that change the waiting list. */
export type WaitingEvent = {
  type: string;
  promptId: string;
  message?: QueuedMessage;
  messageId?: string;
};

/**
 * Applies one server event to the conversation's waiting messages: a message sent (`message.queued`), taken
 * off by its user (`message.removed`), read by the running prompt (`prompt.steered`), or started as the next
 * prompt (`prompt.started` with the message's own id).
 */
export function applyWaiting(waiting: QueuedMessage[], event: WaitingEvent): QueuedMessage[] {
  switch (event.type) {
    case 'message.queued': {
      const message = event.message;
      if (!message || waiting.some((m) => m.id === message.id)) return waiting;
      return [...waiting, message];
    }
    case 'message.removed':
    case 'prompt.steered':
      return waiting.filter((m) => m.id !== event.messageId);
    case 'prompt.started':
      return waiting.some((m) => m.id === event.promptId)
        ? waiting.filter((m) => m.id !== event.promptId)
        : waiting;
    default:
      return waiting;
  }
}
