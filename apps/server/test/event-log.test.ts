import type { PlatformEvents, TesseraEvent } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/http/event-log.ts';

/** An event log over a bus whose events the test sends. */
function logOf(options: ConstructorParameters<typeof EventLog>[1]) {
  let handler: ((event: TesseraEvent) => void) | undefined;
  const bus = {
    subscribe: (_filter: unknown, h: typeof handler) => (handler = h),
  } as unknown as PlatformEvents;
  const log = new EventLog(bus, options);
  const send = (conversationId: string, n = 1) => {
    for (let i = 0; i < n; i++) {
      handler!({
        type: 'prompt.text-delta',
        conversationId,
        promptId: 'p',
        userId: 'u',
        outputId: 'o',
        delta: 'x',
      } as TesseraEvent);
    }
  };
  const ids: string[] = [];
  log.listen('a', (entry) => ids.push(entry.id));
  return { log, send, ids };
}

describe('event log: what a reconnecting stream resumes from, bounded', () => {
  it('resumes after the last id seen, and refuses an id from another process', () => {
    const { log, send, ids } = logOf({});
    send('a', 3);
    expect(log.since('a', ids[0]!)?.map((e) => e.id)).toEqual(ids.slice(1));
    expect(log.since('a', ids[2]!)).toEqual([]);
    expect(log.since('a', `ffffffff-1`)).toBeUndefined();
  });

  it('keeps at most perConversation events of a conversation: a resume from before them is refused', () => {
    const { log, send, ids } = logOf({ perConversation: 3 });
    send('a', 5);
    expect(log.since('a', ids[0]!)).toBeUndefined(); // events 2 and 3 are gone
    expect(log.since('a', ids[1]!)?.map((e) => e.id)).toEqual(ids.slice(2));
  });

  it('keeps at most maxEvents in all: the least recently active conversations go first, and say so', () => {
    const { log, send, ids } = logOf({ maxEvents: 4 });
    send('a', 2);
    send('b', 2);
    send('c', 1); // 5 events: a's log goes
    expect(log.since('a', ids[0]!)).toBeUndefined();
    send('b', 1); // b is the most recent now; c the oldest
    send('d', 2); // c goes, then b's 3 + d's 2 = 5 > 4: b goes
    const bId = (n: number) => `${log.boot}-${n}`;
    expect(log.since('b', bId(3))).toBeUndefined();
    expect(log.since('d', bId(6))?.length).toBe(2);
    // A conversation with no events at all since the id, none dropped after it: nothing to resume, no reload.
    expect(log.since('e', bId(8))).toEqual([]);
  });
});
