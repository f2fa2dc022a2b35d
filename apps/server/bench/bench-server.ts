// One server of the throughput, memory and scaling benchmarks, in its own process so that what is measured
// (CPU, resident memory) is the server's alone: createServer with the built-in plugins and an instant model
// over the store BENCH_STORE names (memory | embedded | postgres), with BENCH_SETTINGS and BENCH_OUTPUT_*
// (below) if given. Prints `{ url, pid }` as one JSON line,
// then answers the parent's IPC messages: `heap-snapshot`, `stats` (memory breakdown and, with BENCH_COUNT_QUERIES=1, the SQL
// statements run so far), `gc`, `stop`. BENCH_PGLITE_SHARED_BUFFERS sets the embedded store's buffer cache.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { createMemoryStore, type ModelProvider, type Store } from '@tessera/core';
import { createPostgresStore, type PostgresStore } from '@tessera/store-postgres';
import pino from 'pino';
import { type CreateServerOptions, createServer } from '../src/index.ts';
import { countQueries, type QueryCounts } from './query-counter.ts';

const {
  BENCH_STORE = 'memory',
  BENCH_DATABASE_URL,
  BENCH_SCHEMA,
  BENCH_TOKEN = 'bench-token-0123456789',
} = process.env;

// BENCH_OUTPUT_BYTES: the answer's size (default: 'Done.'), or a prompt's own `<n> bytes`; in
// BENCH_OUTPUT_DELTAS text deltas (default 1) BENCH_DELTA_MS apart (default 0).
const outputBytes = Number(process.env.BENCH_OUTPUT_BYTES ?? 0);
const deltas = Math.max(1, Number(process.env.BENCH_OUTPUT_DELTAS ?? 1));
const deltaMs = Number(process.env.BENCH_DELTA_MS ?? 0);
const answerOf = (bytes: number) =>
  bytes > 0 ? 'lorem ipsum '.repeat(Math.ceil(bytes / 12)).slice(0, bytes) : 'Done.';
const defaultAnswer = answerOf(outputBytes);

/** Answers every call at once (or as set above): what is measured is the server, the platform and the store. */
const instantModel: ModelProvider = {
  id: 'instant',
  label: 'instant',
  async *stream(request) {
    const last = request.messages.at(-1);
    const asked = last?.type === 'message' ? /\b(\d+) bytes\b/.exec(last.content)?.[1] : undefined;
    const answer = asked ? answerOf(Number(asked)) : defaultAnswer;
    for (let i = 0; i < deltas; i++) {
      if (i > 0 && deltaMs > 0) await new Promise((resolve) => setTimeout(resolve, deltaMs));
      const delta = answer.slice(
        Math.floor((i * answer.length) / deltas),
        Math.floor(((i + 1) * answer.length) / deltas),
      );
      if (delta) yield { type: 'text-delta', delta };
    }
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: Math.ceil(answer.length / 4) } };
    yield { type: 'finish', reason: 'stop' };
  },
};

// BENCH_DATA_DIR: a data directory to reuse (kept at the end), e.g. to start over an existing database.
const dataDir = process.env.BENCH_DATA_DIR || (await mkdtemp(join(tmpdir(), 'tessera-bench-')));
async function openStore(): Promise<Store> {
  if (BENCH_STORE === 'memory') return createMemoryStore();
  if (BENCH_STORE === 'embedded') {
    return createPostgresStore({
      dataDir: join(dataDir, 'db'),
      ...(process.env.BENCH_PGLITE_SHARED_BUFFERS && {
        pgliteSharedBuffers: process.env.BENCH_PGLITE_SHARED_BUFFERS,
      }),
    });
  }
  if (BENCH_STORE === 'postgres') {
    return createPostgresStore({
      connectionString: BENCH_DATABASE_URL,
      schema: BENCH_SCHEMA,
      ...(process.env.BENCH_POOL && { maxConnections: Number(process.env.BENCH_POOL) }),
    });
  }
  throw new Error(`BENCH_STORE must be memory, embedded or postgres, not ${BENCH_STORE}`);
}
const store = await openStore();
const counts: QueryCounts | undefined =
  process.env.BENCH_COUNT_QUERIES === '1' && 'driver' in store
    ? countQueries((store as PostgresStore).driver)
    : undefined;

// BENCH_COUNT_LOGS=1: the server logs (info), and `stats` counts its lines by message.
const logCounts: Record<string, number> = {};
const logger =
  process.env.BENCH_COUNT_LOGS === '1'
    ? pino(
        { level: 'info' },
        {
          write(line: string) {
            const message = /"msg":"([^"]*)"/.exec(line)?.[1] ?? '?';
            logCounts[message] = (logCounts[message] ?? 0) + 1;
          },
        },
      )
    : undefined;

const server = await createServer({
  ...(logger && { logger }),
  dataDir,
  store,
  auth: { tokens: { [BENCH_TOKEN]: 'bench' } },
  // Prompts as fast as one user can send them: what is measured is the server, not its rate limits.
  rateLimits: false,
  // As many event streams as a benchmark opens (bench:memory: 1,000 for its one user).
  limits: { streamsPerUser: 100_000 },
  model: instantModel,
  webDir: null,
  // BENCH_SETTINGS: JSON settings over these (e.g. `limits`, or `auth.tokens` for more users).
  ...(JSON.parse(process.env.BENCH_SETTINGS || '{}') as CreateServerOptions),
});
const { url } = await server.listen({ port: 0 });
// The event loop's delay (ms) since the last `stats`: p99 and max.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
// And its GC pauses (ms) since the last `stats`: the longest, and in all.
let gc = { gcMax: 0, gcTotal: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc = { gcMax: Math.max(gc.gcMax, entry.duration), gcTotal: gc.gcTotal + entry.duration };
  }
}).observe({ entryTypes: ['gc'] });
const loopDelay = () => {
  const figures = { delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6, ...gc };
  delay.reset();
  gc = { gcMax: 0, gcTotal: 0 };
  return figures;
};
process.stdout.write(`${JSON.stringify({ url, pid: process.pid })}\n`);

const stop = async () => {
  await server.close({ graceMs: 100 });
  if (!process.env.BENCH_DATA_DIR) await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('message', (message: { type: string; path?: string }) => {
  if (message.type === 'heap-snapshot') {
    globalThis.gc?.();
    process.send?.({ type: 'heap-snapshot', path: writeHeapSnapshot(message.path) });
    return;
  }
  if (message.type === 'gc') {
    globalThis.gc?.();
    process.send?.({ type: 'gc' });
  } else if (message.type === 'stats') {
    const memory = process.memoryUsage();
    process.send?.({
      type: 'stats',
      memory,
      cpu: process.cpuUsage(),
      queries: counts?.snapshot(),
      logs: logCounts,
      eventLoop: { utilization: performance.eventLoopUtilization(), ...loopDelay() },
    });
  } else if (message.type === 'stop') {
    void stop();
  }
});
