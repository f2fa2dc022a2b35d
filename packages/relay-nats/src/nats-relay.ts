import { createHash, randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { type EventRelay, type RelayMessage, type RelayTopic, relayTopics } from '@tessera/core';

export type NatsRelayOptions = {
  /** The NATS server(s) to connect to, e.g. `nats://127.0.0.1:4222` (several for a cluster). */
  servers?: string | string[];
  /**
   * The first token of every subject (default `tessera`): processes that share a store share it, and two
   * stores on one NATS (two schemas, two apps) each have their own.
   */
  subjectPrefix?: string;
  /** What to do with an error the relay cannot hand to anyone (a failed publish or subscription). */
  onError?: (error: unknown) => void;
};

export type NatsRelay = EventRelay & {
  readonly routes: NonNullable<EventRelay['routes']>;
  /** Stops routing, sends what is queued and closes the connection. */
  close(): Promise<void>;
};

/** Room left in a message for the frame line, under the server's `max_payload`. */
const FRAME_LINE_BYTES = 512;
/** Messages whose frames are still arriving, kept at most (frames lost while reconnecting never complete). */
const MAX_PARTIAL = 100;
const NEWLINE = 0x0a;

/** A topic's subject token: a hash, so no id (with dots, spaces, wildcards) can shape a subject. */
const topicToken = (topic: RelayTopic): string =>
  `${topic.startsWith('user:') ? 'u' : 'c'}${createHash('sha256').update(topic).digest('hex').slice(0, 32)}`;

/**
 * A routed `EventRelay` over NATS: every topic is a subject (`<prefix>.<c|u><hash>`), a process subscribes to
 * the subjects of the topics it follows, and the NATS server hands it only their messages. A message goes to
 * the subject of each of its topics; a process following several of them keeps the copy from the first it
 * follows, so it gets it once. Messages larger than the server's `max_payload` go as several frames,
 * reassembled in order (NATS keeps one publisher's messages in order on a subject). The connection never
 * echoes a process's own messages (`noEcho`), and reconnects by itself, subscribing again; what is sent while
 * a process is away is not kept, and its clients catch up from the store, as after any dropped connection.
 */
export async function createNatsRelay(options: NatsRelayOptions = {}): Promise<NatsRelay> {
  const prefix = options.subjectPrefix ?? 'tessera';
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new RangeError(
      `A NATS subject prefix is tokens of letters, digits, - and _, joined by dots: ${prefix}`,
    );
  }
  const nc = await open(options.servers);
  const onError = options.onError ?? (() => {});
  const origin = randomUUID().slice(0, 13);
  const handlers = new Set<(message: RelayMessage) => void>();
  const subscriptions = new Map<string, Subscription>();
  const partial = new Map<string, Uint8Array[]>();
  let seq = 0;
  let closed = false;

  const deliver = (bytes: Uint8Array) => {
    let message: RelayMessage;
    try {
      message = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch (error) {
      return onError(error);
    }
    for (const handler of handlers) handler(message);
  };
  /** A frame is `<origin> <seq> <index> <count> <token,token…>\n<bytes>`. */
  const received = (token: string, data: Uint8Array) => {
    const end = data.indexOf(NEWLINE);
    if (end < 0) return;
    const [from, seqText, indexText, countText, tokens = ''] = Buffer.from(data.subarray(0, end))
      .toString('latin1')
      .split(' ');
    // Its own (should the server echo despite noEcho), or a copy another subscription of this process gets:
    // the one of the first of its topics followed here.
    if (from === origin) return;
    if (tokens.split(',').find((t) => subscriptions.has(t)) !== token) return;
    const body = data.subarray(end + 1);
    const count = Number(countText);
    if (count === 1) return deliver(body);
    const key = `${from}:${seqText}`;
    const parts = partial.get(key) ?? [];
    parts[Number(indexText)] = Buffer.from(body); // a copy: the client's read buffer is not ours to keep
    partial.set(key, parts);
    if (partial.size > MAX_PARTIAL) partial.delete(partial.keys().next().value!);
    if (parts.filter((p) => p !== undefined).length === count) {
      partial.delete(key);
      deliver(Buffer.concat(parts));
    }
  };

  return {
    publish(message) {
      if (closed) return;
      try {
        const tokens = relayTopics(message).map(topicToken);
        const bytes = Buffer.from(JSON.stringify(message), 'utf8');
        const frameBytes = Math.max(1_024, (nc.info?.max_payload ?? 1_048_576) - FRAME_LINE_BYTES);
        const count = Math.max(1, Math.ceil(bytes.length / frameBytes));
        const id = ++seq;
        for (let index = 0; index < count; index++) {
          const line = Buffer.from(`${origin} ${id} ${index} ${count} ${tokens.join(',')}\n`, 'latin1');
          const frame = Buffer.concat([line, bytes.subarray(index * frameBytes, (index + 1) * frameBytes)]);
          for (const token of tokens) nc.publish(`${prefix}.${token}`, frame);
        }
      } catch (error) {
        onError(error); // closed or draining: the loop that published must not fail for it
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    routes: {
      async add(topic) {
        const token = topicToken(topic);
        if (closed || subscriptions.has(token)) return;
        try {
          subscriptions.set(
            token,
            nc.subscribe(`${prefix}.${token}`, {
              callback: (error, msg) => (error ? onError(error) : received(token, msg.data)),
            }),
          );
          await nc.flush(); // the server has the subscription: its messages come from now on
        } catch (error) {
          onError(error);
        }
      },
      delete(topic) {
        const token = topicToken(topic);
        subscriptions.get(token)?.unsubscribe();
        subscriptions.delete(token);
      },
    },
    async close() {
      if (closed) return;
      closed = true;
      handlers.clear();
      for (const subscription of subscriptions.values()) subscription.unsubscribe();
      subscriptions.clear();
      await nc.drain();
    },
  };
}

async function open(servers: string | string[] | undefined): Promise<NatsConnection> {
  if (servers === undefined || servers.length === 0) {
    throw new TypeError('createNatsRelay needs `servers` (e.g. nats://127.0.0.1:4222).');
  }
  return connect({
    servers,
    name: 'tessera-relay',
    noEcho: true,
    // Reconnects for as long as the process lives: a NATS restart must not cut processes apart for good.
    maxReconnectAttempts: -1,
  });
}
