/**
 * Forks on both drivers: `node bench/forks.ts` in this package. A conversation of PROMPTS prompts, then a chain
 * of DEPTH forks of forks (each at its source's last prompt, then two prompts of its own). Measures a fork and a
 * history read (`listByConversation`, what a prompt's start reads) at depth 1 and at DEPTH, beside a plain
 * conversation as long as the deepest fork: a fork lists its whole shared history itself, so its read should
 * cost what the plain one's does. PGlite in a temporary directory; the server run on a
 * fresh database of BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped after.
 */
import { type Conversation, emptyUsage, newId } from '@tessera/core';
import type { PostgresStore } from '../src/index.ts';
import { onBothDrivers } from './on-both-drivers.ts';

const PROMPTS = 200;
const DEPTH = 100;
const RUNS = 20;

const at = () => new Date().toISOString();
const fmt = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function promptIn(store: PostgresStore, conversation: Conversation, i: number) {
  const id = newId('prm');
  await store.prompts.create({
    id,
    conversationId: conversation.id,
    userId: 'bench',
    model: 'normal',
    visible: true,
    state: 'completed',
    input: `question ${i}`,
    output: [{ type: 'text', id: newId('out'), createdAt: at(), text: `answer ${i} `.repeat(20) }],
    usage: emptyUsage(),
    createdAt: at(),
    updatedAt: at(),
  });
  return id;
}

const forkAt = (store: PostgresStore, source: Conversation, promptId: string) =>
  store.conversations.fork!({
    id: newId('conv'),
    userId: 'bench',
    createdAt: at(),
    updatedAt: at(),
    forkOf: { conversationId: source.id, promptId },
  });

async function run(store: PostgresStore): Promise<Record<string, string>> {
  const root: Conversation = {
    id: newId('conv'),
    userId: 'bench',
    promptIds: [],
    pluginState: {},
    createdAt: at(),
    updatedAt: at(),
  };
  await store.conversations.create(root);
  let last = '';
  for (let i = 0; i < PROMPTS; i++) last = await promptIn(store, root, i);
  const chain: Conversation[] = [];
  let source = root;
  for (let depth = 1; depth <= DEPTH; depth++) {
    // Shares all but the source's last prompt, then has two of its own: one longer, its prompts of many owners.
    const fork = await forkAt(store, source, last);
    await promptIn(store, fork, PROMPTS + 2 * depth);
    last = await promptIn(store, fork, PROMPTS + 2 * depth + 1);
    source = (await store.conversations.get(fork.id))!;
    chain.push(source);
  }
  const plain: Conversation = { ...root, id: newId('conv') };
  await store.conversations.create(plain);
  for (let i = 0; i < PROMPTS + DEPTH; i++) await promptIn(store, plain, i);
  const shallow = chain[0]!;
  const deep = chain.at(-1)!;
  const shallowLast = shallow.promptIds.at(-1)!;
  const deepLast = deep.promptIds.at(-1)!;
  const figures: Record<string, string> = {
    [`fork at depth 1 (${shallow.promptIds.length - 1} prompts shared)`]: fmt(
      await median(() => forkAt(store, shallow, shallowLast)),
    ),
    [`fork at depth ${DEPTH} (${deep.promptIds.length - 1} prompts shared)`]: fmt(
      await median(() => forkAt(store, deep, deepLast)),
    ),
    [`read the history at depth 1 (${shallow.promptIds.length} prompts)`]: fmt(
      await median(() => store.prompts.listByConversation(shallow.id)),
    ),
    [`read the history at depth ${DEPTH} (${deep.promptIds.length} prompts)`]: fmt(
      await median(() => store.prompts.listByConversation(deep.id)),
    ),
    [`read a conversation of ${PROMPTS + DEPTH} prompts, no fork`]: fmt(
      await median(() => store.prompts.listByConversation(plain.id)),
    ),
  };
  const start = performance.now();
  await store.conversations.delete(root.id);
  figures['delete the root, its prompts shared by every fork'] = fmt(performance.now() - start);
  return figures;
}

const results = await onBothDrivers('tessera-bench-forks', run);
const rows = Object.keys(Object.values(results)[0]!);
for (const driver of Object.keys(results)) {
  console.log(`\n${driver}`);
  for (const row of rows) console.log(`  ${row}: ${results[driver]![row]}`);
}
