import { randomBytes } from 'node:crypto';
import type { Following, PlatformEvents, RelayTopic, TesseraEvent } from '@tessera/core';

/**
 * Frames get memory of their own, the size they are. `Buffer.from` cuts a short one from an 8 KB slab shared
 * with whatever else was allocated then, and a kept frame keeps its whole slab: in the peers benchmark 6,527
 * kept frames held 1,372 slabs (10.7 MB), so the log's byte bound counted a fraction of what it held.
 */
const utf8 = new TextEncoder();

/**
 * One event of a log's key (a conversation, a user), numbered and serialised once, when logged: `frame` is its SSE text as bytes
 * (`event:`, `data:` and `id:` lines), written as is by every stream that sends it and by every replay.
 */
export type LoggedEvent = {
  readonly id: string;
  readonly seq: number;
  readonly type: string;
  readonly frame: Uint8Array;
};

export type EventLogOptions = {
  /** Events kept per key: per conversation, or per user (default 1,000). */
  perConversation?: number;
  /** Events kept in all (default 20,000). */
  maxEvents?: number;
  /** Bytes of frames kept per key (default 8 MB). */
  perConversationBytes?: number;
  /** Bytes of frames kept in all (default 64 MB). */
  maxBytes?: number;
};

/** One key's log; the same object for as long as a stream follows it, so its `floor` stays exact. */
class KeyLog {
  readonly entries: LoggedEvent[] = [];
  /** Bytes of the entries kept. */
  bytes = 0;
  /**
   * The newest event dropped from this log (or, for a log made after other logs were dropped whole, theirs):
   * a position before it may have missed events, so it cannot be resumed from.
   */
  floor: number;
  readonly listeners = new Set<(entry: LoggedEvent) => void>();
  readonly endListeners = new Set<() => void>();

  constructor(floor: number) {
    this.floor = floor;
  }

  get followed(): boolean {
    return this.listeners.size > 0 || this.endListeners.size > 0;
  }

  /** The index of the first entry after `seq` (binary search: entries are in `seq` order). */
  firstAfter(seq: number): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle]!.seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The recent events of each key (each conversation, or each user), numbered, so a client that lost its
 * connection can resume from the last id it saw (`Last-Event-ID`). Ids carry this log's boot id: an id from
 * an earlier process, or one older than what is kept, cannot be resumed and the client is told to reload.
 *
 * Each event is serialised once, here: every stream and every replay writes the same bytes. Bounded in
 * events and in bytes, per key and in all: an event can carry a whole prompt. Past a key's bounds its oldest
 * events go; past the totals, the least recently active keys' logs. (Live streams do not read from the log:
 * what it drops only means that a resume from before it gets `reset`.) Subclasses say what is logged.
 */
export class KeyedEventLog<E extends { type: string }> {
  readonly boot = randomBytes(4).toString('hex');
  /** The logs that hold events, least recently active first. */
  readonly #logs = new Map<string, KeyLog>();
  /** The logs that streams follow (with events or not): they keep their object, and so their floor. */
  readonly #followed = new Map<string, KeyLog>();
  readonly #perKey: number;
  readonly #maxEvents: number;
  readonly #perKeyBytes: number;
  readonly #maxBytes: number;
  #seq = 0;
  #events = 0;
  #bytes = 0;
  /** The newest event whose key's log was dropped whole: a resume from before it may miss some. */
  #droppedUpTo = 0;
  /** The relay's topic of a key, once the subclass knows its platform (see `followOn`). */
  #topicOf: ((key: string) => RelayTopic) | undefined;
  #bus: Pick<PlatformEvents, 'follow'> | undefined;
  /** The keys streams follow here, followed on the relay too: other processes' events of them come here. */
  readonly #following = new Map<string, Following>();

  constructor(options: EventLogOptions = {}) {
    this.#maxEvents = options.maxEvents ?? 20_000;
    this.#perKey = Math.min(options.perConversation ?? 1_000, this.#maxEvents);
    this.#maxBytes = options.maxBytes ?? 16_000_000;
    this.#perKeyBytes = Math.min(options.perConversationBytes ?? 8_000_000, this.#maxBytes);
  }

  /**
   * Follows on `bus`'s relay the topic of every key a stream follows, for as long as one does (with a
   * routed relay, only the events of followed topics come from the other processes).
   */
  protected followOn(bus: Pick<PlatformEvents, 'follow'>, topicOf: (key: string) => RelayTopic): void {
    this.#bus = bus;
    this.#topicOf = topicOf;
  }

  /** Resolves once the events of `key` from the other processes reach this process (at once without a relay). */
  routed(key: string): Promise<void> {
    return this.#following.get(key)?.ready ?? Promise.resolve();
  }

  /** Events kept, in all. */
  get events(): number {
    return this.#events;
  }

  /** Bytes of frames kept, in all. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes of frames kept for one key. */
  bytesOf(key: string): number {
    return this.#logs.get(key)?.bytes ?? 0;
  }

  /** Logs `event` as the newest of `key`'s, and hands it to the streams that follow `key`. */
  protected append(key: string, event: E): void {
    const seq = ++this.#seq;
    const id = `${this.boot}-${seq}`;
    // JSON has no line breaks, so the data is one `data:` line (as hono's writeSSE would write it).
    const frame = utf8.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${id}\n\n`);
    const log = this.#logOf(key);
    this.#logs.delete(key);
    this.#logs.set(key, log); // most recently active last
    const entry: LoggedEvent = { id, seq, type: event.type, frame };
    log.entries.push(entry);
    log.bytes += frame.byteLength;
    this.#events++;
    this.#bytes += frame.byteLength;
    this.#trim(key, log, this.#perKey, this.#perKeyBytes);
    while (this.#events > this.#maxEvents || this.#bytes > this.#maxBytes) {
      const [oldestId, oldest] = this.#logs.entries().next().value as [string, KeyLog];
      if (oldest === log) break; // only this one is left: its own oldest events go below
      this.#dropLog(oldestId, oldest);
    }
    this.#trim(key, log, this.#maxEvents, this.#maxBytes);
    for (const listener of log.listeners) listener(entry);
  }

  /** Drops `log`'s oldest events until it is within `events` and `bytes` (all of them, if its newest is over). */
  #trim(key: string, log: KeyLog, events: number, bytes: number): void {
    let count = 0;
    let dropped = 0;
    while (
      count < log.entries.length &&
      (log.entries.length - count > events || log.bytes - dropped > bytes)
    ) {
      dropped += log.entries[count]!.frame.byteLength;
      count++;
    }
    if (count === 0) return;
    if (count === log.entries.length) {
      this.#dropLog(key, log);
      return;
    }
    log.floor = log.entries[count - 1]!.seq;
    log.entries.splice(0, count);
    log.bytes -= dropped;
    this.#events -= count;
    this.#bytes -= dropped;
  }

  #dropLog(key: string, log: KeyLog): void {
    const last = log.entries.at(-1);
    if (last) {
      log.floor = last.seq;
      this.#droppedUpTo = Math.max(this.#droppedUpTo, last.seq);
    }
    this.#forget(key, log);
  }

  /** Empties `log` and lets it go, unless a stream follows it (then it stays, empty, with its floor). */
  #forget(key: string, log: KeyLog): void {
    this.#logs.delete(key);
    this.#events -= log.entries.length;
    this.#bytes -= log.bytes;
    log.entries.length = 0;
    log.bytes = 0;
  }

  /** The key's log: the one kept or followed, else a new one (that resumes nothing older than what was dropped). */
  #logOf(key: string): KeyLog {
    return this.#logs.get(key) ?? this.#followed.get(key) ?? new KeyLog(this.#droppedUpTo);
  }

  /** The position `lastEventId` names in this process, or `undefined` (another process's id, malformed, never given). */
  #position(lastEventId: string): number | undefined {
    // Exactly `<boot>-<seq>` as append writes it: anything else (`<boot>-`, `<boot>-1-2`) is no position.
    const [, boot, seqText] = /^([0-9a-f]+)-(0|[1-9][0-9]{0,14})$/.exec(lastEventId) ?? [];
    const seq = Number(seqText);
    return boot === this.boot && seq <= this.#seq ? seq : undefined;
  }

  /** Events after `lastEventId`, or `undefined` if that id cannot be resumed from here. */
  since(key: string, lastEventId: string): LoggedEvent[] | undefined {
    const seq = this.#position(lastEventId);
    const log = this.#logOf(key);
    if (seq === undefined || seq < log.floor) return undefined;
    return log.entries.slice(log.firstAfter(seq));
  }

  /**
   * Follows a key from now on: `onEvent` is called (synchronously) for each event logged in it,
   * until `close()`. With `lastEventId`, `missed` has the events after it, or `reset` says that it cannot be
   * resumed from here (another process's id, or events after it were dropped).
   */
  follow(
    key: string,
    lastEventId: string | undefined,
    onEvent: (entry: LoggedEvent) => void,
  ): { missed: LoggedEvent[]; reset: boolean; close: () => void } {
    const missed = lastEventId === undefined ? [] : this.since(key, lastEventId);
    const log = this.#logOf(key);
    const close = this.#add(key, log, log.listeners, onEvent);
    return { missed: missed ?? [], reset: missed === undefined, close };
  }

  /**
   * Tells this process's streams of a key that it is gone (a conversation deleted here): they end, and the
   * client's reconnection is answered 404.
   */
  end(key: string): void {
    const log = this.#logs.get(key) ?? this.#followed.get(key);
    if (!log) return;
    for (const listener of log.endListeners) listener();
    this.#forget(key, log);
  }

  onEnd(key: string, listener: () => void): () => void {
    const log = this.#logOf(key);
    return this.#add(key, log, log.endListeners, listener);
  }

  listen(key: string, listener: (entry: LoggedEvent) => void): () => void {
    const log = this.#logOf(key);
    return this.#add(key, log, log.listeners, listener);
  }

  #add<T>(key: string, log: KeyLog, listeners: Set<T>, listener: T): () => void {
    this.#followed.set(key, log);
    if (this.#bus && !this.#following.has(key))
      this.#following.set(key, this.#bus.follow(this.#topicOf!(key)));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (log.followed || this.#followed.get(key) !== log) return;
      this.#followed.delete(key);
      this.#following.get(key)?.();
      this.#following.delete(key);
    };
  }
}

/** A conversation's events, as the platform publishes them: what GET /api/conversations/{id}/events sends. */
export class EventLog extends KeyedEventLog<TesseraEvent> {
  constructor(bus: PlatformEvents, options: EventLogOptions = {}) {
    super(options);
    bus.subscribe({}, (event) => this.append(event.conversationId, event));
    this.followOn(bus, (conversationId) => `conversation:${conversationId}`);
  }
}
