import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { KeyedEventLog, LoggedEvent } from './event-log.ts';

/** At most this many bytes of small events go out in one write; a larger event goes alone, uncopied. */
const BATCH_BYTES = 32 * 1024;
/** Streams woken in one turn of the event loop (see Wakes). */
const WAKE_SLICE = 50;
const PING = Buffer.from(': ping\n\n');

/**
 * Wakes the streams that have something new to send, WAKE_SLICE at a time, each slice in a turn of the
 * event loop of its own: an event on a conversation that thousands of streams follow does not hold up every
 * other request until all of them have written it.
 */
export class Wakes {
  readonly #pending = new Set<() => void>();
  #scheduled = false;

  add(wake: () => void): void {
    this.#pending.add(wake);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#run);
  }

  readonly #run = () => {
    let woken = 0;
    for (const wake of this.#pending) {
      this.#pending.delete(wake);
      wake();
      if (++woken === WAKE_SLICE) break;
    }
    this.#scheduled = this.#pending.size > 0;
    if (this.#scheduled) setImmediate(this.#run);
  };
}

/**
 * The events a stream has not sent yet: references to the log's frames (one copy of each event for every
 * stream), counted in bytes, taken out in batches of about BATCH_BYTES.
 */
class Queue {
  #entries: LoggedEvent[];
  #head = 0;
  /** Bytes of frames waiting. */
  bytes = 0;
  /** Bytes of the missed events it started with that are still waiting (they are not a reader falling behind). */
  missed = 0;

  constructor(missed: LoggedEvent[]) {
    this.#entries = [...missed];
    for (const entry of missed) this.bytes += entry.frame.byteLength;
    this.missed = this.bytes;
  }

  push(entry: LoggedEvent): void {
    this.#entries.push(entry);
    this.bytes += entry.frame.byteLength;
  }

  get empty(): boolean {
    return this.#head === this.#entries.length;
  }

  /** The next events, up to `maxBytes` of frames (at least one, however large), as one chunk to write. */
  take(maxBytes: number): Uint8Array {
    const batch: Uint8Array[] = [];
    let bytes = 0;
    while (this.#head < this.#entries.length) {
      const { frame } = this.#entries[this.#head]!;
      if (batch.length > 0 && bytes + frame.byteLength > maxBytes) break;
      batch.push(frame);
      bytes += frame.byteLength;
      this.#head++;
    }
    if (this.#head === this.#entries.length) {
      this.#entries = [];
      this.#head = 0;
    } else if (this.#head > 1_000) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    this.bytes -= bytes;
    this.missed = Math.max(0, this.missed - bytes);
    // A lone event goes as is (the log's own bytes, shared by every stream); small ones are joined.
    return batch.length === 1 ? batch[0]! : Buffer.concat(batch, bytes);
  }
}

export type EventStreamBodyOptions = {
  events: Pick<KeyedEventLog<{ type: string }>, 'boot' | 'follow' | 'onEnd' | 'routed'>;
  /** What the stream follows in `events`: a conversation's id, or a user's. */
  key: string;
  lastEventId: string | undefined;
  /** What a client told `reset` (it cannot resume from its id) should reload: 'the conversation'. */
  reload: string;
  /** The most bytes of events not yet accepted by the socket: past it, the stream is cut. */
  queueBytes: number;
  heartbeatMs: number;
  wakes: Wakes;
  /** Aborted when the client leaves. */
  disconnected: AbortSignal;
  /** Aborted at shutdown: the stream ends cleanly. */
  shutdown: AbortSignal;
  /** The Node response under it, when served by @hono/node-server: its buffer counts, and a cut closes it. */
  outgoing: ServerResponse | undefined;
  /** Called once, when the stream is over. */
  onClose: () => void;
  log: Logger | undefined;
  logContext: object;
};

type Ending = 'ended' | 'shutdown' | 'disconnected' | 'behind';

/**
 * The body of one SSE response: the events of its key (a conversation, a user) as the connection takes them. It is pulled
 * (highWaterMark 0): @hono/node-server reads the next chunk only once the socket took the previous one
 * (`write` returned true, or 'drain'), so until then events wait in the stream's queue, and past
 * `queueBytes` of them (with what Node holds unsent) the reader is too slow: the stream is cut, the
 * connection closed at once, with nothing more sent (as Redis does to a client past its output buffer
 * limit, and NATS to a slow consumer). The client resumes with its last event's id, from the log (or gets
 * `reset` if those events are gone).
 */
export function eventStream(options: EventStreamBodyOptions): ReadableStream<Uint8Array> {
  const stream = new EventStream(options);
  return new ReadableStream<Uint8Array>(
    {
      // Pulled only once started: `ready` is sent once the other processes' events of the key reach here.
      start: (controller) => stream.start(controller),
      pull: (controller) => stream.pull(controller),
      cancel: () => stream.finish('disconnected'),
    },
    { highWaterMark: 0 },
  );
}

class EventStream {
  readonly #options: EventStreamBodyOptions;
  readonly #queue: Queue;
  readonly #reset: boolean;
  readonly #unlisten: () => void;
  readonly #unlistenEnd: () => void;
  readonly #heartbeat: NodeJS.Timeout;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #ending: Ending | undefined;
  #closed = false;
  #ping = false;
  /** Resolves the pull waiting for something to send. */
  #waiting: (() => void) | undefined;
  readonly #wake = () => this.#waiting?.();
  readonly #onDisconnect = () => this.finish('disconnected');
  readonly #onShutdown = () => this.finish('shutdown');

  constructor(options: EventStreamBodyOptions) {
    this.#options = options;
    const { missed, reset, close } = options.events.follow(options.key, options.lastEventId, (entry) =>
      this.#onEvent(entry),
    );
    this.#queue = new Queue(missed);
    this.#reset = reset;
    this.#unlisten = close;
    this.#unlistenEnd = options.events.onEnd(options.key, () => this.finish('ended'));
    options.disconnected.addEventListener('abort', this.#onDisconnect);
    options.shutdown.addEventListener('abort', this.#onShutdown);
    this.#heartbeat = setInterval(() => {
      // Only while idle: a stream that is sending, or waiting for its socket or its turn, needs no ping.
      if (!this.#waiting || !this.#queue.empty) return;
      this.#ping = true;
      this.#waiting();
    }, options.heartbeatMs);
    if (options.disconnected.aborted) this.finish('disconnected');
    else if (options.shutdown.aborted) this.finish('shutdown');
  }

  async start(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    this.#controller = controller;
    // With a routed relay, `ready` promises the client that no event of the key is missed from then on.
    await this.#options.events.routed(this.#options.key);
    if (this.#closed) {
      try {
        controller.close(); // the client left, or the server is shutting down, before it started
      } catch {
        // closed already, while the route was being set up
      }
      return;
    }
    if (this.#reset) {
      const reason = JSON.stringify({ reason: `cannot resume; reload ${this.#options.reload}` });
      controller.enqueue(Buffer.from(`event: reset\ndata: ${reason}\n\n`));
    }
    const ready = JSON.stringify({ boot: this.#options.events.boot });
    controller.enqueue(Buffer.from(`event: ready\ndata: ${ready}\n\n`));
  }

  /**
   * Called when the socket took everything so far: the next chunk, once there is one and this stream's turn
   * came (every write waits for its turn among the streams', see Wakes).
   */
  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (let turn = false; ; ) {
      if (this.#ending) {
        this.#close();
        return;
      }
      if (turn && !this.#queue.empty) {
        controller.enqueue(this.#queue.take(BATCH_BYTES));
        return;
      }
      if (this.#ping) {
        this.#ping = false;
        controller.enqueue(PING);
        return;
      }
      if (!this.#queue.empty) this.#options.wakes.add(this.#wake);
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
      this.#waiting = undefined;
      turn = !this.#queue.empty;
    }
  }

  #onEvent(entry: LoggedEvent): void {
    if (this.#ending) return;
    this.#queue.push(entry);
    // A pull waiting: the socket took everything so far, the reader keeps up (however large the event).
    if (this.#waiting) {
      this.#options.wakes.add(this.#wake);
      return;
    }
    // Else: bytes not yet accepted by the socket, queued here and given to Node but not yet to the socket
    // (but for this event: one event alone, however large, is no reader falling behind).
    const unsent = this.#queue.bytes - this.#queue.missed + (this.#options.outgoing?.writableLength ?? 0);
    if (unsent - entry.frame.byteLength > this.#options.queueBytes) {
      this.#ending = 'behind';
      setImmediate(() => this.finish('behind')); // not here, in the middle of logging an event
    }
  }

  /** Ends the stream (once): stops following the conversation, and closes or cuts the response. */
  finish(ending: Ending): void {
    if (this.#closed) return;
    this.#ending ??= ending;
    if (this.#waiting) this.#wake();
    else this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const options = this.#options;
    this.#unlisten();
    this.#unlistenEnd();
    clearInterval(this.#heartbeat);
    options.disconnected.removeEventListener('abort', this.#onDisconnect);
    options.shutdown.removeEventListener('abort', this.#onShutdown);
    options.onClose();
    if (this.#ending === 'behind') {
      options.log?.info(
        { ...options.logContext, queuedBytes: this.#queue.bytes },
        'event stream cut: its reader fell behind',
      );
      // Nothing more is sent: what Node holds unsent is dropped with the connection. The client got whole
      // events up to some id, then the connection ends.
      if (options.outgoing) options.outgoing.destroy();
      else this.#controller?.error(new Error('The event stream was cut: its reader fell behind.'));
      return;
    }
    try {
      this.#controller?.close();
    } catch {
      // already closed, or cancelled by the client
    }
  }
}
