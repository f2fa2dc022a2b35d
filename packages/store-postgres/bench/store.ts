/**
 * Store benchmark on both drivers: `pnpm bench` (or `node bench/store.ts`) in this package.
 * PGlite runs in a temporary directory; the server run uses a fresh database on BENCH_POSTGRES_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards. Figures are wall-clock times.
 */
import { emptyUsage, newId, type PromptRecord } from '@tessera/core';
import type { PostgresStore } from '../src/index.ts';
import { onBothDrivers } from './on-both-drivers.ts';

const APPENDS = 10_000;
const HISTORY_PROMPTS = 2_000;
const OUTPUTS_PER_HISTORY_PROMPT = 4;
const CONCURRENT_CONVERSATIONS = 100;
const APPENDS_PER_CONVERSATION = 50;

const at = () => new Date().toISOString();
const ms = (start: number) => performance.now() - start;
const fmt = (value: number, unit = 'ms') => `${value.toFixed(value < 10 ? 2 : 0)} ${unit}`;

const textOutput = (i: number) => ({
  type: 'text',
  id: newId('out'),
  createdAt: at(),
  text: `Output ${i}. `.repeat(8),
});
const toolOutput = () => ({
  type: 'tool',
  id: newId('call'),
  createdAt: at(),
  callId: newId('c'),
  toolId: 'demo.search',
  input: { query: 'tessera' },
  result: { type: 'success', output: { hits: [1, 2, 3], note: 'x'.repeat(200) } },
});

async function conversationWithPrompt(store: PostgresStore, state: PromptRecord['state'] = 'running') {
  const conversation = {
    id: newId('conv'),
    userId: 'bench',
    promptIds: [],
    pluginState: {},
    createdAt: at(),
    updatedAt: at(),
  };
  await store.conversations.create(conversation);
  const prompt: PromptRecord = {
    id: newId('prm'),
    conversationId: conversation.id,
    userId: 'bench',
    model: 'normal',
    visible: true,
    state,
    input: 'benchmark',
    output: [],
    usage: emptyUsage(),
    createdAt: at(),
    updatedAt: at(),
  };
  await store.prompts.create(prompt);
  return { conversation, prompt };
}

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(ms(start));
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function run(store: PostgresStore): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};

  // 1. One long prompt: every append is one INSERT, so the 10,000th costs what the 1st did.
  const { prompt } = await conversationWithPrompt(store);
  const slices: number[] = [];
  const start = performance.now();
  for (let slice = 0; slice < 10; slice++) {
    const sliceStart = performance.now();
    for (let i = 0; i < APPENDS / 10; i++) await store.prompts.appendOutput(prompt.id, textOutput(i));
    slices.push(ms(sliceStart) / (APPENDS / 10));
  }
  figures[`append ${APPENDS.toLocaleString('en')} outputs to one prompt`] = fmt(ms(start));
  figures['  per append: first 1,000 / last 1,000'] =
    `${fmt(slices[0]! * 1000, 'µs')} / ${fmt(slices[9]! * 1000, 'µs')}`;
  const middle = { ...(await store.prompts.get(prompt.id))!.output[APPENDS / 2]!, text: 'replaced' };
  figures['  replace one output in the 10,000-output prompt'] = fmt(
    await median(21, () => store.prompts.update(prompt.id, { outputs: [middle] })),
  );
  figures['  read the 10,000-output prompt'] = fmt(await median(5, () => store.prompts.get(prompt.id)));

  // 2. A conversation with 2,000 prompts, each with a few outputs, loaded as one query.
  const small = await conversationWithPrompt(store, 'completed');
  const smallLoadBefore = await median(21, () => store.prompts.listByConversation(small.conversation.id));
  const { conversation: big, prompt: first } = await conversationWithPrompt(store, 'completed');
  const setupStart = performance.now();
  for (let p = 1; p < HISTORY_PROMPTS; p++) {
    const id = newId('prm');
    await store.prompts.create({ ...first, id, state: 'running', createdAt: at(), updatedAt: at() });
    for (let o = 0; o < OUTPUTS_PER_HISTORY_PROMPT; o++) {
      await store.prompts.appendOutput(id, o % 2 === 0 ? textOutput(o) : toolOutput());
    }
    await store.prompts.update(id, { state: 'completed' });
  }
  figures[
    `build a ${HISTORY_PROMPTS.toLocaleString('en')}-prompt conversation (${OUTPUTS_PER_HISTORY_PROMPT} outputs each)`
  ] = fmt(ms(setupStart));
  figures[`load the ${HISTORY_PROMPTS.toLocaleString('en')}-prompt conversation (history)`] = fmt(
    await median(5, () => store.prompts.listByConversation(big.id)),
  );
  figures['  get the conversation (with 2,000 prompt ids)'] = fmt(
    await median(11, () => store.conversations.get(big.id)),
  );
  const smallLoadAfter = await median(21, () => store.prompts.listByConversation(small.conversation.id));
  figures['  load a 1-prompt conversation: empty db / after everything above'] =
    `${fmt(smallLoadBefore)} / ${fmt(smallLoadAfter)}`;

  // 3. Many conversations at once, each appending (the pool spreads them over connections; PGlite queues them).
  const many = await Promise.all(
    Array.from({ length: CONCURRENT_CONVERSATIONS }, () => conversationWithPrompt(store)),
  );
  const concurrentStart = performance.now();
  await Promise.all(
    many.map(async ({ prompt: p }) => {
      for (let i = 0; i < APPENDS_PER_CONVERSATION; i++)
        await store.prompts.appendOutput(p.id, textOutput(i));
    }),
  );
  const elapsed = ms(concurrentStart);
  const total = CONCURRENT_CONVERSATIONS * APPENDS_PER_CONVERSATION;
  figures[
    `${CONCURRENT_CONVERSATIONS} conversations appending ${APPENDS_PER_CONVERSATION} outputs each at once`
  ] = `${fmt(elapsed)} (${Math.round(total / (elapsed / 1000))} appends/s)`;
  return figures;
}

const results = await onBothDrivers('tessera-bench', run);
const rows = Object.keys(Object.values(results)[0]!);
const drivers = Object.keys(results);
const widths = [
  Math.max(8, ...rows.map((r) => r.length)),
  ...drivers.map((d) => Math.max(d.length, ...rows.map((r) => results[d]![r]?.length ?? 0))),
];
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(['scenario', ...drivers]));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line([row, ...drivers.map((d) => results[d]![row] ?? '')]));
