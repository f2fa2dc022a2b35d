/**
 * Runs a store benchmark on both drivers, one after the other: PGlite in a temporary directory, then a fresh
 * database of BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped after.
 * Resolves with each driver's figures, by row.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';

export type Figures = Record<string, string>;

const SERVER = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onStore(store: PostgresStore, run: (store: PostgresStore) => Promise<Figures>) {
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

async function server(name: string, run: (store: PostgresStore) => Promise<Figures>): Promise<Figures> {
  const database = `${name.replaceAll('-', '_')}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  try {
    const store = await createPostgresStore({ connectionString: url.toString(), maxConnections: 10 });
    return await onStore(store, run);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

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
