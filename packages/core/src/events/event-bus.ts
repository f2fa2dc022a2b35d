// Node's own web stream (core runs on Node): its type has values(), which DOM's lib lacks without DOM.AsyncIterable.
import { ReadableStream } from 'node:stream/web';
import { EventStreamOverflowError } from '../errors.ts';
import { isLoopEndEvent, isPromptEndEvent, type TesseraEvent } from './events.ts';

/**
 * What a routed relay routes by: a conversation (all of its events, and cancel requests for its prompts), or
 * a user (only their prompts' changes of state: started, waiting for them, resumed, ended).
 */
export type RelayTopic = `conversation:${string}` | `user:${string}`;

/**
 * The topics a process follows, as a routed relay takes them (see `EventRelay.routes`): `add` may return a
 * promise that resolves once the topic's messages reach this process (it never rejects).
 */
export type RelayRoutes = { add(topic: RelayTopic): void | Promise<void>; delete(topic: RelayTopic): void };

/** Ends an interest in a topic (`EventBus.follow`); `ready` resolves once its messages reach this process. */
export type Following = { (): void; readonly ready: Promise<void> };

export type EventFilter = {
  promptId?: string;
  conversationId?: string;
  userId?: string;
  /**
   * Only the events of this process, not those a relay brought from the other processes that share the
   * store: for work done once per prompt, by the process that runs it (tracing, metrics).
   */
  local?: boolean;
};
export type EventHandler = (event: TesseraEvent & { seq: number }) => void | Promise<void>;

export type StreamOptions = {
  signal?: AbortSignal;
  /** Events kept for a consumer that reads slower than they come; past this the stream fails. */
  maxBuffered?: number;
  /**
   * For a stream of one prompt (`{ promptId }`): follow it through its pauses (approvals, `pause` outputs)
   * and end only when it ends (completed, failed or cancelled), instead of at the first pause.
   * @default false
   */
  throughPauses?: boolean;
};

const matches = (filter: EventFilter, event: TesseraEvent, relayed: boolean): boolean =>
  !(relayed && filter.local) &&
  (filter.promptId === undefined || filter.promptId === event.promptId) &&
  (filter.conversationId === undefined || filter.conversationId === event.conversationId) &&
  (filter.userId === undefined || filter.userId === event.userId);

/**
 * In-process publish/subscribe. Handlers run synchronously in publish order; a handler that throws or
 * rejects is reported to `onHandlerError` and never reaches the publisher (the loop).
 */
export class EventBus {
  readonly #handlers = new Set<{ filter: EventFilter; handler: EventHandler }>();
  readonly #onHandlerError: (error: unknown, event: TesseraEvent) => void;
  #seq = 0;
  /** The topics followed here, with how many interests hold each (see `follow`). */
  readonly #followed = new Map<RelayTopic, { count: number; ready: Promise<void> }>();
  #routes: RelayRoutes | undefined;

  constructor(options: { onHandlerError?: (error: unknown, event: TesseraEvent) => void } = {}) {
    this.#onHandlerError = options.onHandlerError ?? (() => {});
  }

  /** `relayed`: the event comes from another process (see `EventFilter.local`). */
  publish(event: TesseraEvent, { relayed = false } = {}): void {
    const seq = ++this.#seq;
    if (this.#handlers.size === 0) return;
    const sequenced = { ...event, seq };
    for (const { filter, handler } of this.#handlers) {
      if (!matches(filter, event, relayed)) continue;
      try {
        const result = handler(sequenced);
        if (result instanceof Promise) result.catch((error) => this.#onHandlerError(error, event));
      } catch (error) {
        this.#onHandlerError(error, event);
      }
    }
  }

  /** Calls `handler` for every matching event until the returned function is called. */
  subscribe(filter: EventFilter, handler: EventHandler): () => void {
    const entry = { filter, handler };
    this.#handlers.add(entry);
    return () => this.#handlers.delete(entry);
  }

  /**
   * Receives the events of `topic` from the other processes too, until the returned function is called (once
   * for each call: interests are counted, and a topic is dropped when its last one ends). Only a routed
   * relay needs it; without one it changes nothing.
   */
  follow(topic: RelayTopic): Following {
    let entry = this.#followed.get(topic);
    if (!entry) {
      entry = { count: 0, ready: Promise.resolve(this.#routes?.add(topic)) };
      this.#followed.set(topic, entry);
    }
    entry.count++;
    let followed = true;
    const unfollow = () => {
      if (!followed) return;
      followed = false;
      if (--entry.count > 0) return;
      this.#followed.delete(topic);
      this.#routes?.delete(topic);
    };
    return Object.assign(unfollow, { ready: entry.ready });
  }

  /** Tells `routes` the topics followed now and from now on (one relay at a time), until the returned function is called. */
  routeTo(routes: RelayRoutes): () => void {
    this.#routes = routes;
    for (const [topic, entry] of this.#followed) entry.ready = Promise.resolve(routes.add(topic));
    return () => {
      if (this.#routes === routes) this.#routes = undefined;
    };
  }

  /**
   * Matching events as an async iterator. A stream for one prompt ends when that prompt's loop stops
   * (completed, failed, cancelled, or paused for approval; with `throughPauses`, only when it ends); any
   * stream ends when `signal` aborts.
   */
  stream(
    filter: EventFilter,
    options: StreamOptions = {},
  ): AsyncIterableIterator<TesseraEvent & { seq: number }> {
    const { signal, maxBuffered: limit = 10_000 } = options;
    const isEnd = options.throughPauses ? isPromptEndEvent : isLoopEndEvent;
    let stop = () => {};
    // A stream whose queue holds at most `limit` events: what a slow reader has not read yet.
    const events = new ReadableStream<TesseraEvent & { seq: number }>(
      {
        start: (queue) => {
          const finish = (error?: Error) => {
            stop();
            if (error) queue.error(error);
            else queue.close();
          };
          const onAbort = () => finish();
          const unsubscribe = this.subscribe(filter, (event) => {
            if (queue.desiredSize! <= 0) return finish(new EventStreamOverflowError(limit));
            queue.enqueue(event);
            if (filter.promptId !== undefined && isEnd(event)) finish();
          });
          stop = () => {
            unsubscribe();
            signal?.removeEventListener('abort', onAbort);
          };
          if (signal?.aborted) finish();
          else signal?.addEventListener('abort', onAbort, { once: true });
        },
        // The reader broke out of its loop (or called return()): nothing more is queued for it.
        cancel: () => stop(),
      },
      { highWaterMark: limit },
    );
    return events.values();
  }
}
