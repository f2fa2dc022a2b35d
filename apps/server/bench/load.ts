// Load benchmark: prompts sent over HTTP and their completion received over SSE, with an instant scripted
// model, at 1, 10 and 100 concurrent conversations. Run: `pnpm --filter @tessera/server bench`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createServer } from '../src/index.ts';

const TOKEN = 'bench-token-0123456789';
const DURATION_MS = Number(process.env.BENCH_MS ?? 5_000);

const dataDir = await mkdtemp(join(tmpdir(), 'tessera-load-'));
// Answers every call at once, forever: what is measured is the server and the platform.
const server = await createServer({
  dataDir,
  databaseUrl: process.env.DATABASE_URL,
  auth: { tokens: { [TOKEN]: 'bench' } },
  // Prompts as fast as one user can send them: what is measured is the server, not its rate limits.
  rateLimits: false,
  // 100 conversations' event streams, and the warm-up's closing as they open.
  limits: { streamsPerUser: 1_000 },
  model: {
    id: 'instant',
    async *stream() {
      yield { type: 'text-delta', delta: 'Done.' };
      yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } };
      yield { type: 'finish', reason: 'stop' };
    },
  },
});
const { url } = await server.listen({ port: 0 });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** One conversation: open its event stream, then send prompts one after another until time is up. */
async function conversationLoop(deadline: number, latencies: number[]): Promise<void> {
  const created = await fetch(`${url}/api/conversations`, { method: 'POST', headers, body: '{}' });
  const { id } = (await created.json()) as { id: string };
  const controller = new AbortController();
  const response = await fetch(`${url}/api/conversations/${id}/events`, {
    headers,
    signal: controller.signal,
  });
  const reader = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  await reader.read(); // ready
  try {
    while (Date.now() < deadline) {
      const started = performance.now();
      const sent = await fetch(`${url}/api/conversations/${id}/prompts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ input: 'hello' }),
      });
      if (sent.status !== 202) throw new Error(`send answered ${sent.status}`);
      await sent.arrayBuffer();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        if (value.event === 'prompt.completed') break;
      }
      latencies.push(performance.now() - started);
    }
  } finally {
    controller.abort();
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const rows: string[] = [];
for (const concurrency of [1, 10, 100]) {
  await Promise.all(
    Array.from({ length: Math.min(concurrency, 10) }, () => conversationLoop(Date.now() + 300, [])),
  ); // warm-up
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, () => conversationLoop(Date.now() + DURATION_MS, latencies)),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  rows.push(
    `| ${concurrency} | ${latencies.length} | ${(latencies.length / seconds).toFixed(0)} | ${quantile(latencies, 0.5).toFixed(2)} | ${quantile(latencies, 0.99).toFixed(2)} |`,
  );
}
console.log(
  `Node ${process.version}, store: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL (PGlite)'}, ${DURATION_MS} ms per level\n`,
);
console.log(
  '| concurrent conversations | prompts | prompts/s | p50 ms | p99 ms |\n|---:|---:|---:|---:|---:|',
);
console.log(rows.join('\n'));
await server.close({ graceMs: 100 });
await rm(dataDir, { recursive: true, force: true });
