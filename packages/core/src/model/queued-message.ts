import type { ModelClass } from './prompt.ts';

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
  /** The model class its prompt runs on when it runs as a prompt of its own (steering joins the running one's). */
  model?: ModelClass;
  /** The prompt's `metadata` when it runs as a prompt of its own, e.g. the sender's `timeZone`. */
  metadata?: Record<string, unknown>;
  createdAt: string;
};
