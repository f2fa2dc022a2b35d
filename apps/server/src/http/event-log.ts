import { randomBytes } from 'node:crypto';
import type { PlatformEvents, TesseraEvent } from '@tessera/core';

export type LoggedEvent = { id: string; event: TesseraEvent };

/**
 * The recent events of each conversation, numbered, so a client that lost its connection can resume from
 * the last id it saw (`Last-Event-ID`). Ids carry this process's boot id: an id from an earlier process, or
 * one older than what is kept, cannot be resumed and the client is told to reload.
 *
 * Bounded in events, not only in conversations: an event can carry a whole prompt, and a busy server would
 * otherwise keep thousands of them per conversation. Past `maxEvents`, the least recently active
 * conversations' logs go first; past `perConversation`, a conversation's oldest events.
 */
export class EventLog {
  readonly boot = randomBytes(4).toString('hex');
  readonly #logs = new Map<string, LoggedEvent[]>();
  readonly #listeners = new Map<string, Set<(entry: LoggedEvent) => void>>();
  readonly #endListeners = new Map<string, Set<() => void>>();
  readonly #perConversation: number;
  readonly #maxEvents: number;
  #seq = 0;
  #total = 0;
  /** The newest event whose conversation's log was dropped whole: a resume from before it may miss some. */
  #droppedUpTo = 0;

  constructor(bus: PlatformEvents, options: { perConversation?: number; maxEvents?: number } = {}) {
    this.#maxEvents = options.maxEvents ?? 20_000;
    this.#perConversation = Math.min(options.perConversation ?? 1_000, this.#maxEvents);
    bus.subscribe({}, (event) => this.#append(event));
  }

  #append(event: TesseraEvent): void {
    const seq = ++this.#seq;
    const entry = { id: `${this.boot}-${seq}`, event };
    let log = this.#logs.get(event.conversationId);
    if (log) this.#logs.delete(event.conversationId);
    else log = [];
    this.#logs.set(event.conversationId, log); // most recently active last
    log.push(entry);
    this.#total++;
    if (log.length > this.#perConversation) {
      const excess = log.length - this.#perConversation;
      log.splice(0, excess);
      this.#total -= excess;
    }
    while (this.#total > this.#maxEvents) this.#dropOldestLog();
    for (const listener of this.#listeners.get(event.conversationId) ?? []) listener(entry);
  }

  #dropOldestLog(): void {
    const [conversationId, log] = this.#logs.entries().next().value as [string, LoggedEvent[]];
    this.#logs.delete(conversationId);
    this.#total -= log.length;
    const last = log.at(-1);
    if (last) this.#droppedUpTo = Math.max(this.#droppedUpTo, seqOf(last.id));
  }

  /** Events after `lastEventId`, or `undefined` if that id cannot be resumed from here. */
  since(conversationId: string, lastEventId: string): LoggedEvent[] | undefined {
    // Exactly `<boot>-<seq>` as #append writes it: anything else (`<boot>-`, `<boot>-1-2`) is no position.
    const [, boot, seqText] = /^([0-9a-f]+)-(0|[1-9][0-9]{0,14})$/.exec(lastEventId) ?? [];
    const seq = Number(seqText);
    if (boot !== this.boot || seq > this.#seq) return undefined; // another process's id, or one never given
    const log = this.#logs.get(conversationId);
    // Its log was dropped (or never was) while events newer than `seq` were: some may be missing.
    if (!log && seq < this.#droppedUpTo) return undefined;
    const first = log?.[0];
    if (first && seqOf(first.id) > seq + 1) return undefined; // a gap: its oldest events were dropped
    return (log ?? []).filter((entry) => seqOf(entry.id) > seq);
  }

  /**
   * Tells this process's streams of a conversation that it is gone (deleted here): they end, and the
   * client's reconnection is answered 404.
   */
  end(conversationId: string): void {
    for (const listener of this.#endListeners.get(conversationId) ?? []) listener();
    this.#total -= this.#logs.get(conversationId)?.length ?? 0;
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

const seqOf = (id: string) => Number(id.slice(id.indexOf('-') + 1));
