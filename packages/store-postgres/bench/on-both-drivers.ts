/**
 * Runs a store benchmark on both drivers, one after the other: PGlite in a temporary directory, then a fresh
 * database of BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped after.
 * Resolves with each driver's figures, by row.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../src/index.ts';

export type Figures = Record<string, string>;

const SERVER = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onStore<T>(store: PostgresStore, run: (store: PostgresStore) => Promise<T>): Promise<T> {
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

async function pglite(name: string, run: (store: PostgresStore) => Promise<Figures>): Promise<Figures> {
  const dataDir = await mkdtemp(join(tmpdir(), `${name}-`));
  try {
    return await onStore(await createPostgresStore({ dataDir }), run);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What a run on the server gets beside its store: the connection that made its database, and the database. */
export type ServerDatabase = { admin: pg.Client; database: string; url: string };

/**
 * `run` on a store over a fresh database of BENCH_POSTGRES_URL named after `name`, dropped after; `options`
 * for the store beside its database.
 */
export async function onServerDatabase<T>(
  name: string,
  run: (store: PostgresStore, server: ServerDatabase) => Promise<T>,
  options: Omit<PostgresStoreOptions, 'connectionString'> = {},
): Promise<T> {
  const database = `${name.replaceAll('-', '_')}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  try {
    const store = await createPostgresStore({
      maxConnections: 10,
      ...options,
      connectionString: url.toString(),
    });
    return await onStore(store, (opened) => run(opened, { admin, database, url: url.toString() }));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

const server = (name: string, run: (store: PostgresStore) => Promise<Figures>) =>
  onServerDatabase(name, (store) => run(store));

/** `name` names the temporary directory and database (letters, digits and dashes). */
export async function onBothDrivers(
  name: string,
  run: (store: PostgresStore) => Promise<Figures>,
): Promise<Record<string, Figures>> {
  const results: Record<string, Figures> = {};
  for (const [driver, bench] of [
    ['PGlite (data dir)', pglite],
    ['PostgreSQL server (pg pool)', server],
  ] as const) {
    process.stderr.write(`running ${driver}…\n`);
    results[driver] = await bench(name, run);
  }
  return results;
}

/** CPU time (ms) the processes `pids` have used so far, in all. */
export async function pidsCpu(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const schedstat = await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => '0');
    total += Number(schedstat.split(' ')[0]) / 1e6;
  }
  return total;
}

/** CPU time (ms) each backend of `database` has used so far, by pid. */
export async function backendCpu(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
    database,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const schedstat = await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => undefined);
    if (schedstat) cpu.set(pid, Number(schedstat.split(' ')[0]) / 1e6);
  }
  return cpu;
}

/** The backends' CPU (ms) from `before` to now; a backend that started meanwhile counts whole. */
export async function cpuSince(admin: pg.Client, database: string, before: Map<number, number>) {
  let total = 0;
  for (const [pid, ms] of await backendCpu(admin, database)) total += ms - (before.get(pid) ?? 0);
  return total;
}
