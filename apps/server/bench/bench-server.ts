// One server of the throughput, memory and scaling benchmarks, in its own process so that what is measured
// (CPU, resident memory) is the server's alone: createServer with the built-in plugins and an instant model
// over the store BENCH_STORE names (memory | embedded | postgres). Prints `{ url, pid }` as one JSON line,
// then answers the parent's IPC messages: `heap-snapshot`, `stats` (memory breakdown and, with BENCH_COUNT_QUERIES=1, the SQL
// statements run so far), `gc`, `stop`. BENCH_PGLITE_SHARED_BUFFERS sets the embedded store's buffer cache.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createMemoryStore, type ModelProvider, type Store } from '@tessera/core';
import { createPostgresStore, type PostgresStore } from '@tessera/store-postgres';
import { createServer } from '../src/index.ts';
import { countQueries, type QueryCounts } from './query-counter.ts';

const {
  BENCH_STORE = 'memory',
  BENCH_DATABASE_URL,
  BENCH_SCHEMA,
  BENCH_TOKEN = 'bench-token-0123456789',
} = process.env;

/** Answers every call at once: what is measured is the server, the platform and the store. */
const instantModel: ModelProvider = {
  id: 'instant',
  label: 'instant',
  async *stream() {
    yield { type: 'text-delta', delta: 'Done.' };
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } };
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

const server = await createServer({
  dataDir,
  store,
  auth: { tokens: { [BENCH_TOKEN]: 'bench' } },
  // Prompts as fast as one user can send them: what is measured is the server, not its rate limits.
  rateLimits: false,
  model: instantModel,
  webDir: null,
});
const { url } = await server.listen({ port: 0 });
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
    process.send?.({ type: 'stats', memory, cpu: process.cpuUsage(), queries: counts?.snapshot() });
  } else if (message.type === 'stop') {
    void stop();
  }
});
