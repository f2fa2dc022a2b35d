// Throughput benchmark: prompt completions over HTTP + SSE with an instant model, 100 concurrent
// conversations, against each store, the server in a process of its own. Prints prompts/s, p50 and p99, the
// median of --runs runs. Run: `pnpm --filter @tessera/server bench:throughput [--stores memory,postgres,embedded]
// [--conversations 100] [--seconds 10] [--runs 3] [--count-queries] [--cpu-prof dir]`.
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), a fresh schema per run.
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { cpuOf, freshSchema, median, type StoreKind, startServer, TOKEN } from './bench-processes.ts';
import { type LoadResult, resends, runLoad } from './load-client.ts';

const { values } = parseArgs({
  options: {
    /** Node flags for the server process, e.g. '--liftoff-only' (space-separated). */
    'node-args': { type: 'string', default: '' },
    stores: { type: 'string', default: 'memory,postgres,embedded' },
    conversations: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    'count-queries': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const stores = values.stores.split(',') as StoreKind[];
const conversations = Number(values.conversations);
const runs = Number(values.runs);

console.log(
  `Node ${process.version}, ${availableParallelism()} cores (load average ${loadavg()[0]!.toFixed(2)} at start), ` +
    `${conversations} conversations, ${values.seconds} s per run, median of ${runs} run(s)` +
    `${values['node-args'] ? `, server flags ${values['node-args']}` : ''}` +
    `${process.env.BENCH_PGLITE_SHARED_BUFFERS ? `, PGlite shared_buffers ${process.env.BENCH_PGLITE_SHARED_BUFFERS}` : ''}\n`,
);
console.log(
  '| store | prompts/s | p50 ms | p99 ms | runs (prompts/s) | queries/prompt | server CPU ms/prompt | PostgreSQL CPU ms/prompt | load generator CPU ms/prompt |',
);
console.log('|---|---:|---:|---:|---|---:|---:|---:|---:|');
for (const store of stores) {
  const results: (LoadResult & { serverCpu: number; postgresCpu: number; clientCpu: number })[] = [];
  let queriesPerPrompt: string | undefined;
  let byStatement: [string, number][] = [];
  for (let run = 0; run < runs; run++) {
    const schema = store === 'postgres' ? await freshSchema('bench') : undefined;
    const server = await startServer(store, {
      schema: schema?.schema,
      countQueries: values['count-queries'],
      nodeArgs: [
        ...values['node-args'].split(' ').filter(Boolean),
        ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      ],
    });
    try {
      let before: Awaited<ReturnType<typeof server.stats>> | undefined;
      let postgresBefore = 0;
      let clientBefore = process.cpuUsage();
      const result = await runLoad({
        onMeasureStart: async () => {
          before = await server.stats();
          postgresBefore = await cpuOf('postgres');
          clientBefore = process.cpuUsage();
        },
        urls: [server.url],
        token: TOKEN,
        conversations,
        durationMs: Number(values.seconds) * 1000,
      });
      const clientCpu = process.cpuUsage(clientBefore);
      const stats = await server.stats();
      const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
      results.push({
        ...result,
        serverCpu: (cpuMs(stats.cpu) - cpuMs(before!.cpu)) / result.prompts,
        postgresCpu: ((await cpuOf('postgres')) - postgresBefore) / result.prompts,
        clientCpu: cpuMs(clientCpu) / result.prompts,
      });
      const after = stats.queries;
      if (before?.queries && after) {
        const counted = before.queries;
        const prompts = result.prompts;
        queriesPerPrompt = ((after.total - counted.total) / prompts).toFixed(1);
        byStatement = Object.entries(after.byStatement)
          .map(([key, n]) => [key, (n - (counted.byStatement[key] ?? 0)) / prompts] as [string, number])
          .filter(([, n]) => n > 0.01)
          .sort((a, b) => b[1] - a[1]);
      }
    } finally {
      await server.stop();
      await schema?.drop();
    }
  }
  const perSecond = median(results.map((r) => r.perSecond));
  console.log(
    `| ${store} | ${perSecond.toFixed(0)} | ${median(results.map((r) => r.p50)).toFixed(1)} | ${median(results.map((r) => r.p99)).toFixed(1)} | ${results.map((r) => r.perSecond.toFixed(0)).join(', ')} | ${queriesPerPrompt ?? '-'} | ${median(results.map((r) => r.serverCpu)).toFixed(2)} | ${store === 'postgres' ? median(results.map((r) => r.postgresCpu)).toFixed(2) : '-'} | ${median(results.map((r) => r.clientCpu)).toFixed(2)} |`,
  );
  if (byStatement.length > 0) {
    console.log(`\n  ${store}: statements per prompt:`);
    for (const [key, n] of byStatement) console.log(`    ${n.toFixed(2).padStart(6)}  ${key}`);
    console.log('');
  }
}
if (resends() > 0) console.log(`\n${resends()} prompt send(s) were cut off and sent again (same id).`);
