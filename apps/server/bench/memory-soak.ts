// Memory soak: one server (its own process) under steady load for --minutes (default 10), its memory read
// after a GC every --sample-seconds. Conversations come and go (each sends --prompts-per-conversation
// prompts, then closes its event stream and a new one starts), as users do. Prints the samples and the
// growth from the end of the first minute and over the last third; exits 1 when, over the last third, the
// heap or the resident memory grew more than the bounds (--max-heap-growth-mb, --max-rss-growth-mb): caches
// that fill up and stop are growth, memory that keeps growing is a leak. Run:
// `pnpm --filter @tessera/server soak:memory [--minutes 10] [--store embedded|postgres|memory]`.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freshSchema, mb, type StoreKind, startServer, TOKEN } from './bench-processes.ts';
import { openConversation } from './load-client.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    store: { type: 'string', default: 'embedded' },
    conversations: { type: 'string', default: '20' },
    'prompts-per-conversation': { type: 'string', default: '25' },
    'pause-ms': { type: 'string', default: '20' },
    'sample-seconds': { type: 'string', default: '30' },
    'max-heap-growth-mb': { type: 'string', default: '10' },
    'max-rss-growth-mb': { type: 'string', default: '40' },
    'node-args': { type: 'string', default: '' },
    /** Where to write a heap snapshot of the server at the end (open it in Chrome's DevTools). */
    'heap-snapshot': { type: 'string' },
  },
});
const store = values.store as StoreKind;
const durationMs = Number(values.minutes) * 60_000;
const sampleMs = Math.min(Number(values['sample-seconds']) * 1000, durationMs / 4);

const schema = store === 'postgres' ? await freshSchema('bench_soak') : undefined;
const server = await startServer(store, {
  schema: schema?.schema,
  nodeArgs: values['node-args'].split(' ').filter(Boolean),
});
type Sample = {
  minute: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  prompts: number;
};
const samples: Sample[] = [];
let prompts = 0;
let failures = 0;
const started = performance.now();
const deadline = started + durationMs;

async function user(): Promise<void> {
  while (performance.now() < deadline) {
    const conversation = await openConversation(server.url, TOKEN);
    try {
      for (let k = 0; k < Number(values['prompts-per-conversation']) && performance.now() < deadline; k++) {
        try {
          await conversation.prompt();
          prompts++;
        } catch (error) {
          if (++failures <= 5) console.error(`  a prompt failed: ${(error as Error).message}`);
        }
        await sleep(Number(values['pause-ms']));
      }
    } finally {
      conversation.close();
    }
  }
}

async function sample(): Promise<void> {
  await server.gc();
  const { rss } = await server.rss();
  const { memory } = await server.stats();
  const row: Sample = {
    minute: (performance.now() - started) / 60_000,
    rss,
    heapUsed: mb(memory.heapUsed),
    heapTotal: mb(memory.heapTotal),
    external: mb(memory.external),
    prompts,
  };
  samples.push(row);
  console.log(
    `| ${row.minute.toFixed(1)} | ${row.prompts} | ${row.rss.toFixed(0)} | ${row.heapUsed.toFixed(1)} | ${row.heapTotal.toFixed(0)} | ${row.external.toFixed(0)} |`,
  );
}

console.log(
  `memory soak: ${values.minutes} min, ${store} store, ${values.conversations} users, a sample every ${sampleMs / 1000} s (MB, after a GC)\n`,
);
console.log(
  '| minute | prompts | RSS | heap used | heap total | external |\n|---:|---:|---:|---:|---:|---:|',
);
let exitCode = 0;
try {
  await sample();
  const users = Promise.all(Array.from({ length: Number(values.conversations) }, user));
  while (performance.now() + sampleMs < deadline) {
    await sleep(sampleMs);
    await sample();
  }
  await users;
  const underLoad = samples.length;
  await sleep(1_000); // closed streams and finished prompts let go
  await sample();
  if (values['heap-snapshot']) await server.heapSnapshot(values['heap-snapshot']);

  // Growth from the end of the first minute (the JIT and the pools warm) shows what the caches took; growth
  // over the last third shows whether it goes on (a leak) or has levelled off (bounded caches, full).
  // Compared under load: the sample after the users stop has their streams and prompts let go.
  const last = samples[underLoad - 1]!;
  const growth = (from: Sample) => ({
    heap: last.heapUsed - from.heapUsed,
    rss: last.rss - from.rss,
    minutes: last.minute - from.minute,
  });
  const describe = (from: Sample) => {
    const g = growth(from);
    const sign = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
    return `from minute ${from.minute.toFixed(1)}: heap used ${sign(g.heap)} MB, RSS ${sign(g.rss)} MB (${sign(g.rss / Math.max(g.minutes, 1e-9))} MB/min)`;
  };
  const warm = samples.find((s) => s.minute >= 1) ?? samples[1] ?? samples[0]!;
  const lastThird = samples.find((s) => s.minute >= (last.minute * 2) / 3) ?? warm;
  const tail = growth(lastThird);
  const within =
    tail.heap <= Number(values['max-heap-growth-mb']) && tail.rss <= Number(values['max-rss-growth-mb']);
  console.log(`\n  ${prompts} prompts (${(prompts / (durationMs / 1000)).toFixed(0)}/s), ${failures} failed`);
  console.log(`  ${describe(warm)}`);
  console.log(`  ${describe(lastThird)}`);
  console.log(
    `  ${within ? 'levelled off: no growth beyond the bounds over the last third' : 'STILL GROWING over the last third'} ` +
      `(heap ≤ ${values['max-heap-growth-mb']} MB, RSS ≤ ${values['max-rss-growth-mb']} MB)`,
  );
  if (!within || failures > 0) exitCode = 1;
} finally {
  await server.stop();
  await schema?.drop();
}
process.exit(exitCode);
