import type { Conversation, PlatformEvents, TesseraEvent } from '@tessera/core';
import { KeyedEventLog } from './event-log.ts';

/**
 * What a user's list of conversations needs to stay live, and nothing more (no prompt's content): a
 * conversation created, renamed or deleted, and whether one waits for the user (a tool call to approve, or a
 * pause to decide).
 */
export type UserEvent =
  | { type: 'conversation.created'; conversation: Conversation }
  | { type: 'conversation.renamed'; conversationId: string; title: string }
  | { type: 'conversation.deleted'; conversationId: string }
  | { type: 'conversation.waiting'; conversationId: string; promptId: string; waiting: boolean };

export type UserEventType = UserEvent['type'];

/**
 * Whether the event says its prompt now waits for the user (true), no longer waits (false), or neither
 * (undefined). A prompt waits for one decision at a time: deciding it resumes the prompt, and a next call to
 * approve asks again.
 */
function waitingAfter(event: TesseraEvent): boolean | undefined {
  switch (event.type) {
    case 'prompt.approval-requested':
    case 'prompt.pause-requested':
      return true;
    case 'prompt.resumed':
    case 'prompt.completed':
    case 'prompt.failed':
    case 'prompt.cancelled':
      return false;
    default:
      return undefined;
  }
}

/**
 * Each user's events (GET /api/me/events), kept as a conversation's are: numbered, resumable with
 * `Last-Event-ID`, bounded in events and bytes. The waiting states come from the platform's events (of every
 * process that shares the store); the other changes from `conversationChanged`, which watch-conversations.ts
 * calls for every change this process writes to the store.
 */
export class UserEventLog extends KeyedEventLog<UserEvent> {
  /** Logs the waiting states of the platform's prompts, until the returned function is called. */
  watch(bus: PlatformEvents): () => void {
    // A user's topic carries their prompts' changes of state, from whichever process runs them.
    this.followOn(bus, (userId) => `user:${userId}`);
    return bus.subscribe({}, (event) => {
      const waiting = waitingAfter(event);
      if (waiting === undefined) return;
      const { conversationId, promptId, userId } = event;
      this.append(userId, { type: 'conversation.waiting', conversationId, promptId, waiting });
    });
  }

  /** A conversation of `userId`'s was created, renamed or deleted. */
  conversationChanged(userId: string, event: Exclude<UserEvent, { type: 'conversation.waiting' }>): void {
    this.append(userId, event);
  }
}
