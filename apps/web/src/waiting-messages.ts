import type { QueuedMessage } from './QueuedMessages.tsx';

/** The fields of a server event that change the waiting list. */
export type WaitingEvent = {
  type: string;
  promptId: string;
  message?: QueuedMessage;
  messageId?: string;
  output?: { type: string; messageId?: string };
};

/**
 * Applies one server event to the conversation's waiting messages: a message sent (`message.queued`), taken
 * off by its user (`message.removed`), recorded or read by the running prompt (`prompt.output` of a steering
 * output, `prompt.steered`), or started as the next
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
    case 'prompt.output': {
      // Recorded as steering in the running prompt: shown there (it leaves the list once the model answered
      // it; a prompt that ends first gives it back, and `message.queued` lists it again).
      const messageId = event.output?.type === 'steering' ? event.output.messageId : undefined;
      return messageId === undefined ? waiting : waiting.filter((m) => m.id !== messageId);
    }
    case 'prompt.started':
      return waiting.some((m) => m.id === event.promptId)
        ? waiting.filter((m) => m.id !== event.promptId)
        : waiting;
    default:
      return waiting;
  }
}

/** The waiting messages not yet shown as steering in a prompt (recorded, not yet answered by the model). */
export function notRecorded(
  waiting: QueuedMessage[],
  prompts: readonly { output: readonly { type: string; messageId?: unknown }[] }[],
): QueuedMessage[] {
  const recorded = new Set<unknown>();
  for (const prompt of prompts)
    for (const output of prompt.output) if (output.type === 'steering') recorded.add(output.messageId);
  return recorded.size === 0 ? waiting : waiting.filter((m) => !recorded.has(m.id));
}
