import type { MessageDelivery } from '../plugins/define-plugin.ts';

type Waiter = { conversationId: string; settle: (delivery: MessageDelivery) => void };

/**
 * What became of the messages sent from this platform: each `messages.send()` gets a promise that settles
 * once, when its message runs as a prompt, reaches a running prompt as steering, is removed, or the
 * platform closes. At most `limit` are watched at once (the oldest is let go first, as `untracked`), so a
 * conversation with many waiting messages costs bounded memory; the messages themselves wait in the store.
 */
export class MessageDeliveries {
  readonly #waiting = new Map<string, Waiter>();
  readonly #limit: number;

  constructor(limit = 10_000) {
    this.#limit = limit;
  }

  /** Watches a message from before it is stored: resolves (never rejects) with what became of it. */
  watch(messageId: string, conversationId: string): Promise<MessageDelivery> {
    if (this.#waiting.size >= this.#limit) {
      const [oldest] = this.#waiting.keys();
      if (oldest !== undefined) this.settle(oldest, { type: 'untracked' });
    }
    return new Promise((settle) => {
      this.#waiting.set(messageId, { conversationId, settle });
    });
  }

  /** Settles a watched message (once: later calls for it do nothing). */
  settle(messageId: string, delivery: MessageDelivery): void {
    const waiter = this.#waiting.get(messageId);
    if (!waiter) return;
    this.#waiting.delete(messageId);
    waiter.settle(delivery);
  }

  /** Whether a message is watched here (its delivery not settled yet). */
  has(messageId: string): boolean {
    return this.#waiting.has(messageId);
  }

  /** The conversation was deleted, and its waiting messages with it. */
  removeConversation(conversationId: string): void {
    for (const [messageId, waiter] of this.#waiting) {
      if (waiter.conversationId === conversationId) this.settle(messageId, { type: 'removed' });
    }
  }

  /** The platform closed: what still waits is left in the store, for the next one to run. */
  closeAll(): void {
    for (const messageId of [...this.#waiting.keys()]) this.settle(messageId, { type: 'closed' });
  }
}
