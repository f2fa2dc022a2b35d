// What the server benchmarks share: starting bench-server.ts processes, asking them for their figures,
// a fresh PostgreSQL schema per run, and reading a process's resident memory from /proc.
import { type ChildProcess, fork } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { missingHeapFlags, missingMallocSettings } from '../src/heap-settings.ts';

export const TOKEN = 'bench-token-0123456789';
export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));

export type StoreKind = 'memory' | 'embedded' | 'postgres';
export type Stats = {
  memory: NodeJS.MemoryUsage;
  /** The server process's CPU time so far, µs. */
  cpu: NodeJS.CpuUsage;
  queries?: { total: number; transactions: number; byStatement: Record<string, number> };
  /** With BENCH_COUNT_LOGS=1: the server's log lines so far, by message. */
  logs: Record<string, number>;
  /** Since the process started, and (the delay) since the previous `stats`. */
  eventLoop: {
    utilization: import('node:perf_hooks').EventLoopUtilization;
    delayP99: number;
    delayMax: number;
    /** GC pauses (ms) since the previous `stats`: the longest, and in all. */
    gcMax: number;
    gcTotal: number;
  };
};

export type BenchServer = {
  url: string;
  pid: number;
  stats(): Promise<Stats>;
  gc(): Promise<void>;
  /** Writes a heap snapshot of the server (after a GC) to `path`. */
  heapSnapshot(path: string): Promise<void>;
  /** Resident memory (VmRSS) and its anonymous part (RssAnon), in MB, from /proc. */
  rss(): Promise<{ rss: number; anon: number }>;
  stop(): Promise<void>;
};

/** Starts one server process over `store` (a PostgreSQL schema for `postgres`); resolves once it listens. */
export async function startServer(
  store: StoreKind,
  options: {
    schema?: string;
    countQueries?: boolean;
    nodeArgs?: string[];
    env?: Record<string, string>;
  } = {},
): Promise<BenchServer> {
  const nodeArgs = options.nodeArgs ?? [];
  // The heap settings the server's own command runs with (src/heap-settings.ts), unless set here.
  const own = process.env.TESSERA_NODE_HEAP !== 'default';
  const heap = own ? missingHeapFlags(nodeArgs, undefined) : [];
  const child: ChildProcess = fork(SERVER, [], {
    execArgv: ['--disable-warning=ExperimentalWarning', '--expose-gc', ...heap, ...nodeArgs],
    env: {
      ...(own ? missingMallocSettings(process.env) : {}),
      ...process.env,
      BENCH_STORE: store,
      BENCH_DATABASE_URL: DATABASE_URL,
      BENCH_SCHEMA: options.schema ?? '',
      BENCH_TOKEN: TOKEN,
      BENCH_COUNT_QUERIES: options.countQueries ? '1' : '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the bench server exited (${code ?? signal})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  });
  const ask = <T>(type: string, extra: object = {}) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
      child.send({ type, ...extra });
    });
  return {
    ...ready,
    stats: () => ask<Stats>('stats'),
    gc: async () => {
      await ask('gc');
    },
    rss: () => residentMemory(ready.pid),
    heapSnapshot: async (path) => {
      await ask('heap-snapshot', { path });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function residentMemory(pid: number): Promise<{ rss: number; anon: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024 };
}

/** A schema of its own on the bench database, dropped by the returned function. */
export async function freshSchema(prefix: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
export const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
export const mb = (bytes: number) => bytes / 1024 / 1024;

/** CPU time (ms) used so far by every process named `name` on this machine (PostgreSQL's backends: `postgres`). */
export async function cpuOf(name: string): Promise<number> {
  let total = 0;
  for (const ms of (await cpuByProcess(name)).values()) total += ms;
  return total;
}

/**
 * Measures the CPU time (ms) processes named `name` use from now until the returned function is called:
 * backends that end meanwhile take their time with them, so only the processes alive at the end count (their
 * time since now, or since they started).
 */
export async function cpuSince(name: string): Promise<() => Promise<number>> {
  const before = await cpuByProcess(name);
  return async () => {
    let used = 0;
    for (const [pid, ms] of await cpuByProcess(name)) used += ms - (before.get(pid) ?? 0);
    return used;
  };
}

async function cpuByProcess(name: string): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== name) continue;
    const fields = stat.slice(close + 2).split(' ');
    used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime, stime; USER_HZ is 100 on Linux
  }
  return used;
}
