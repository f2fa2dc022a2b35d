import type { Conversation, UserEvent } from './api.ts';

/** The user's stream events that change the list itself (the waiting states change the inbox). */
export type ListEvent = Exclude<UserEvent, { type: 'conversation.waiting' }>;

/**
 * The list after one of the user's stream events: a new conversation goes first (the list is most recent
 * first) unless it is there already (the list was loaded after it was made), a renamed one keeps its place.
 */
export function applyListEvent(list: Conversation[], event: ListEvent): Conversation[] {
  switch (event.type) {
    case 'conversation.created':
      return list.some((c) => c.id === event.conversation.id) ? list : [event.conversation, ...list];
    case 'conversation.renamed':
      return list.map((c) => (c.id === event.conversationId ? { ...c, title: event.title } : c));
    case 'conversation.deleted':
      return list.filter((c) => c.id !== event.conversationId);
  }
}

/** The ids of the conversations with something waiting for the user: a call to approve, a pause to decide. */
export const waitingConversations = (items: readonly { conversationId: string }[]): Set<string> =>
  new Set(items.map((item) => item.conversationId));
