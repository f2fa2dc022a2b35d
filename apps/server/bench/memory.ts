// Memory benchmark: the server's resident memory at start, after 1,000 prompts, with 1,000 open event
// streams and after they close, for each store, the server in its own process (measured after a GC).
// Prints RSS (and its anonymous part) with process.memoryUsage()'s breakdown. Run:
// `pnpm --filter @tessera/server bench:memory [--stores embedded,postgres,memory] [--prompts 1000] [--streams 1000]`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchServer, freshSchema, mb, type StoreKind, startServer, TOKEN } from './bench-processes.ts';
import { type Conversation, openConversation, runLoad } from './load-client.ts';

const { values } = parseArgs({
  options: {
    /** Node flags for the server process, e.g. '--liftoff-only' (space-separated). */
    'node-args': { type: 'string', default: '' },
    stores: { type: 'string', default: 'embedded,postgres,memory' },
    prompts: { type: 'string', default: '1000' },
    streams: { type: 'string', default: '1000' },
  },
});

async function sample(server: BenchServer, moment: string): Promise<string> {
  // V8 compiles PGlite's WebAssembly in the background for a few seconds after start: let it finish.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await server.gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await server.gc();
  const { rss, anon } = await server.rss();
  const { memory } = await server.stats();
  return `| ${moment} | ${rss.toFixed(0)} | ${anon.toFixed(0)} | ${mb(memory.heapUsed).toFixed(0)} | ${mb(memory.heapTotal).toFixed(0)} | ${mb(memory.external).toFixed(0)} | ${mb(memory.arrayBuffers).toFixed(0)} |`;
}

for (const store of values.stores.split(',') as StoreKind[]) {
  const schema = store === 'postgres' ? await freshSchema('bench_memory') : undefined;
  const nodeArgs = values['node-args'].split(' ').filter(Boolean);
  const rows: string[] = [];
  // The embedded database is created at the first start (initdb, which leaves more behind) and opened at
  // every later one: both are measured, the rest after the restart, as a server usually runs.
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-memory-'));
  const env = { BENCH_DATA_DIR: dataDir };
  if (store === 'embedded') {
    const first = await startServer(store, { nodeArgs, env });
    rows.push(await sample(first, 'idle after the first start (database created)'));
    await first.stop();
  }
  const server = await startServer(store, { schema: schema?.schema, nodeArgs, env });
  try {
    rows.push(await sample(server, store === 'embedded' ? 'idle after a restart' : 'idle after start'));
    await runLoad({
      urls: [server.url],
      token: TOKEN,
      conversations: 10,
      totalPrompts: Number(values.prompts),
      warmupMs: 0,
    });
    rows.push(await sample(server, `after ${values.prompts} prompts`));
    const streams: Conversation[] = [];
    // Opened a hundred at a time (each creates its conversation first).
    for (let opened = 0; opened < Number(values.streams); opened += 100) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, Number(values.streams) - opened) }, () =>
            openConversation(server.url, TOKEN),
          ),
        )),
      );
    }
    rows.push(await sample(server, `${streams.length} event streams open`));
    for (const stream of streams) stream.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    rows.push(await sample(server, 'streams closed'));
  } finally {
    await server.stop();
    await schema?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  const flags = [
    values['node-args'],
    process.env.BENCH_PGLITE_SHARED_BUFFERS && `shared_buffers ${process.env.BENCH_PGLITE_SHARED_BUFFERS}`,
  ];
  console.log(`\n${store} store (MB)${flags.some(Boolean) ? `, ${flags.filter(Boolean).join(', ')}` : ''}\n`);
  console.log('| moment | RSS | RSS anonymous | heap used | heap total | external | array buffers |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(rows.join('\n'));
}
