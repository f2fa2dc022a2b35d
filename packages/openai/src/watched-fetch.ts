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
 * How long, and for how many bytes, a body the SDK stopped reading between two events may go on to its own
 * end. The SDK cancels a Chat Completions stream at `data: [DONE]`, a moment before the body ends; cancelling
 * the fetch then closes its connection (and builds a DOMException for it), so the next call pays for a new
 * one. Left to end, the connection goes back to the pool. A server that goes on sending is cut at either bound.
 */
const LINGER_MS = 1_000;
const LINGER_BYTES = 64 * 1024;
/** The reason given for a body cut after the SDK stopped reading it (without one, the runtime builds one). */
const UNREAD = new Error('The model call no longer reads this response.');

/**
 * The fetch the SDK uses: `base`, with every response body read ahead through a watch. Each chunk of bytes
 * tells the request's `ResponseWatch` that the server is alive; a body that fails while being read (the
 * connection dropped) fails, after the bytes that came before it, as a retryable connection error rather
 * than the runtime's bare `terminated`; an event stream that ends inside an event is marked `cutMidEvent`.
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

/**
 * The body, read ahead as bytes arrive. A stream that fails drops what it still holds, so a connection
 * that closes right after the last events of an answer (a complete tool call, say) would lose them if they
 * waited for the SDK to read them: read ahead, they are all delivered, then the failure.
 */
function watchedBody(
  body: ReadableStream<Uint8Array>,
  watch: ResponseWatch,
  eventStream: boolean,
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const arrived: Uint8Array[] = [];
  let ended: { error?: unknown } | undefined;
  let wake: (() => void) | undefined;
  let tail: Uint8Array = new Uint8Array(0); // the body's last bytes, enough to see whether it ends an event
  // Once the SDK cancels: the bytes the body may still send before it is cut, and the timer that cuts it.
  let unread: { bytes: number; timer: NodeJS.Timeout } | undefined;
  const cut = () => {
    clearTimeout(unread?.timer);
    void reader.cancel(UNREAD).catch(() => {});
  };
  const endsEvent = () => EVENT_END.test(String.fromCharCode(...tail));

  void (async () => {
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        const chunk = next.value;
        if (unread) {
          unread.bytes += chunk.length;
          if (unread.bytes > LINGER_BYTES) cut();
          continue;
        }
        watch.alive();
        if (eventStream) {
          tail = chunk.length >= 4 ? chunk.subarray(-4) : Uint8Array.of(...tail, ...chunk).subarray(-4);
        }
        arrived.push(chunk);
        wake?.();
      }
      watch.cutMidEvent = eventStream && tail.length > 0 && !endsEvent();
      ended = {};
    } catch (error) {
      ended = {
        // Our own abort (a watchdog, a cancel) stays what it is: the SDK knows it as such.
        error: signal?.aborted
          ? error
          : new ModelError('The connection closed before the answer was complete.', {
              kind: 'connection',
              retryable: true,
              cause: error,
            }),
      };
    }
    clearTimeout(unread?.timer);
    wake?.();
  })();

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (arrived.length === 0 && !ended) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        wake = undefined;
        // Pulled only when nothing is queued (highWaterMark 0): the failure never drops a byte.
        if (arrived.length > 0) for (const chunk of arrived.splice(0)) controller.enqueue(chunk);
        else if (ended?.error !== undefined) throw ended.error;
        else controller.close();
      },
      cancel: async (reason) => {
        arrived.length = 0;
        if (ended) return;
        if (eventStream && endsEvent()) {
          unread = { bytes: 0, timer: setTimeout(cut, LINGER_MS) };
          unread.timer.unref();
          return;
        }
        await reader.cancel(reason ?? UNREAD);
      },
    },
    { highWaterMark: 0 },
  );
}
