import { AsyncLocalStorage } from 'node:async_hooks';
import { ModelError } from '@tessera/core';

/**
 * What one model call learns from the bytes of its response, which the SDK does not tell: that bytes
 * arrive (SSE keep-alive comments, which the SDK swallows, included) and whether the body ended inside
 * an event.
 */
export class ResponseWatch {
  /** The body ended without the blank line that closes an event: the stream was cut mid-event. */
  cutMidEvent = false;
  readonly #alive: () => void;
  constructor(alive: () => void) {
    this.#alive = alive;
  }
  alive(): void {
    this.#alive();
  }
}

const current = new AsyncLocalStorage<ResponseWatch>();

/** Starts a request with `call`, its response watched by `watch` (the fetch below finds it by context). */
export const watching = <T>(watch: ResponseWatch, call: () => T): T => current.run(watch, call);

const EVENT_END = /(?:\n\n|\r\r|\r\n\r\n)$/;

/**
 * The fetch the SDK uses: `base`, with every response body passed through a watch. Each chunk of bytes
 * tells the request's `ResponseWatch` that the server is alive; a body that fails while being read (the
 * connection dropped) fails as a retryable connection error rather than the runtime's bare `terminated`;
 * an event stream that ends inside an event is marked `cutMidEvent`.
 */
export function watchedFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const watch = current.getStore();
    const response = await base(input, init);
    if (!watch || !response.body) return response;
    watch.alive();
    const eventStream = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
    const watched = new Response(watchedBody(response.body, watch, eventStream, init?.signal), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(watched, 'url', { value: response.url });
    return watched;
  };
}

function watchedBody(
  body: ReadableStream<Uint8Array>,
  watch: ResponseWatch,
  eventStream: boolean,
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let tail: Uint8Array = new Uint8Array(0); // the body's last bytes, enough to see whether it ends an event
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw error; // our own abort (a watchdog, a cancel): the SDK knows it as such
        throw new ModelError('The connection closed before the answer was complete.', {
          kind: 'connection',
          retryable: true,
          cause: error,
        });
      }
      if (next.done) {
        watch.cutMidEvent = eventStream && tail.length > 0 && !EVENT_END.test(String.fromCharCode(...tail));
        controller.close();
        return;
      }
      watch.alive();
      const chunk = next.value;
      if (eventStream) {
        tail = chunk.length >= 4 ? chunk.subarray(-4) : Uint8Array.of(...tail, ...chunk).subarray(-4);
      }
      controller.enqueue(chunk);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
