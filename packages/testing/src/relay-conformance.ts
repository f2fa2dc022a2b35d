import type { EventRelay, RelayMessage, TesseraEvent } from '@tessera/core';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A routed relay as one process opens it, with what the suite needs to end it. */
export type RoutedRelay = EventRelay & { routes: NonNullable<EventRelay['routes']>; close(): Promise<void> };

export type RelayConformanceOptions = {
  /** Opens the relay as one more process would, on the same system as every other relay it opened. */
  open(): Promise<RoutedRelay> | RoutedRelay;
  /** Cuts `relay`'s connections so that it must reconnect (the reconnect test runs only with it). */
  disconnect?(relay: RoutedRelay): Promise<void>;
  /** Bytes of the largest event sent (default 3 MB): over what one message of the system carries. */
  largeEventBytes?: number;
};

/** The time a relay may take to route a topic, or to reconnect (generous: CI machines are loaded). */
const WAIT = { timeout: 20_000, interval: 50 };

let ids = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++ids}`;

const delta = (conversationId: string, text: string, userId = 'user_r'): RelayMessage => ({
  kind: 'event',
  event: {
    type: 'prompt.text-delta',
    promptId: 'prm_r',
    conversationId,
    userId,
    outputId: 'out_r',
    delta: text,
  },
});

const resumed = (conversationId: string, userId: string): RelayMessage => ({
  kind: 'event',
  event: { type: 'prompt.resumed', promptId: 'prm_r', conversationId, userId, state: 'running' },
});

/** What a relay received, as text: `<conversation> <delta>`, `<conversation> <type>`, or `cancel <prompt>`. */
function received(relay: RoutedRelay): string[] {
  const seen: string[] = [];
  relay.subscribe((message) => {
    if (message.kind === 'cancel')
      return void seen.push(`cancel ${message.promptId} ${message.conversationId}`);
    const event: TesseraEvent = message.event;
    seen.push(`${event.conversationId} ${event.type === 'prompt.text-delta' ? event.delta : event.type}`);
  });
  return seen;
}

type Harness = {
  /** Opens one more process's relay, closed after the test. */
  open(): Promise<RoutedRelay>;
  /** Follows a conversation in `to`, then publishes probes from `from` until one arrives: the route is in place. */
  route(from: RoutedRelay, to: RoutedRelay, seen: string[], conversationId: string): Promise<void>;
  /** Publishes a last message on a followed conversation and waits for it: what came before has arrived. */
  settle(from: RoutedRelay, seen: string[], conversationId: string): Promise<void>;
};

/** What a relay received, less the probes and markers the suite sent to wait on it. */
const withoutProbes = (seen: string[]) => seen.filter((line) => !/ (probe|marker)_/.test(line));

function harness(options: RelayConformanceOptions): Harness {
  const opened: RoutedRelay[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((relay) => relay.close()));
  });
  return {
    async open() {
      const relay = await options.open();
      opened.push(relay);
      return relay;
    },
    async route(from, to, seen, conversationId) {
      to.routes.add(`conversation:${conversationId}`);
      // A probe of its own: one left from an earlier route of the same conversation proves nothing.
      const probe = unique('probe');
      await vi.waitFor(() => {
        from.publish(delta(conversationId, probe));
        expect(seen).toContain(`${conversationId} ${probe}`);
      }, WAIT);
    },
    async settle(from, seen, conversationId) {
      // Sent again until it arrives: a relay may lose what is sent while it reconnects (a loaded machine's
      // connections break too); what arrives comes in order, so what was sent before it has arrived.
      const marker = unique('marker');
      await vi.waitFor(() => {
        from.publish(delta(conversationId, marker));
        expect(seen).toContain(`${conversationId} ${marker}`);
      }, WAIT);
    },
  };
}

/**
 * The routed relay's conformance suite (vitest): call it inside a test file with a way to open the relay as
 * several processes would. A process receives the messages of the topics it follows, once, in order, large
 * ones whole, cancel requests included, and nothing else; following stops; a relay reconnects.
 */
export function describeRelayConformance(name: string, options: RelayConformanceOptions): void {
  describe(`routed relay conformance: ${name}`, () => {
    const h = harness(options);
    routingTests(h);
    deliveryTests(h, options);
  });
}

/** Who receives what: followed conversations and users, not one's own, cancel requests. */
function routingTests({ open, route, settle }: Harness): void {
  it('gives a process the events of the conversations it follows, and not the others', async () => {
    const [a, b] = [await open(), await open()];
    const seen = received(b);
    const [followed, other] = [unique('conv'), unique('conv')];
    await route(a, b, seen, followed);
    a.publish(delta(other, 'not for b'));
    a.publish(delta(followed, 'for b'));
    await settle(a, seen, followed);
    expect(withoutProbes(seen)).toEqual([`${followed} for b`]);
  });

  it('never gives a process its own messages', async () => {
    const [a, b] = [await open(), await open()];
    const [inA, inB] = [received(a), received(b)];
    const conversation = unique('conv');
    a.routes.add(`conversation:${conversation}`);
    await route(a, b, inB, conversation);
    a.publish(delta(conversation, 'from a'));
    await settle(a, inB, conversation);
    expect(inA).toEqual([]);
  });

  it('stops giving a conversation once it is no longer followed, and gives it again once followed again', async () => {
    const [a, b] = [await open(), await open()];
    const seen = received(b);
    const [dropped, kept] = [unique('conv'), unique('conv')];
    await route(a, b, seen, dropped);
    await route(a, b, seen, kept);
    b.routes.delete(`conversation:${dropped}`);
    // Until the relay has left the route, messages may still come: wait until a fresh one does not.
    await vi.waitFor(async () => {
      const tag = unique('after');
      a.publish(delta(dropped, tag));
      await settle(a, seen, kept);
      expect(seen).not.toContain(`${dropped} ${tag}`);
    }, WAIT);
    const before = seen.length;
    a.publish(delta(dropped, 'gone'));
    await settle(a, seen, kept);
    expect(seen.slice(before).filter((line) => line.startsWith(dropped))).toEqual([]);
    await route(a, b, seen, dropped);
    a.publish(delta(dropped, 'back'));
    await settle(a, seen, dropped);
    expect(seen).toContain(`${dropped} back`);
  });

  it("gives a user's follower their prompts' changes of state, once even when it follows the conversation too", async () => {
    const [a, b] = [await open(), await open()];
    const seen = received(b);
    const [conversation, userId] = [unique('conv'), unique('user')];
    b.routes.add(`user:${userId}`);
    await vi.waitFor(() => {
      a.publish(resumed(conversation, userId));
      expect(seen).toContain(`${conversation} prompt.resumed`);
    }, WAIT);
    seen.length = 0;
    a.publish(delta(conversation, 'content', userId)); // a user's follower gets no content
    await route(a, b, seen, conversation);
    seen.length = 0;
    a.publish(resumed(conversation, userId));
    a.publish(delta(conversation, 'content', userId));
    await settle(a, seen, conversation);
    const got = withoutProbes(seen);
    expect(got.slice(0, 2)).toEqual([`${conversation} prompt.resumed`, `${conversation} content`]);
    expect(got).toHaveLength(2);
  });

  it('takes a cancel request to the process that follows its conversation', async () => {
    const [a, runner, bystander] = [await open(), await open(), await open()];
    const [inRunner, inBystander] = [received(runner), received(bystander)];
    const [conversation, elsewhere] = [unique('conv'), unique('conv')];
    await route(a, runner, inRunner, conversation);
    await route(a, bystander, inBystander, elsewhere);
    a.publish({ kind: 'cancel', promptId: 'prm_c', conversationId: conversation });
    await vi.waitFor(() => expect(inRunner).toContain(`cancel prm_c ${conversation}`), WAIT);
    await settle(a, inBystander, elsewhere);
    expect(inBystander.filter((line) => line.startsWith('cancel'))).toEqual([]);
  });
}

/** How messages arrive: in order, large ones whole, and again after a reconnect. */
function deliveryTests({ open, route }: Harness, options: RelayConformanceOptions): void {
  it("keeps a conversation's messages in the order they were published", async () => {
    const [a, b] = [await open(), await open()];
    const seen = received(b);
    const [first, second] = [unique('conv'), unique('conv')];
    await route(a, b, seen, first);
    await route(a, b, seen, second);
    seen.length = 0;
    for (let n = 0; n < 300; n++) a.publish(delta(n % 3 === 0 ? second : first, String(n)));
    await vi.waitFor(() => expect(withoutProbes(seen).length).toBe(300), WAIT);
    const numbers = (conversation: string) =>
      withoutProbes(seen)
        .filter((line) => line.startsWith(conversation))
        .map((line) => Number(line.split(' ')[1]));
    const expected = (keep: (n: number) => boolean) => [...Array(300).keys()].filter(keep);
    expect(numbers(first)).toEqual(expected((n) => n % 3 !== 0));
    expect(numbers(second)).toEqual(expected((n) => n % 3 === 0));
  });

  it('carries a large event whole, multi-byte characters included, between small ones', async () => {
    const [a, b] = [await open(), await open()];
    const seen: RelayMessage[] = [];
    b.subscribe((message) => seen.push(message));
    const conversation = unique('conv');
    b.routes.add(`conversation:${conversation}`);
    await vi.waitFor(() => {
      a.publish(delta(conversation, 'probe'));
      expect(seen.length).toBeGreaterThan(0);
    }, WAIT);
    seen.length = 0;
    // 3 bytes a character, over the system's limit for one message.
    const text = 'é€'.repeat(Math.ceil((options.largeEventBytes ?? 3_000_000) / 5));
    a.publish(delta(conversation, 'before'));
    a.publish(delta(conversation, text));
    a.publish(delta(conversation, 'after'));
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(3), WAIT);
    const texts = seen.map((m) =>
      m.kind === 'event' && m.event.type === 'prompt.text-delta' ? m.event.delta : '',
    );
    expect(texts.filter((t) => t !== 'probe').map((t) => (t.length > 100 ? t.length : t))).toEqual([
      'before',
      text.length,
      'after',
    ]);
    expect(texts.includes(text)).toBe(true);
  });

  it.runIf(options.disconnect !== undefined)('routes again after its connection was cut', async () => {
    const [a, b] = [await open(), await open()];
    const seen = received(b);
    const conversation = unique('conv');
    await route(a, b, seen, conversation);
    await options.disconnect!(b);
    // Messages sent while it reconnects may be lost (clients catch up from the store); later ones arrive.
    await vi.waitFor(() => {
      const tag = unique('again');
      a.publish(delta(conversation, tag));
      expect(seen.some((line) => line.startsWith(`${conversation} again`))).toBe(true);
    }, WAIT);
  });
}
