// bench:scale's relay part: the relay's CPU per process from 1 to N processes (relay-process.ts, each a
// server's relay alone), each publishing the same load for its own conversations and following them, over
// PostgreSQL's LISTEN/NOTIFY and over NATS, routed; and, to compare, PostgreSQL with every process following
// every conversation, which is what the relay did before it routed (every event to every process).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuSince, DATABASE_URL, freshSchema, median } from './bench-processes.ts';

const PROCESS = fileURLToPath(new URL('./relay-process.ts', import.meta.url));
export const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

export type RelayMode = { name: string; kind: 'postgres' | 'nats'; follow: 'own' | 'all' };
export const RELAY_MODES: RelayMode[] = [
  { name: 'PostgreSQL, routed', kind: 'postgres', follow: 'own' },
  { name: 'NATS, routed', kind: 'nats', follow: 'own' },
  {
    name: 'PostgreSQL, every process follows everything (as before routing)',
    kind: 'postgres',
    follow: 'all',
  },
];

type Figures = { cpuMs: number; received: number; published: number };

/** One run: `processes` relay processes on a fresh schema (and subject prefix), measured over `seconds`. */
async function run(mode: RelayMode, processes: number, options: { seconds: number; prompts: number }) {
  const schema = await freshSchema('bench_relay');
  const children: ChildProcess[] = [];
  try {
    // One at a time: the first migrates the schema, the others find it migrated.
    for (let index = 0; index < processes; index++) {
      const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', PROCESS], {
        env: {
          ...process.env,
          RELAY_KIND: mode.kind,
          RELAY_FOLLOW: mode.follow,
          RELAY_INDEX: String(index),
          RELAY_PROCESSES: String(processes),
          RELAY_PROMPTS: String(options.prompts),
          RELAY_SECONDS: String(options.seconds),
          RELAY_SCHEMA: schema.schema,
          RELAY_DATABASE_URL: DATABASE_URL,
          RELAY_NATS_URL: NATS_URL,
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      await nextLine(child);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // every process publishing and following
    const server = mode.kind === 'postgres' ? 'postgres' : 'nats-server';
    const serverCpu = await cpuSince(server);
    const results = children.map((child) => nextLine(child));
    for (const child of children) child.stdin!.write('measure\n');
    const figures = (await Promise.all(results)).map((line) => JSON.parse(line) as Figures);
    const serverMs = await serverCpu();
    return { figures, serverMsPerSecond: serverMs / options.seconds };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await schema.drop();
  }
}

function nextLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a relay process exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
}

export const RELAY_TABLE =
  '| relay | processes | relay CPU ms/s per process | µs per event (sent + received) | events received/s per process | runs (ms/s) | server CPU ms/s (PostgreSQL or NATS) |\n|---|---:|---:|---:|---:|---|---:|';

/** The table's rows for `mode`, 1 to `maxProcesses` processes, medians of `runs` runs. */
export async function relayRows(
  mode: RelayMode,
  options: { maxProcesses: number; runs: number; seconds: number; prompts: number },
  onRow: (row: string) => void,
): Promise<void> {
  for (let processes = 1; processes <= options.maxProcesses; processes++) {
    const runs: { perProcess: number; perEvent: number; received: number; server: number }[] = [];
    for (let r = 0; r < options.runs; r++) {
      const { figures, serverMsPerSecond } = await run(mode, processes, options);
      const seconds = options.seconds;
      runs.push({
        perProcess: median(figures.map((f) => f.cpuMs / seconds)),
        perEvent: median(figures.map((f) => (f.cpuMs * 1000) / Math.max(1, f.published + f.received))),
        received: median(figures.map((f) => f.received / seconds)),
        server: serverMsPerSecond,
      });
    }
    const m = (pick: (r: (typeof runs)[number]) => number) => median(runs.map(pick));
    onRow(
      `| ${mode.name} | ${processes} | ${m((r) => r.perProcess).toFixed(1)} | ${m((r) => r.perEvent).toFixed(1)} | ${m((r) => r.received).toFixed(0)} | ${runs.map((r) => r.perProcess.toFixed(1)).join(', ')} | ${m((r) => r.server).toFixed(0)} |`,
    );
  }
}
