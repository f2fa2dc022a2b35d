// Event streams under load: a server process (memory store, an instant model whose answers are ~20 KB,
// streamed in deltas) with 2,000 SSE streams open on a few conversations, each conversation's user sending
// prompts back to back; and on a conversation of their own, slow readers (1 KB/s) of answers of 500 KB, which
// the server cuts once they fall behind. GET /health is asked 50 times a second all along, from a process of
// its own, and the streams are read by two others (at a lower CPU priority than the server's: here they share
// its cores), so that what is timed is the server's event loop. Prints /health latency (p50, p99, max) per
// phase, the server's event loop, RSS, heap and CPU, what the readers got, and the streams the server cut.
// Loopback only; bounded by --seconds. Run: `pnpm --filter @tessera/server bench:streams [--streams 2000]
// [--conversations 4] [--slow 40] [--seconds 20] [--output-bytes 20000] [--slow-output-bytes 500000]
// [--deltas 40] [--delta-ms 50] [--queue-bytes N] [--readers-nice 10] [--node-args=…]`.
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism, getPriority, loadavg, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { type BenchServer, mb, quantile, startServer } from './bench-processes.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '2000' },
    conversations: { type: 'string', default: '4' },
    slow: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '20' },
    'output-bytes': { type: 'string', default: '20000' },
    'slow-output-bytes': { type: 'string', default: '500000' },
    deltas: { type: 'string', default: '40' },
    'delta-ms': { type: 'string', default: '50' },
    /** limits.streamQueueBytes (default: the server's). */
    'queue-bytes': { type: 'string' },
    holders: { type: 'string', default: '2' },
    /**
     * How much lower the stream readers' CPU priority is than the server's (nice): they share its cores here,
     * where in production they would not. 0: the same.
     */
    'readers-nice': { type: 'string', default: '10' },

    'node-args': { type: 'string', default: '' },
  },
});
const streams = Number(values.streams);
const conversations = Number(values.conversations);
const slow = Number(values.slow);
const seconds = Number(values.seconds);
const CLIENT = fileURLToPath(new URL('./streams-client.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.timeOrigin + performance.now();

// One user per conversation (the last one's, if any, for the slow readers); each may open its conversation's
// streams (the cap is raised to that).
const users = Array.from({ length: conversations + (slow > 0 ? 1 : 0) }, (_, i) => ({
  token: `bench-streams-token-${String(i).padStart(4, '0')}`,
  id: `bench-${i}`,
}));
const perConversation = Math.max(Math.ceil(streams / conversations), slow) + 1;
const server = await startServer('memory', {
  nodeArgs: values['node-args'].split(' ').filter(Boolean),
  env: {
    BENCH_COUNT_LOGS: '1',
    BENCH_OUTPUT_BYTES: values['output-bytes'],
    BENCH_OUTPUT_DELTAS: values.deltas,
    BENCH_DELTA_MS: values['delta-ms'],
    BENCH_SETTINGS: JSON.stringify({
      auth: { tokens: Object.fromEntries(users.map((user) => [user.token, user.id])) },
      limits: {
        streamsPerUser: perConversation,
        ...(values['queue-bytes'] && { streamQueueBytes: Number(values['queue-bytes']) }),
      },
    }),
  },
});

/** A child process of streams-client.ts, and a way to ask it something over IPC. */
function child(role: 'holder' | 'probe') {
  const process_: ChildProcess = fork(CLIENT, [role], {
    execArgv: ['--disable-warning=ExperimentalWarning'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(message: object, answer: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (reply: { type: string }) => {
        if (reply.type !== answer) return;
        process_.off('message', onMessage);
        resolve(reply as T);
      };
      process_.on('message', onMessage);
      process_.send(message);
    });
  return { process: process_, ask };
}

type Totals = {
  bytes: number;
  open: number;
  cuts: number;
  slowCuts: number;
  resets: number;
  refused: number;
  failed: number;
};
const sum = (all: Totals[]): Totals =>
  all.reduce(
    (a, b) =>
      Object.fromEntries(
        Object.keys(a).map((k) => [k, a[k as keyof Totals] + b[k as keyof Totals]]),
      ) as Totals,
  );

/** Samples the server's RSS every 250 ms, for the peak. */
function watchMemory(bench: BenchServer) {
  let peak = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, (await bench.rss()).rss);
      await sleep(250);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return peak;
    },
  };
}

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** One conversation's user: sends prompts one after another until `deadline`, each awaited on its own stream. */
async function prompter(
  conversationId: string,
  token: string,
  deadline: number,
  input = 'Write me twenty kilobytes.',
): Promise<number[]> {
  const controller = new AbortController();
  const events = await fetch(`${server.url}/api/conversations/${conversationId}/events`, {
    headers: headers(token),
    signal: controller.signal,
  });
  const reader = events
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  await reader.read(); // ready
  const latencies: number[] = [];
  try {
    while (now() < deadline) {
      const started = now();
      const sent = await fetch(`${server.url}/api/conversations/${conversationId}/prompts`, {
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ input }),
      });
      if (sent.status !== 202)
        throw new Error(`sending a prompt answered ${sent.status}: ${await sent.text()}`);
      await sent.arrayBuffer();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the prompter's stream ended");
        if (value.event === 'prompt.completed') break;
      }
      latencies.push(now() - started);
    }
  } finally {
    controller.abort();
  }
  return latencies;
}

const probe = child('probe');
const holders = Array.from({ length: Number(values.holders) }, () => child('holder'));
const readersNice = Math.min(19, getPriority() + Number(values['readers-nice']));
for (const holder of holders) setPriority(holder.process.pid!, readersNice);
const phases: { name: string; from: number; to: number; extra?: string }[] = [];
try {
  const ids: string[] = [];
  for (const user of users) {
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: headers(user.token),
      body: '{}',
    });
    ids.push(((await created.json()) as { id: string }).id);
  }
  probe.process.send({ type: 'start', url: server.url, everyMs: 20 });
  let from = now();
  await sleep(2_000);
  phases.push({ name: 'idle, no streams', from, to: now() });

  // Streams spread over the holders: each conversation's share, the slow ones among them.
  from = now();
  const specs = ids.map((id, i) => ({
    url: `${server.url}/api/conversations/${id}/events`,
    token: users[i]!.token,
    count:
      i < conversations ? Math.floor(streams / conversations) + (i < streams % conversations ? 1 : 0) : slow,
    slow: i === conversations,
  }));
  const share = (spec: (typeof specs)[number], h: number) => ({
    ...spec,
    count: Math.floor(spec.count / holders.length) + (h < spec.count % holders.length ? 1 : 0),
  });
  const opened = sum(
    await Promise.all(
      holders.map((holder, h) =>
        holder.ask<Totals>({ type: 'open', specs: specs.map((s) => share(s, h)) }, 'opened'),
      ),
    ),
  );
  phases.push({ name: `opening ${opened.open} streams`, from, to: now() });
  from = now();
  await sleep(3_000);
  phases.push({ name: `${opened.open} streams open, idle`, from, to: now() });
  await server.gc(); // outside the phases: a full GC of the server holds its event loop
  const idle = await server.rss();
  const idleHeap = (await server.stats()).memory.heapUsed;
  await sleep(500);

  // Prompts on every conversation, back to back, for `seconds`.
  const memory = watchMemory(server);
  const before = await server.stats();
  const bytesBefore = sum(
    await Promise.all(holders.map((holder) => holder.ask<Totals>({ type: 'stats' }, 'stats'))),
  );
  from = now();
  const slowInput = `Write me ${values['slow-output-bytes']} bytes.`;
  const all = await Promise.all(
    ids.map((id, i) =>
      prompter(id, users[i]!.token, from + seconds * 1_000, i === conversations ? slowInput : undefined),
    ),
  );
  const latencies = all.slice(0, conversations).flat();
  const slowPrompts = all[conversations]?.length ?? 0;
  const to = now();
  const after = await server.stats();
  const during = sum(
    await Promise.all(holders.map((holder) => holder.ask<Totals>({ type: 'stats' }, 'stats'))),
  );
  const peak = await memory.stop();
  phases.push({ name: 'prompts running', from, to });
  latencies.sort((a, b) => a - b);

  const busy = performance.eventLoopUtilization(after.eventLoop.utilization, before.eventLoop.utilization);
  const cpu = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1_000 / (to - from);
  const cut =
    (after.logs['event stream cut: its reader fell behind'] ?? 0) -
    (before.logs['event stream cut: its reader fell behind'] ?? 0);
  const { samples } = await probe.ask<{ samples: [number, number][] }>({ type: 'stop' }, 'samples');
  const stopped = sum(
    await Promise.all(holders.map((holder) => holder.ask<Totals>({ type: 'stop' }, 'stopped'))),
  );
  await sleep(1_000);
  await server.gc();
  const closed = await server.rss();
  const closedHeap = (await server.stats()).memory.heapUsed;

  console.log(
    `\nNode ${process.version}, ${availableParallelism()} cores shared by the server, the /health prober and this process (nice ${getPriority()}), and ${values.holders} stream readers (nice ${readersNice}) (load average ${loadavg()[0]!.toFixed(2)} at the end); memory store; ${streams} streams on ${conversations} conversation(s) and ${slow} slow readers (1 KB/s) on another (${perConversation} streams per user allowed), answers of ${values['output-bytes']} bytes (${values['slow-output-bytes']} for the slow readers) in ${values.deltas} deltas ${values['delta-ms']} ms apart, prompts back to back for ${seconds} s${values['queue-bytes'] ? `, streamQueueBytes ${values['queue-bytes']}` : ''}\n`,
  );
  console.log('| phase | /health requests | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|');
  for (const phase of phases) {
    const inPhase = samples
      .filter(([at]) => at >= phase.from && at < phase.to)
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
    console.log(
      `| ${phase.name} | ${inPhase.length} | ${quantile(inPhase, 0.5).toFixed(1)} | ${quantile(inPhase, 0.99).toFixed(1)} | ${(inPhase.at(-1) ?? Number.NaN).toFixed(1)} |`,
    );
  }
  const received = during.bytes - bytesBefore.bytes;
  console.log(`\n| while prompts ran | |\n|---|---:|`);
  console.log(
    `| prompts completed (and on the slow readers' conversation) | ${latencies.length} (${slowPrompts}) (p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p99 ${quantile(latencies, 0.99).toFixed(0)} ms) |`,
  );
  console.log(
    `| event bytes read by the streams | ${mb(received).toFixed(0)} MB (${(mb(received) / ((to - from) / 1_000)).toFixed(1)} MB/s) |`,
  );
  console.log(`| server CPU | ${(cpu * 100).toFixed(0)} % of a core |`);
  console.log(
    `| server event loop: busy; delay p99, max; GC pauses: longest, in all | ${(busy.utilization * 100).toFixed(0)} %; ${after.eventLoop.delayP99.toFixed(0)} ms, ${after.eventLoop.delayMax.toFixed(0)} ms; ${after.eventLoop.gcMax.toFixed(0)} ms, ${after.eventLoop.gcTotal.toFixed(0)} ms |`,
  );
  console.log(
    `| server RSS: idle with the streams open → peak → after they closed (after a GC) | ${idle.rss.toFixed(0)} → ${peak.toFixed(0)} → ${closed.rss.toFixed(0)} MB |`,
  );
  console.log(
    `| server heap used: idle with the streams open → at the end of the prompts → after the streams closed (after a GC) | ${mb(idleHeap).toFixed(0)} → ${mb(after.memory.heapUsed).toFixed(0)} → ${mb(closedHeap).toFixed(0)} MB |`,
  );
  console.log(`| streams the server cut (reader behind) | ${cut} |`);
  console.log(
    `| readers' reconnections: fast, slow; of them reset; refused (429) | ${stopped.cuts}, ${stopped.slowCuts}; ${stopped.resets}; ${stopped.refused} |`,
  );
} finally {
  for (const { process: p } of [probe, ...holders]) if (p.exitCode === null) p.kill();
  await server.stop();
}
