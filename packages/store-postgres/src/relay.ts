import { createHash } from 'node:crypto';
import { type EventRelay, type RelayMessage, type RelayTopic, relayTopics } from '@tessera/core';
import type { Listener, SqlDriver } from './driver.ts';
import { type PresenceKind, type PresenceTimes, presence } from './presence.ts';

// NOTIFY payloads are limited to 8000 bytes: messages travel as base64 frames, several small ones per payload.
const FRAME_BYTES = 5_400;
const PAYLOAD_CHARS = 7_800;
/** Messages whose frames are still arriving, kept at most (frames lost while reconnecting never complete). */
const MAX_PARTIAL = 100;
/** Payloads sent in one statement, at most (~2 MB). */
const BATCH_PAYLOADS = 256;

/** The default number of channels a schema's topics are spread over (see `openRelay`). */
export const DEFAULT_RELAY_SHARDS = 1_024;

/** The start of a schema's channel names: short enough for a suffix within PostgreSQL's 63 bytes. */
function channelBase(schema: string): string {
  const base = `tessera_${schema}`;
  if (base.length <= 52) return base;
  return `${base.slice(0, 39)}_${createHash('sha256').update(schema).digest('hex').slice(0, 12)}`;
}

/** The notification channels of a schema: plain identifiers of at most 63 bytes, one per shard. */
export function relayChannels(schema: string, shards: number): (shard: number) => string {
  const base = channelBase(schema);
  const width = String(shards - 1).length;
  return (shard) => `${base}_${String(shard).padStart(width, '0')}`;
}

/** The channel on which the processes of a schema tell each other they are there (see `openRelay`). */
export const presenceChannel = (schema: string): string => `${channelBase(schema)}_presence`;

/** A topic's key in a frame: 16 hex characters, whatever characters its ids hold. */
const topicKey = (topic: RelayTopic): string => createHash('sha256').update(topic).digest('hex').slice(0, 16);

export type RelayOptions = PresenceTimes & {
  /** Channels the topics are spread over (default 1,024): a process listens on at most this many. */
  shards?: number;
  onError?: (error: unknown) => void;
};

/**
 * A routed `EventRelay` over PostgreSQL's LISTEN/NOTIFY. Each topic (a conversation, a user) hashes to one
 * of `shards` channels; a message is sent on the channels of its topics, and a process listens only on the
 * channels of the topics it follows (`routes`), so PostgreSQL hands it only those (and, sharing a channel,
 * a few others', which it drops by their frame's topic keys without decoding them). A process following
 * several topics of a message takes it from the channel of the first of them it follows: once.
 *
 * Messages are sent in call order, several per statement, each as base64 frames packed into payloads under
 * NOTIFY's 8000 bytes and reassembled on the other side; a process ignores its own. Notifications are not
 * stored: a process that is not listening at that moment (starting, reconnecting) misses them, and its
 * clients catch up from the store, as after any dropped connection.
 *
 * A process alone sends no events: every process listens on the schema's presence channel from the start,
 * says hello when it starts and each time its listening connection is taken again (the others answer at
 * once), heartbeats every `heartbeatMs`, and says goodbye when it closes; another process is known until
 * it has not been heard for `expiryMs`. Events go out while another process is known, and during the first
 * `expiryMs` of listening (after a start or a reconnect: who was missed meanwhile is not known yet). Cancel
 * requests always go out: they are rare, and one lost leaves a prompt running.
 */
export function openRelay(
  driver: Pick<SqlDriver, 'query'>,
  listen: NonNullable<SqlDriver['listen']>,
  schema: string,
  origin: string,
  options: RelayOptions = {},
): Relay {
  const shards = options.shards ?? DEFAULT_RELAY_SHARDS;
  if (!Number.isInteger(shards) || shards < 1 || shards > 65_536) {
    throw new RangeError(`relayShards is a whole number from 1 to 65,536 (got ${shards}).`);
  }
  const onError = options.onError ?? (() => {});
  const channels: Channels = {
    of: relayChannels(schema, shards),
    shardOf: (key) => shardOf(key, shards),
    presence: presenceChannel(schema),
  };
  const handlers = new Set<(message: RelayMessage) => void>();
  const say = (kind: PresenceKind) => {
    // A listener that could not be opened is tried again at each heartbeat.
    if (kind === 'beat') receiver.start();
    return driver.query('SELECT pg_notify($1, $2)', [channels.presence, `${origin}\n${kind}`]).then(() => {});
  };
  const peers = presence(say, options, onError);
  const receiver = receiving(listen, channels, origin, { handlers, peers, onError });
  const sender = sending(driver, origin, onError);
  const started = receiver.start();
  let closed = false;
  return {
    started,
    publish(message) {
      if (closed || (message.kind === 'event' && !peers.others())) return;
      const keys = relayTopics(message).map(topicKey);
      const targets = [...new Set(keys.map((key) => channels.of(channels.shardOf(key))))];
      // Split by bytes: every frame is whole base64, whatever characters the message holds.
      const bytes = Buffer.from(JSON.stringify(message), 'utf8');
      const count = Math.max(1, Math.ceil(bytes.length / FRAME_BYTES));
      const id = sender.nextId();
      const joined = keys.join(',');
      for (let index = 0; index < count; index++) {
        const data = bytes.subarray(index * FRAME_BYTES, (index + 1) * FRAME_BYTES).toString('base64');
        sender.send(targets, `${id}.${index}.${count}.${joined}.${data}`);
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    routes: receiver.routes,
    async close() {
      closed = true;
      await sender.close();
      handlers.clear();
      // The listening connection first: a pool with no other free connection needs it for the goodbye.
      await receiver.close();
      await peers.close();
    },
  };
}

/**
 * The relay `openRelay` opens; `started` resolves once it listens on the presence channel, or failed to
 * (then it sends every event until a heartbeat's retry succeeds).
 */
export type Relay = EventRelay & {
  routes: NonNullable<EventRelay['routes']>;
  started: Promise<void>;
  close(): Promise<void>;
};

type Channels = { of(shard: number): string; shardOf(key: string): number; presence: string };
type Presence = ReturnType<typeof presence>;

const shardOf = (key: string, shards: number) => Number.parseInt(key.slice(0, 8), 16) % shards;

/**
 * The receiving side: listens on the presence channel (from `start()`) and on the channels of the topics
 * followed, tells `peers` who is there, takes from each payload the frames this process should (see
 * `takes`), reassembles them and hands the messages to `handlers`.
 */
function receiving(
  listen: NonNullable<SqlDriver['listen']>,
  channels: Channels,
  origin: string,
  {
    handlers,
    peers,
    onError,
  }: { handlers: Set<(message: RelayMessage) => void>; peers: Presence; onError: (error: unknown) => void },
) {
  /** The keys of the topics followed here, and how many of them each channel listened on carries. */
  const followed = new Set<string>();
  const listened = new Map<number, { count: number; ready: Promise<void> }>();
  const partial = new Map<string, Buffer[]>();
  let listener: Promise<Listener> | undefined;

  const deliver = (text: string) => {
    let message: RelayMessage;
    try {
      message = JSON.parse(text) as RelayMessage;
    } catch (error) {
      return onError(error);
    }
    for (const handler of handlers) handler(message);
  };
  /** Whether this process takes a frame with these topic keys from `shard`: the first key it follows is there. */
  const takes = (keys: string, shard: number) => {
    for (const key of keys.split(',')) if (followed.has(key)) return channels.shardOf(key) === shard;
    return false;
  };
  const received = (channel: string, payload: string) => {
    const [from, ...lines] = payload.split('\n');
    if (from === origin) return;
    if (channel === channels.presence) return peers.heard(from!, lines[0] ?? '');
    const shard = Number(channel.slice(channel.lastIndexOf('_') + 1));
    for (const line of lines) {
      const [seqText, indexText, countText, keys = '', data = ''] = line.split('.');
      if (!takes(keys, shard)) continue;
      const count = Number(countText);
      const bytes = Buffer.from(data, 'base64');
      if (count === 1) {
        deliver(bytes.toString('utf8'));
        continue;
      }
      // A character may span two frames: join the bytes, then decode.
      const key = `${from}:${seqText}`;
      const parts = partial.get(key) ?? [];
      parts[Number(indexText)] = bytes;
      partial.set(key, parts);
      if (partial.size > MAX_PARTIAL) partial.delete(partial.keys().next().value!);
      if (parts.filter((p) => p !== undefined).length === count) {
        partial.delete(key);
        deliver(Buffer.concat(parts).toString('utf8'));
      }
    }
  };
  /**
   * The listener, opened at the start (again after a failure), listening on the presence channel and every
   * channel routed so far; then hello. The driver says when its connection breaks and is taken again.
   */
  const listening = (): Promise<Listener> => {
    const connection = (up: boolean) => (up ? void peers.connected() : peers.disconnected());
    listener ??= listen(received, connection).then(
      async (opened) => {
        await opened.listen(channels.presence);
        for (const shard of listened.keys()) await opened.listen(channels.of(shard));
        // Not awaited: with every connection of the pool held, the hello waits for one.
        void peers.connected();
        return opened;
      },
      (error: unknown) => {
        listener = undefined;
        throw error;
      },
    );
    return listener;
  };
  /**
   * Listens on (or leaves) a shard's channel as the first (or last) topic followed there comes (or goes);
   * resolves once the channel is listened on (whichever topic asked first).
   */
  const route = (shard: number, change: 1 | -1): Promise<void> => {
    const before = listened.get(shard);
    const count = (before?.count ?? 0) + change;
    if (count <= 0) {
      listened.delete(shard);
      // After the LISTEN it may still be waiting for: the same connection runs both in order.
      return before!.ready
        .then(() => listening().then((opened) => opened.unlisten(channels.of(shard))))
        .catch(onError);
    }
    const ready =
      before?.ready ??
      listening()
        .then((opened) => opened.listen(channels.of(shard)))
        .catch(onError);
    listened.set(shard, { count, ready });
    return ready;
  };
  let closed = false;
  return {
    start: (): Promise<void> => (closed ? Promise.resolve() : listening().then(() => {}, onError)),
    routes: {
      add(topic: RelayTopic) {
        const key = topicKey(topic);
        if (closed || followed.has(key)) return Promise.resolve();
        followed.add(key);
        return route(channels.shardOf(key), 1);
      },
      delete(topic: RelayTopic) {
        const key = topicKey(topic);
        if (!followed.delete(key)) return;
        void route(channels.shardOf(key), -1);
      },
    },
    async close() {
      closed = true;
      const opened = await listener?.catch(() => undefined);
      await opened?.release();
    },
  };
}

/**
 * The sending side: frames go out in call order, packed into payloads per channel, up to BATCH_PAYLOADS
 * payloads per statement, one statement at a time.
 */
function sending(driver: Pick<SqlDriver, 'query'>, origin: string, onError: (error: unknown) => void) {
  let seq = 0;
  let queue: { channel: string; line: string }[] = [];
  let flushing: Promise<void> | undefined;

  const flush = async () => {
    while (queue.length > 0) {
      const channels: string[] = [];
      const payloads: string[] = [];
      const open = new Map<string, number>(); // channel → index of its payload being filled
      while (queue.length > 0) {
        const { channel, line } = queue[0]!;
        const at = open.get(channel);
        if (at !== undefined && payloads[at]!.length + line.length + 1 <= PAYLOAD_CHARS) {
          payloads[at] += `\n${line}`;
        } else {
          if (payloads.length === BATCH_PAYLOADS) break;
          open.set(channel, payloads.length);
          channels.push(channel);
          payloads.push(`${origin}\n${line}`);
        }
        queue.shift();
      }
      try {
        // Rows in array order: a channel's payloads are notified in the order they were queued.
        await driver.query(
          'SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) AS n(channel, payload)',
          [channels, payloads],
        );
      } catch (error) {
        onError(error);
      }
    }
  };
  const kick = (): void => {
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      if (queue.length > 0) kick();
    });
  };
  return {
    nextId: () => ++seq,
    send(channels: string[], line: string) {
      for (const channel of channels) queue.push({ channel, line });
      kick();
    },
    async close() {
      await flushing;
      queue = [];
    },
  };
}
