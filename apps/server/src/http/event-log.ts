import { randomBytes } from 'node:crypto';
import {
  type Following,
  type PlatformEvents,
  type Prompt,
  parentOf,
  type RelayTopic,
  type TesseraEvent,
} from '@tessera/core';

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
  /** Bytes of frames kept in all (default 8 MB). */
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
  /** More topics followed for a key streams follow (see `alsoFollowed`), each until unfollowed or the key is. */
  readonly #alsoFollowing = new Map<string, Map<RelayTopic, Following>>();

  constructor(options: EventLogOptions = {}) {
    this.#maxEvents = options.maxEvents ?? 20_000;
    this.#perKey = Math.min(options.perConversation ?? 1_000, this.#maxEvents);
    this.#maxBytes = options.maxBytes ?? 8_000_000;
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

  /**
   * The topics besides its own whose events a key's streams need from the other processes (a subclass's;
   * none by default): followed from the moment a stream follows the key, with the key's.
   */
  protected alsoFollowed(_key: string): Iterable<RelayTopic> {
    return [];
  }

  /** Follows `topic` on the relay as long as streams follow `key` here (nothing if none does). */
  protected followAlso(key: string, topic: RelayTopic): void {
    if (!this.#bus || !this.#following.has(key)) return;
    const topics = this.#alsoFollowing.get(key) ?? new Map<RelayTopic, Following>();
    this.#alsoFollowing.set(key, topics);
    if (!topics.has(topic)) topics.set(topic, this.#bus.follow(topic));
  }

  /** Whether `topic` is followed for `key` (by `followAlso`). */
  protected followsAlso(key: string, topic: RelayTopic): boolean {
    return this.#alsoFollowing.get(key)?.has(topic) ?? false;
  }

  /** The first stream of `key` here opened (its topics are followed from now on). */
  protected followedNow(_key: string): void {}

  /** The last stream of `key` here closed (its topics are no longer followed). */
  protected unfollowed(_key: string): void {}

  /** Stops following `topic` for `key` (what `followAlso` started). */
  protected unfollowAlso(key: string, topic: RelayTopic): void {
    const topics = this.#alsoFollowing.get(key);
    topics?.get(topic)?.();
    topics?.delete(topic);
  }

  /** Resolves once the events of `key` from the other processes reach this process (at once without a relay). */
  routed(key: string): Promise<void> {
    const also = [...(this.#alsoFollowing.get(key)?.values() ?? [])].map((following) => following.ready);
    return Promise.all([this.#following.get(key)?.ready, ...also]).then(() => {});
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
    if (this.#bus && !this.#following.has(key)) {
      this.#following.set(key, this.#bus.follow(this.#topicOf!(key)));
      for (const topic of this.alsoFollowed(key)) this.followAlso(key, topic);
      this.followedNow(key);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (log.followed || this.#followed.get(key) !== log) return;
      this.#followed.delete(key);
      this.#following.get(key)?.();
      this.#following.delete(key);
      for (const following of this.#alsoFollowing.get(key)?.values() ?? []) following();
      this.#alsoFollowing.delete(key);
      this.unfollowed(key);
    };
  }
}

const PROMPT_ENDS = new Set(['prompt.completed', 'prompt.failed', 'prompt.cancelled']);

/**
 * The topics of ended children a stream of their ancestor still follows, at most, the most recent (per
 * stream's key). Not dropped at the child's end: a relay delivers a message once to a process that follows
 * several of its topics (a prompt's end goes to its conversation's and its user's) by keeping the copy of the
 * first followed, and unfollowing one between the copies' arrivals would let the second through too.
 */
const ENDED_TOPICS_KEPT = 16;

/** How many conversations above a prompt its events are forwarded to, at most (a sub-agent's nest deeper). */
export const MAX_FORWARD_DEPTH = 8;

/** A prompt that runs for another's call (`metadata.parent`): the conversations its events go to as well. */
type Lineage = {
  readonly conversationId: string;
  readonly userId: string;
  /** Its parent's conversation, then the grandparent's, and so on up (at most `MAX_FORWARD_DEPTH`). */
  readonly ancestors: readonly string[];
  /** Until it ends: while it may still have events, a stream of an ancestor follows its conversation's topic. */
  live: boolean;
};

/** What the log needs of a prompt to link it: its ids, its user and its metadata (a stored record will do). */
type Linkable = Pick<Prompt, 'id' | 'conversationId' | 'userId' | 'metadata'>;

/** Prompts read from the store at once, at most, to link them, and the events of each held meanwhile. */
const MAX_LOOKUPS = 100;
const MAX_HELD_EVENTS = 1_000;

export type ConversationEventLogOptions = EventLogOptions & {
  /**
   * Reads a prompt, to link a child this process did not see start (it started before a restart, or in
   * another process before a stream of its user opened here): asked on its `prompt.resumed`, only while a
   * stream of its user is open here. Without it, such a child is linked at its end only.
   */
  lookup?: (promptId: string) => Promise<Linkable | undefined>;
  /** Prompts that run for another prompt remembered, to forward their events (default 10,000; oldest go first). */
  maxLinkedPrompts?: number;
  /** Conversations whose user is remembered, to check a child's (default 10,000; oldest go first). */
  maxOwners?: number;
};

/**
 * A conversation's events, as the platform publishes them: what GET /api/conversations/{id}/events sends.
 *
 * Its stream carries too the events of the prompts that run for it at any depth (a sub-agent's child, its
 * grandchild, ...), each unchanged (their own `conversationId` and `promptId`), numbered in the parent's
 * sequence so that `Last-Event-ID` resumes them with the rest. A prompt is linked to the conversation above it
 * when an event carrying it (`prompt.started`, or its end) says so in `metadata.parent` (core's `parentOf`:
 * set by plugins and code, never by a client), and only when its user is the user of that conversation;
 * its events then go to each ancestor, up to `MAX_FORWARD_DEPTH` conversations, each at most once (a cycle
 * ends where a conversation repeats). Bounded: the links and the conversations' users are kept for the most
 * recently seen prompts and conversations. Across processes: a stream follows its user's topic (where every
 * prompt's start and end is relayed) and, while a linked prompt has not ended, its conversation's topic. A
 * child this process did not see start (a restart since, or another process's before a stream opened here)
 * is read from the store (`lookup`) at its next `prompt.resumed` while a stream of its user is open here, and
 * linked from then on (its events meanwhile held, then forwarded); else at its end, which carries it.
 */
export class EventLog extends KeyedEventLog<TesseraEvent> {
  /** Linked prompts by id, least recently seen first. */
  readonly #lineage = new Map<string, Lineage>();
  /** The user of each conversation seen (from its events, or a stream's route), least recently seen first. */
  readonly #owners = new Map<string, string>();
  /** The linked prompts under each conversation that have not ended: their topics, for the key's streams. */
  readonly #live = new Map<string, Set<string>>();
  /** The topics of ended children still followed for a followed conversation, oldest first (see ENDED_TOPICS_KEPT). */
  readonly #ended = new Map<string, RelayTopic[]>();
  readonly #maxLinked: number;
  readonly #maxOwners: number;
  readonly #lookup: ConversationEventLogOptions['lookup'];
  /** Prompts read (or being read) to link them, and found not to be linkable: not read again (bounded). */
  readonly #unlinkable = new Set<string>();
  /** Prompts being read, with their events meanwhile, forwarded once linked. */
  readonly #lookups = new Map<string, TesseraEvent[]>();
  /** The users with a stream open here, by how many of their conversations are followed. */
  readonly #streamUsers = new Map<string, number>();
  /** The user each followed conversation was counted for. */
  readonly #followedOwners = new Map<string, string>();

  constructor(bus: PlatformEvents, options: ConversationEventLogOptions = {}) {
    super(options);
    this.#maxLinked = options.maxLinkedPrompts ?? 10_000;
    this.#maxOwners = options.maxOwners ?? 10_000;
    this.#lookup = options.lookup;
    bus.subscribe({}, (event) => this.#log(event));
    this.followOn(bus, (conversationId) => `conversation:${conversationId}`);
  }

  /**
   * Says whose a conversation is (the route checked it in the store before it streams it): a child's events
   * are forwarded to a conversation of the child's own user only.
   */
  owns(conversationId: string, userId: string): void {
    this.#own(conversationId, userId);
  }

  /** The conversations `promptId`'s events are forwarded to (its ancestors', nearest first), if linked. */
  ancestorsOf(promptId: string): readonly string[] {
    return this.#lineage.get(promptId)?.ancestors ?? [];
  }

  /** Links kept (for tests and bounds). */
  get linked(): number {
    return this.#lineage.size;
  }

  protected override alsoFollowed(conversationId: string): RelayTopic[] {
    const owner = this.#owners.get(conversationId);
    const topics: RelayTopic[] = owner ? [`user:${owner}`] : [];
    for (const promptId of this.#live.get(conversationId) ?? []) {
      const lineage = this.#lineage.get(promptId);
      if (lineage) topics.push(`conversation:${lineage.conversationId}`);
    }
    return topics;
  }

  #log(event: TesseraEvent): void {
    this.#own(event.conversationId, event.userId);
    if ('prompt' in event && event.prompt) this.#link(event.prompt);
    this.append(event.conversationId, event);
    const held = this.#lookups.get(event.promptId);
    if (held) {
      if (held.length < MAX_HELD_EVENTS) held.push(event);
      return;
    }
    if (event.type === 'prompt.resumed' && this.#lookUp(event)) return;
    this.#forward(event);
  }

  /** Appends a linked prompt's event to its ancestors' logs. */
  #forward(event: TesseraEvent): void {
    const lineage = this.#lineage.get(event.promptId);
    if (!lineage || lineage.conversationId !== event.conversationId) return;
    for (const ancestor of lineage.ancestors) this.append(ancestor, event);
    if (lineage.live && PROMPT_ENDS.has(event.type)) this.#settle(event.promptId, lineage);
  }

  /**
   * A prompt resumed that is not linked: it may be a child whose start this process did not see. Read it
   * (once: a prompt found not linkable is remembered), if a stream of its user is open here to show it; its
   * events meanwhile are held, then forwarded.
   */
  #lookUp(event: TesseraEvent): boolean {
    const lookup = this.#lookup;
    const { promptId } = event;
    if (!lookup || this.#lineage.has(promptId) || this.#unlinkable.has(promptId)) return false;
    if (!this.#streamUsers.has(event.userId) || this.#lookups.size >= MAX_LOOKUPS) return false;
    const held: TesseraEvent[] = [event];
    this.#lookups.set(promptId, held);
    const done = (chain: Linkable[]) => {
      this.#lookups.delete(promptId);
      // From the top down: each prompt's conversation is its user's (the store says so), so each link's
      // check of its parent's conversation holds for a chain of one user's prompts.
      for (const prompt of chain.toReversed()) {
        this.#own(prompt.conversationId, prompt.userId);
        this.#link(prompt);
      }
      if (!this.#lineage.has(promptId)) {
        this.#unlinkable.add(promptId);
        if (this.#unlinkable.size > this.#maxLinked)
          this.#unlinkable.delete(this.#unlinkable.values().next().value!);
      }
      for (const later of held) this.#forward(later);
    };
    this.#chainOf(lookup, promptId, event.userId).then(done, () => done([]));
    return true;
  }

  /**
   * `promptId`'s prompt and those above it not linked yet, read from the store, nearest first: up to one
   * linked (or top-level) prompt, one of another user, or MAX_FORWARD_DEPTH reads.
   */
  async #chainOf(
    lookup: NonNullable<ConversationEventLogOptions['lookup']>,
    promptId: string,
    userId: string,
  ): Promise<Linkable[]> {
    const chain: Linkable[] = [];
    for (let id: string | undefined = promptId; id !== undefined && chain.length <= MAX_FORWARD_DEPTH; ) {
      if (this.#lineage.has(id)) break;
      const prompt = await lookup(id);
      if (!prompt || prompt.id !== id || prompt.userId !== userId) break;
      chain.push(prompt);
      id = parentOf(prompt)?.promptId;
    }
    return chain;
  }

  protected override followedNow(conversationId: string): void {
    const owner = this.#owners.get(conversationId);
    if (!owner) return;
    this.#followedOwners.set(conversationId, owner);
    this.#streamUsers.set(owner, (this.#streamUsers.get(owner) ?? 0) + 1);
  }

  #own(conversationId: string, userId: string): void {
    this.#owners.delete(conversationId);
    this.#owners.set(conversationId, userId);
    if (this.#owners.size > this.#maxOwners) this.#owners.delete(this.#owners.keys().next().value!);
  }

  /** Links `prompt` to the conversations above it, if it runs for another's call of its own user. */
  #link(prompt: Linkable): void {
    const known = this.#lineage.get(prompt.id);
    if (known) {
      this.#lineage.delete(prompt.id);
      this.#lineage.set(prompt.id, known); // most recently seen last
      return;
    }
    const parent = parentOf(prompt);
    if (!parent || parent.conversationId === prompt.conversationId) return;
    // Only into a conversation of the child's own user (forwarding never crosses users): its user as seen
    // (its events, a stream's route), or as the linked parent prompt in it says.
    const above = this.#lineage.get(parent.promptId);
    const inParent = above?.conversationId === parent.conversationId ? above : undefined;
    if ((this.#owners.get(parent.conversationId) ?? inParent?.userId) !== prompt.userId) return;
    const ancestors = [parent.conversationId];
    if (inParent && inParent.userId === prompt.userId) {
      for (const conversationId of inParent.ancestors) {
        if (ancestors.length >= MAX_FORWARD_DEPTH) break;
        if (conversationId !== prompt.conversationId && !ancestors.includes(conversationId))
          ancestors.push(conversationId);
      }
    }
    const lineage: Lineage = {
      conversationId: prompt.conversationId,
      userId: prompt.userId,
      ancestors,
      live: true,
    };
    this.#lineage.set(prompt.id, lineage);
    for (const ancestor of ancestors) {
      const live = this.#live.get(ancestor) ?? new Set<string>();
      this.#live.set(ancestor, live);
      live.add(prompt.id);
      this.followAlso(ancestor, `conversation:${prompt.conversationId}`);
    }
    while (this.#lineage.size > this.#maxLinked) {
      const [oldestId, oldest] = this.#lineage.entries().next().value!;
      this.#lineage.delete(oldestId);
      if (oldest.live) this.#settle(oldestId, oldest);
    }
  }

  /**
   * A linked prompt ended (or its link is dropped): its conversation's topic is no longer needed for it, and
   * goes once ENDED_TOPICS_KEPT more recent ones ended (or the ancestor's streams close).
   */
  #settle(promptId: string, lineage: Lineage): void {
    lineage.live = false;
    const topic: RelayTopic = `conversation:${lineage.conversationId}`;
    for (const ancestor of lineage.ancestors) {
      const live = this.#live.get(ancestor);
      live?.delete(promptId);
      if (live?.size === 0) this.#live.delete(ancestor);
      if (!this.followsAlso(ancestor, topic)) continue;
      const ended = this.#ended.get(ancestor) ?? [];
      this.#ended.set(ancestor, ended);
      ended.push(topic);
      while (ended.length > ENDED_TOPICS_KEPT) {
        const oldest = ended.shift()!;
        if (!this.#needs(ancestor, oldest)) this.unfollowAlso(ancestor, oldest);
      }
    }
  }

  /** Whether a linked prompt under `ancestor` that has not ended is in `topic`'s conversation. */
  #needs(ancestor: string, topic: RelayTopic): boolean {
    return [...(this.#live.get(ancestor) ?? [])].some(
      (promptId) => `conversation:${this.#lineage.get(promptId)?.conversationId}` === topic,
    );
  }

  protected override unfollowed(conversationId: string): void {
    this.#ended.delete(conversationId);
    const owner = this.#followedOwners.get(conversationId);
    if (owner === undefined) return;
    this.#followedOwners.delete(conversationId);
    const left = (this.#streamUsers.get(owner) ?? 1) - 1;
    if (left > 0) this.#streamUsers.set(owner, left);
    else this.#streamUsers.delete(owner);
  }
}
