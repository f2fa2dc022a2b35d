import { EventStreamOverflowError } from '../errors.ts';
import { isLoopEndEvent, isPromptEndEvent, type TesseraEvent } from './events.ts';

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
   * Matching events as an async iterator. A stream for one prompt ends when that prompt's loop stops
   * (completed, failed, cancelled, or paused for approval; with `throughPauses`, only when it ends); any
   * stream ends when `signal` aborts.
   */
  stream(
    filter: EventFilter,
    options: StreamOptions = {},
  ): AsyncIterableIterator<TesseraEvent & { seq: number }> {
    const limit = options.maxBuffered ?? 10_000;
    const isEnd = options.throughPauses ? isPromptEndEvent : isLoopEndEvent;
    const queue: (TesseraEvent & { seq: number })[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    let failure: Error | undefined;

    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      failure = error;
      unsubscribe();
      options.signal?.removeEventListener('abort', onAbort);
      wake?.();
    };
    const onAbort = () => finish();
    const unsubscribe = this.subscribe(filter, (event) => {
      if (done) return;
      if (queue.length >= limit) return finish(new EventStreamOverflowError(limit));
      queue.push(event);
      if (filter.promptId !== undefined && isEnd(event)) finish();
      wake?.();
    });
    if (options.signal?.aborted) finish();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const iterator: AsyncIterableIterator<TesseraEvent & { seq: number }> = {
      async next() {
        while (queue.length === 0 && !done) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        if (failure) {
          const error = failure;
          failure = undefined;
          queue.length = 0;
          throw error;
        }
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        return { value: undefined, done: true };
      },
      async return() {
        finish();
        queue.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}
