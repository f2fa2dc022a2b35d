import { createHash } from 'node:crypto';
import type { EventRelay, RelayMessage } from '@tessera/core';
import type { SqlDriver } from './driver.ts';

// NOTIFY payloads are limited to 8000 bytes: messages travel as base64 frames, several small ones per payload.
const FRAME_BYTES = 5_400;
const PAYLOAD_CHARS = 7_800;
const MAX_PARTIAL = 100;

/** The notification channel of a schema: a plain identifier of at most 63 bytes. */
export function relayChannel(schema: string): string {
  const name = `tessera_${schema}`;
  if (name.length <= 63) return name;
  return `${name.slice(0, 50)}_${createHash('sha256').update(schema).digest('hex').slice(0, 12)}`;
}

type Frame = { seq: number; index: number; count: number; data: string };

/**
 * An `EventRelay` over PostgreSQL's LISTEN/NOTIFY. Messages are sent one notification at a time, in call
 * order, and reassembled on the other side; a process ignores its own. Notifications are not stored: a
 * process that is not listening at that moment (starting, reconnecting) misses them, and its clients catch
 * up from the store, as after any dropped connection.
 */
export async function openRelay(
  driver: Pick<SqlDriver, 'query'>,
  listen: NonNullable<SqlDriver['listen']>,
  channel: string,
  origin: string,
  onError: (error: unknown) => void = () => {},
): Promise<EventRelay & { close(): Promise<void> }> {
  const handlers = new Set<(message: RelayMessage) => void>();
  const partial = new Map<string, Buffer[]>();
  let seq = 0;
  let queue: Frame[] = [];
  let sending: Promise<void> | undefined;

  const deliver = (text: string) => {
    let message: RelayMessage;
    try {
      message = JSON.parse(text) as RelayMessage;
    } catch (error) {
      return onError(error);
    }
    for (const handler of handlers) handler(message);
  };
  const received = (payload: string) => {
    const [from, ...lines] = payload.split('\n');
    if (from === origin) return;
    for (const line of lines) {
      const [seqText, indexText, countText, data = ''] = line.split('.');
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
      // Frames lost while reconnecting leave messages that never complete: keep only the latest few.
      if (partial.size > MAX_PARTIAL) partial.delete(partial.keys().next().value!);
      if (parts.filter((p) => p !== undefined).length === count) {
        partial.delete(key);
        deliver(Buffer.concat(parts).toString('utf8'));
      }
    }
  };
  const listening = await listen(channel, received);

  const flush = async () => {
    while (queue.length > 0) {
      const lines: string[] = [];
      let size = origin.length;
      while (queue.length > 0) {
        const { seq, index, count, data } = queue[0]!;
        const line = `${seq}.${index}.${count}.${data}`;
        if (lines.length > 0 && size + line.length + 1 > PAYLOAD_CHARS) break;
        lines.push(line);
        size += line.length + 1;
        queue.shift();
      }
      try {
        await driver.query('SELECT pg_notify($1, $2)', [channel, [origin, ...lines].join('\n')]);
      } catch (error) {
        onError(error);
      }
    }
  };

  const kick = (): void => {
    if (sending) return;
    sending = flush().finally(() => {
      sending = undefined;
      if (queue.length > 0) kick();
    });
  };

  return {
    publish(message) {
      // Split by bytes: every frame is whole base64, whatever characters the message holds.
      const bytes = Buffer.from(JSON.stringify(message), 'utf8');
      const count = Math.max(1, Math.ceil(bytes.length / FRAME_BYTES));
      const id = ++seq;
      for (let index = 0; index < count; index++) {
        const data = bytes.subarray(index * FRAME_BYTES, (index + 1) * FRAME_BYTES).toString('base64');
        queue.push({ seq: id, index, count, data });
      }
      kick();
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      await sending;
      handlers.clear();
      queue = [];
      await listening.release();
    },
  };
}
