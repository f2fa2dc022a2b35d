import type { PlatformEvents, TesseraEvent } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/http/event-log.ts';

/** An event log over a bus whose events the test sends. */
function logOf(options: ConstructorParameters<typeof EventLog>[1]) {
  let handler: ((event: TesseraEvent) => void) | undefined;
  /** The topics followed on the relay now, once per interest. */
  const followed: string[] = [];
  const bus = {
    subscribe: (_filter: unknown, h: typeof handler) => (handler = h),
    follow: (topic: string) => {
      followed.push(topic);
      const unfollow = () => void followed.splice(followed.indexOf(topic), 1);
      return Object.assign(unfollow, { ready: Promise.resolve() });
    },
  } as unknown as PlatformEvents;
  const log = new EventLog(bus, options);
  const send = (conversationId: string, n = 1, delta = 'x') => {
    for (let i = 0; i < n; i++) {
      handler!({
        type: 'prompt.text-delta',
        conversationId,
        promptId: 'p',
        userId: 'u',
        outputId: 'o',
        delta,
      } as TesseraEvent);
    }
  };
  const publish = (event: TesseraEvent) => handler!(event);
  const ids: string[] = [];
  log.listen('a', (entry) => ids.push(entry.id));
  return { log, send, publish, ids, followed };
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

  it('keeps at most perConversationBytes of a conversation and maxBytes in all', () => {
    const { log, send, ids } = logOf({ perConversationBytes: 10_000, maxBytes: 25_000 });
    send('a', 2, 'x'.repeat(1_000));
    const size = log.since('a', `${log.boot}-0`)![0]!.frame.byteLength; // about 1,100 bytes
    for (let i = 0; i < 30; i++) {
      send('a', 1, 'x'.repeat(1_000));
      expect(log.bytesOf('a')).toBeLessThanOrEqual(10_000);
    }
    expect(log.bytesOf('a')).toBeGreaterThan(10_000 - size); // as many as fit
    expect(log.since('a', ids[0]!)).toBeUndefined(); // dropped for its bytes, not its count (1,000)
    for (const conversation of ['b', 'c', 'd']) {
      send(conversation, 12, 'x'.repeat(1_000));
      expect(log.bytes).toBeLessThanOrEqual(25_000);
    }
    expect(log.bytesOf('a')).toBe(0); // the least recently active went first
    // An event over the bounds is not kept at all: a resume from before it is refused.
    const before = `${log.boot}-${ids.length + 36}`;
    send('e', 1, 'x'.repeat(40_000));
    expect([log.bytesOf('e'), log.since('e', before)]).toEqual([0, undefined]);
    expect(log.bytes).toBeLessThanOrEqual(25_000);
  });

  it('counts in its byte bounds the memory its frames hold: no frame keeps memory beyond its own bytes', () => {
    const { log, send } = logOf({});
    for (const delta of ['hi', 'x'.repeat(300), 'é'.repeat(2_000)]) send('a', 3, delta);
    const frames = log.since('a', `${log.boot}-0`)!.map((entry) => entry.frame);
    expect(frames).toHaveLength(9);
    // A frame cut from a shared slab would keep the whole slab (8 KB) alive for as long as it is logged.
    for (const frame of frames) expect(frame.buffer.byteLength).toBe(frame.byteLength);
    expect(log.bytes).toBe(frames.reduce((sum, frame) => sum + frame.buffer.byteLength, 0));
  });

  it('serialises each event once: every stream and every replay writes the same bytes', () => {
    const { log, publish } = logOf({});
    let serialised = 0;
    const event = {
      type: 'prompt.text-delta',
      conversationId: 'a',
      promptId: 'p',
      userId: 'u',
      outputId: 'o',
      delta: 'hi',
    } as const;
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) log.follow('a', undefined, (entry) => frames.push(entry.frame));
    const toJSON = () => {
      serialised++;
      return event;
    };
    publish({ ...event, toJSON } as unknown as TesseraEvent);
    frames.push(
      log.since('a', `${log.boot}-0`)![0]!.frame,
      log.follow('a', `${log.boot}-0`, () => {}).missed[0]!.frame,
    );
    expect(serialised).toBe(1);
    expect([frames.length, new Set(frames).size]).toEqual([5, 1]);
    expect(Buffer.from(frames[0]!).toString()).toBe(
      `event: prompt.text-delta\ndata: ${JSON.stringify(event)}\nid: ${log.boot}-1\n\n`,
    );
  });
});

describe('event log: following a conversation', () => {
  it('gives the events missed since an id, or reset, then each new one until closed', () => {
    const { log, send, ids } = logOf({ perConversation: 3 });
    send('a', 2);
    const seen: string[] = [];
    const resumed = log.follow('a', ids[0], (entry) => seen.push(entry.id));
    expect([resumed.missed.map((e) => e.id), resumed.reset]).toEqual([[ids[1]], false]);
    expect(log.follow('a', 'ffffffff-1', () => {})).toMatchObject({ missed: [], reset: true });
    expect(log.follow('a', undefined, () => {})).toMatchObject({ missed: [], reset: false });
    send('a', 1);
    send('b', 1);
    resumed.close();
    send('a', 1);
    expect(seen).toEqual([ids[2]]);
  });

  it('keeps the floor of a followed conversation whose log was dropped whole: exact, never a needless reset', () => {
    const { log, send, ids } = logOf({ maxEvents: 3 });
    log.follow('a', undefined, () => {});
    send('a', 2);
    send('b', 2); // a's log goes whole (b's 2 + a's 2 > 3)
    send('c', 1);
    send('a', 1);
    expect(log.since('a', ids[1]!)?.map((e) => e.id)).toEqual([ids[2]]); // nothing of a's was missed after it
    expect(log.since('a', ids[0]!)).toBeUndefined(); // a's second event is gone
  });

  it('follows on the relay each conversation streams follow, once, until the last of them closes', () => {
    const { log, followed } = logOf({});
    expect(followed).toEqual(['conversation:a']); // the log's own listener of a, in logOf
    const first = log.follow('b', undefined, () => {});
    const second = log.follow('b', undefined, () => {});
    const ended = log.onEnd('b', () => {});
    expect(followed).toEqual(['conversation:a', 'conversation:b']);
    first.close();
    second.close();
    expect(followed).toEqual(['conversation:a', 'conversation:b']); // onEnd still follows it
    ended();
    expect(followed).toEqual(['conversation:a']);
    log.follow('b', undefined, () => {});
    expect(followed).toEqual(['conversation:a', 'conversation:b']);
  });
});
