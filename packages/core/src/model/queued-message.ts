/**
 * A user's message waiting for its conversation: `steer` reaches the running prompt at its next round
 * boundary (or, if that prompt ends first, runs as the next prompt); `queue` runs as the next prompt once the
 * current one ends, in order. Never dropped: it waits in the store until delivered or removed by the user.
 */
export type QueuedMessage = {
  /** `msg_…`; a queued message runs as the prompt with this same id. */
  id: string;
  conversationId: string;
  userId: string;
  mode: 'steer' | 'queue';
  input: string;
  createdAt: string;
};
