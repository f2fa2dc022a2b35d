import { randomBytes } from 'node:crypto';
import type { PlatformEvents, TesseraEvent } from '@tessera/core';

export type LoggedEvent = { id: string; event: TesseraEvent };

/**
 * The recent events of each conversation, numbered, so a client that lost its connection can resume from
 * the last id it saw (`Last-Event-ID`). Ids carry this process's boot id: an id from an earlier process, or
 * one older than what is kept, cannot be resumed and the client is told to reload.
 */
export class EventLog {
  readonly boot = randomBytes(4).toString('hex');
  readonly #logs = new Map<string, LoggedEvent[]>();
  readonly #listeners = new Map<string, Set<(entry: LoggedEvent) => void>>();
  readonly #endListeners = new Map<string, Set<() => void>>();
  readonly #perConversation: number;
  readonly #conversations: number;
  #seq = 0;

  constructor(bus: PlatformEvents, options: { perConversation?: number; conversations?: number } = {}) {
    this.#perConversation = options.perConversation ?? 5_000;
    this.#conversations = options.conversations ?? 1_000;
    bus.subscribe({}, (event) => this.#append(event));
  }

  #append(event: TesseraEvent): void {
    const entry = { id: `${this.boot}-${++this.#seq}`, event };
    let log = this.#logs.get(event.conversationId);
    if (log) this.#logs.delete(event.conversationId);
    else log = [];
    this.#logs.set(event.conversationId, log); // most recently active last
    log.push(entry);
    if (log.length > this.#perConversation) log.splice(0, log.length - this.#perConversation);
    if (this.#logs.size > this.#conversations) this.#logs.delete(this.#logs.keys().next().value as string);
    for (const listener of this.#listeners.get(event.conversationId) ?? []) listener(entry);
  }

  /** Events after `lastEventId`, or `undefined` if that id cannot be resumed from here. */
  since(conversationId: string, lastEventId: string): LoggedEvent[] | undefined {
    // Exactly `<boot>-<seq>` as #append writes it: anything else (`<boot>-`, `<boot>-1-2`) is no position.
    const [, boot, seqText] = /^([0-9a-f]+)-(0|[1-9][0-9]{0,14})$/.exec(lastEventId) ?? [];
    const seq = Number(seqText);
    if (boot !== this.boot || seq > this.#seq) return undefined; // another process's id, or one never given
    const log = this.#logs.get(conversationId) ?? [];
    const first = log[0];
    if (first && Number(first.id.split('-')[1]) > seq + 1) return undefined; // a gap: events were dropped
    return log.filter((entry) => Number(entry.id.split('-')[1]) > seq);
  }

  /**
   * Tells this process's streams of a conversation that it is gone (deleted here): they end, and the
   * client's reconnection is answered 404.
   */
  end(conversationId: string): void {
    for (const listener of this.#endListeners.get(conversationId) ?? []) listener();
    this.#logs.delete(conversationId);
  }

  onEnd(conversationId: string, listener: () => void): () => void {
    return this.#add(this.#endListeners, conversationId, listener);
  }

  listen(conversationId: string, listener: (entry: LoggedEvent) => void): () => void {
    return this.#add(this.#listeners, conversationId, listener);
  }

  #add<T>(all: Map<string, Set<T>>, conversationId: string, listener: T): () => void {
    let listeners = all.get(conversationId);
    if (!listeners) {
      listeners = new Set();
      all.set(conversationId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) all.delete(conversationId);
    };
  }
}
