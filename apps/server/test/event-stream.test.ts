import type { PlatformEvents, TesseraEvent } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/http/event-log.ts';
import { eventStream, Wakes } from '../src/http/event-stream.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An event log over a bus whose events the test sends, and streams of conversation `a` read by hand. */
function setup() {
  let handler: ((event: TesseraEvent) => void) | undefined;
  const bus = {
    subscribe: (_filter: unknown, h: typeof handler) => (handler = h),
    // No relay: routes are in place at once.
    follow: () => Object.assign(() => {}, { ready: Promise.resolve() }),
  } as unknown as PlatformEvents;
  const events = new EventLog(bus);
  const wakes = new Wakes();
  const send = (delta: string) =>
    handler!({
      type: 'prompt.text-delta',
      conversationId: 'a',
      promptId: 'p',
      userId: 'u',
      outputId: 'o',
      delta,
    } as TesseraEvent);
  const open = (options: { queueBytes?: number; heartbeatMs?: number; lastEventId?: string } = {}) => {
    let closed = 0;
    const body = eventStream({
      events,
      key: 'a',
      lastEventId: options.lastEventId,
      reload: 'the conversation',
      queueBytes: options.queueBytes ?? 1_000_000,
      heartbeatMs: options.heartbeatMs ?? 60_000,
      wakes,
      disconnected: new AbortController().signal,
      shutdown: new AbortController().signal,
      outgoing: undefined,
      onClose: () => closed++,
      log: undefined,
      logContext: {},
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    return {
      closed: () => closed,
      /** The next chunk as text (a frame, a ping, or frames joined). */
      read: async () => {
        const { value, done } = await reader.read();
        return done ? undefined : decoder.decode(value);
      },
      cancel: () => reader.cancel(),
    };
  };
  return { events, send, open };
}

describe('an event stream', () => {
  it('opens with ready, sends each event as it is logged, and a ping when it has nothing to send', async () => {
    const { events, send, open } = setup();
    const stream = open({ heartbeatMs: 20 });
    expect(await stream.read()).toBe(`event: ready\ndata: {"boot":"${events.boot}"}\n\n`);
    send('hello');
    expect(await stream.read()).toMatch(
      /^event: prompt\.text-delta\ndata: .*"delta":"hello".*\nid: \w+-1\n\n$/,
    );
    expect(await stream.read()).toBe(': ping\n\n');
    await stream.cancel();
    expect(stream.closed()).toBe(1);
  });

  it('is cut once more than queueBytes wait for a reader that reads nothing; never for one that keeps up', async () => {
    const { send, open } = setup();
    const stalled = open({ queueBytes: 10_000 });
    const keepsUp = open({ queueBytes: 10_000 });
    await stalled.read(); // ready, then nothing more is read
    // Reads on as soon as it got a chunk, as @hono/node-server does while the socket takes what it writes.
    let received = '';
    const reading = (async () => {
      for (let chunk = await keepsUp.read(); chunk !== undefined; chunk = await keepsUp.read())
        received += chunk;
    })();
    await sleep(0); // it asked for the next chunk
    send('x'.repeat(30_000)); // one event over the limit: it goes to the reader waiting for it
    for (let i = 0; i < 3; i++) send('y'.repeat(4_000));
    await sleep(10);
    await expect(stalled.read()).rejects.toThrow('its reader fell behind');
    expect([stalled.closed(), keepsUp.closed()]).toEqual([1, 0]);
    expect([received.match(/x{30000}/g)?.length, received.match(/y{4000}/g)?.length]).toEqual([1, 3]);
    await keepsUp.cancel();
    await reading;
  });

  it('does not count the missed events it resumes with as falling behind', async () => {
    const { events, send, open } = setup();
    for (let i = 0; i < 5; i++) send('z'.repeat(4_000)); // 20 KB missed
    const resumed = open({ queueBytes: 10_000, lastEventId: `${events.boot}-0` });
    send('z'.repeat(4_000)); // 24 KB waiting, of which 4 KB new: not behind
    await sleep(10);
    let text = '';
    while (!text.includes(`-6\n\n`)) text += (await resumed.read()) ?? '';
    expect([text.startsWith('event: ready'), text.match(/z{4000}/g)?.length, resumed.closed()]).toEqual([
      true,
      6,
      0,
    ]);
    await resumed.cancel();
  });

  it('ends cleanly when its conversation is deleted', async () => {
    const { events, open } = setup();
    const stream = open();
    await stream.read();
    const next = stream.read();
    events.end('a');
    expect(await next).toBeUndefined();
    expect(stream.closed()).toBe(1);
  });
});
