import { randomUUID } from 'node:crypto';
import type { RelayMessage } from '@tessera/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Row, SqlDriver } from '../src/driver.ts';
import { pgDriver } from '../src/drivers/pg-driver.ts';
import { openRelay, type Relay } from '../src/relay.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';

/** Short intervals, so that a window passes quickly; the expiry is generous for a loaded machine. */
const TIMES = { heartbeatMs: 200, expiryMs: 1_000 };
/** The time a relay may take to learn of another, to reconnect, or to let a window pass. */
const WAIT = { timeout: 20_000, interval: 50 };

let ids = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++ids}`;

const delta = (conversationId: string, text: string): RelayMessage => ({
  kind: 'event',
  event: {
    type: 'prompt.text-delta',
    promptId: 'prm_p',
    conversationId,
    userId: 'user_p',
    outputId: 'out_p',
    delta: text,
  },
});

/** What a relay sends through its driver: event and cancel statements, hellos, statements not answered yet. */
type Sent = { frames: number; hellos: number; inFlight: number };

/** The driver's `query`, counting what the relay sends. */
function counting(driver: SqlDriver, sent: Sent): Pick<SqlDriver, 'query'> {
  return {
    query: <R extends Row>(sql: string, params?: readonly unknown[]) => {
      if (sql.includes('unnest')) sent.frames++;
      else if (String(params?.[1]).endsWith('\nhello')) sent.hellos++;
      sent.inFlight++;
      return driver.query<R>(sql, params).finally(() => sent.inFlight--);
    },
  };
}

function relays() {
  const database = useServerDatabase();
  const opened: Relay[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((relay) => relay.close()));
  });
  return {
    database,
    /** Opens one more process's relay on `schema`, with its own origin and listening connection. */
    async open(schema: string, times = TIMES): Promise<{ relay: Relay; sent: Sent }> {
      const driver = pgDriver(database.pool, { owned: false });
      const sent: Sent = { frames: 0, hellos: 0, inFlight: 0 };
      const relay = openRelay(counting(driver, sent), driver.listen!, schema, randomUUID(), times);
      opened.push(relay);
      await relay.started;
      return { relay, sent };
    },
  };
}

/**
 * Publishes `message` while nothing is being sent, and says whether it went out: a sender with nothing in
 * flight sends at once, so a statement that does not start now never will.
 */
function sends({ relay, sent }: { relay: Relay; sent: Sent }, message: RelayMessage): boolean | 'busy' {
  if (sent.inFlight > 0) return 'busy';
  const before = sent.frames;
  relay.publish(message);
  return sent.frames > before;
}

/** What a relay received: `<conversation> <delta>` or `cancel <prompt>`. */
function received(relay: Relay): string[] {
  const seen: string[] = [];
  relay.subscribe((message) => {
    if (message.kind === 'cancel') return void seen.push(`cancel ${message.promptId}`);
    if (message.event.type === 'prompt.text-delta') {
      seen.push(`${message.event.conversationId} ${message.event.delta}`);
    }
  });
  return seen;
}

/** Publishes from `from` until `seen` holds the message: it crossed. */
async function crosses(from: Relay, seen: string[], conversationId: string): Promise<void> {
  const tag = unique('tag');
  await vi.waitFor(() => {
    from.publish(delta(conversationId, tag));
    expect(seen).toContain(`${conversationId} ${tag}`);
  }, WAIT);
}

describe('the PostgreSQL relay, alone or not', () => {
  const { open, database } = relays();

  it('sends events until it has listened for a window without hearing anyone, then none; cancel requests always', async () => {
    // A longer window: it must not pass before a poll finds the sender idle (busy with the hello at first).
    const alone = await open(uniqueSchema(), { heartbeatMs: 500, expiryMs: 3_000 });
    const conversation = unique('conv');
    // Just started, it may have missed someone: it sends.
    await expect.poll(() => sends(alone, delta(conversation, 'first')), WAIT).toBe(true);
    await expect.poll(() => sends(alone, delta(conversation, 'probe')), WAIT).toBe(false);
    for (let n = 0; n < 20; n++) expect(sends(alone, delta(conversation, String(n)))).toBe(false);
    expect(sends(alone, { kind: 'cancel', promptId: 'prm_c', conversationId: conversation })).toBe(true);
  });

  it('relays both ways with a process that started after it had been alone for longer than a window', async () => {
    const schema = uniqueSchema();
    const a = await open(schema);
    const [inA, toA, toB] = [received(a.relay), unique('conv'), unique('conv')];
    a.relay.routes.add(`conversation:${toA}`);
    await expect.poll(() => sends(a, delta(toB, 'probe')), WAIT).toBe(false);

    const b = await open(schema);
    const inB = received(b.relay);
    b.relay.routes.add(`conversation:${toB}`);
    // B's hello reaches A within a round trip: A sends again.
    await expect.poll(() => sends(a, delta(toB, 'probe')), WAIT).toBe(true);
    // Past both windows, each knows the other by its heartbeats.
    await new Promise((resolve) => setTimeout(resolve, 2 * TIMES.expiryMs));
    await crosses(a.relay, inB, toB);
    await crosses(b.relay, inA, toA);
    b.relay.publish({ kind: 'cancel', promptId: 'prm_b', conversationId: toA });
    await expect.poll(() => inA, WAIT).toContain('cancel prm_b');

    // Once B has closed (and said goodbye), A is alone again, past its window.
    await b.relay.close();
    await expect.poll(() => sends(a, delta(toB, 'probe')), WAIT).toBe(false);
  });

  it('learns of a process that starts from its hello, not its first heartbeat', async () => {
    const schema = uniqueSchema();
    const a = await open(schema);
    await expect.poll(() => sends(a, delta(unique('conv'), 'probe')), WAIT).toBe(false);
    // B's first heartbeat comes after the poll's timeout: only its hello can tell A.
    await open(schema, { heartbeatMs: 60_000, expiryMs: 120_000 });
    await expect.poll(() => sends(a, delta(unique('conv'), 'probe')), WAIT).toBe(true);
  });

  it('sends again while its listening connection is cut and for a window after it is taken again', async () => {
    const schema = uniqueSchema();
    // A longer window, as above: it must not pass before a poll finds the sender idle.
    const a = await open(schema, { heartbeatMs: 500, expiryMs: 3_000 });
    const conversation = unique('conv');
    await expect.poll(() => sends(a, delta(conversation, 'probe')), WAIT).toBe(false);
    expect(a.sent.hellos).toBe(1);
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND query LIKE '%' || $1 || '%'`,
      [schema],
    );
    await expect.poll(() => sends(a, delta(conversation, 'probe')), WAIT).toBe(true);
    // Listening again, it says hello again, then goes quiet once a window passed without an answer.
    await expect.poll(() => a.sent.hellos, WAIT).toBe(2);
    await expect.poll(() => sends(a, delta(conversation, 'probe')), WAIT).toBe(false);
  });
});
