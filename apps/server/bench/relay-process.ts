// One process of bench:scale's relay part (relay-scale.ts): a server's relay alone, so that the process's CPU
// time is the relay's. It opens the relay a server would (RELAY_KIND: postgres, LISTEN/NOTIFY on a store's
// schema; nats), follows the conversations it serves (its own; with RELAY_FOLLOW=all every conversation of
// the cluster, which is what an unrouted relay amounted to), and publishes prompts' events for its own
// conversations at RELAY_PROMPTS per second, each prompt the events a one-round answer makes (started,
// output, three text deltas, output updated, completed: sizes as the instant model's). Prints `ready`, then,
// when told `measure`, waits RELAY_SECONDS and prints its CPU time, messages received and published.
import { createInterface } from 'node:readline';
import type { EventRelay, TesseraEvent } from '@tessera/core';
import { createNatsRelay } from '@tessera/relay-nats';
import { createPostgresStore } from '@tessera/store-postgres';

const env = process.env;
const kind = env.RELAY_KIND ?? 'postgres';
const index = Number(env.RELAY_INDEX ?? 0);
const processes = Number(env.RELAY_PROCESSES ?? 1);
const conversations = Number(env.RELAY_CONVERSATIONS ?? 25);
const promptsPerSecond = Number(env.RELAY_PROMPTS ?? 100);
const seconds = Number(env.RELAY_SECONDS ?? 5);

const conversationId = (process: number, n: number) => `conv_p${process}_${n}`;
const userId = (n: number) => `user_${n % 10}`;

type Relay = EventRelay & { routes: NonNullable<EventRelay['routes']>; close(): Promise<void> };
async function openRelay(): Promise<{ relay: Relay; close(): Promise<void> }> {
  if (kind === 'nats') {
    const relay = await createNatsRelay({ servers: env.RELAY_NATS_URL!, subjectPrefix: env.RELAY_SCHEMA! });
    return { relay, close: () => relay.close() };
  }
  const store = await createPostgresStore({
    connectionString: env.RELAY_DATABASE_URL!,
    schema: env.RELAY_SCHEMA!,
  });
  return { relay: store.relay as Relay, close: () => store.close() };
}

/** The events of one prompt of a one-round answer, as the platform publishes them. */
function promptEvents(conversation: string, user: string, n: number): TesseraEvent[] {
  const scope = { promptId: `prm_${index}_${n}`, conversationId: conversation, userId: user };
  const at = new Date().toISOString();
  const prompt = {
    id: scope.promptId,
    conversationId: conversation,
    userId: user,
    model: 'normal',
    visible: true,
    state: 'running',
    input: 'How does routing by conversation work?',
    output: [],
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    createdAt: at,
    updatedAt: at,
  } as const;
  const text = { type: 'text', id: `out_${index}_${n}`, createdAt: at, text: 'Done.', responseId: 'resp_1' };
  const ended = { ...prompt, state: 'completed', output: [text] };
  return [
    { ...scope, type: 'prompt.started', prompt },
    { ...scope, type: 'prompt.text-delta', outputId: text.id, delta: 'Do' },
    { ...scope, type: 'prompt.text-delta', outputId: text.id, delta: 'ne' },
    { ...scope, type: 'prompt.text-delta', outputId: text.id, delta: '.' },
    { ...scope, type: 'prompt.output', output: text },
    { ...scope, type: 'prompt.completed', prompt: ended },
  ] as unknown as TesseraEvent[];
}

const { relay, close } = await openRelay();
let received = 0;
relay.subscribe(() => {
  received++;
});
const followed: Promise<void>[] = [];
for (let p = 0; p < processes; p++) {
  if (p !== index && env.RELAY_FOLLOW !== 'all') continue;
  for (let n = 0; n < conversations; n++) {
    followed.push(Promise.resolve(relay.routes.add(`conversation:${conversationId(p, n)}`)));
  }
}
await Promise.all(followed);

let published = 0;
let sent = 0;
// Every 10 ms, the prompts due by now: a steady rate whatever the timer's drift.
const started = performance.now();
const timer = setInterval(() => {
  const due = Math.floor(((performance.now() - started) / 1000) * promptsPerSecond);
  for (; sent < due; sent++) {
    const n = sent % conversations;
    for (const event of promptEvents(conversationId(index, n), userId(n), sent)) {
      relay.publish({ kind: 'event', event });
      published++;
    }
  }
}, 10);

console.log('ready');
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line !== 'measure') return;
  const [cpu, inAt, outAt] = [process.cpuUsage(), received, published];
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      cpuMs: (used.user + used.system) / 1000,
      received: received - inAt,
      published: published - outAt,
    }),
  );
  clearInterval(timer);
  await close();
  process.exit(0);
});
