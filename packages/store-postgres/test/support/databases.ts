import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** The machine's PostgreSQL server. These tests fail (never skip) when it is down: `.ci/run` starts it. */
export const SERVER_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const unique = () => `${Date.now().toString(36)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/** A schema name no other test uses, so each test starts from an empty store. */
export const uniqueSchema = (): string => `t_${unique()}`;

/** Creates a fresh database on the server for this test run; `drop()` removes it and everything in it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tessera_test_${unique()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `The PostgreSQL server at ${SERVER_URL} is not reachable, so the server tests cannot run (they never skip). Start it, e.g. \`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\`.`,
      { cause: error },
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: SERVER_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A PGlite database in a fresh temporary directory; `dispose()` closes it and deletes the directory. */
export async function createTempPglite(): Promise<{ db: PGlite; dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-pglite-'));
  const db = await PGlite.create(dir);
  return {
    db,
    dir,
    dispose: async () => {
      if (!db.closed) await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh server database for the enclosing suite, created before its tests and dropped after them. When the
 * server is unreachable every test that touches `url` or `pool` fails with the reason: a failing hook alone
 * would only mark the tests skipped.
 */
export function useServerDatabase(): { readonly url: string; readonly pool: pg.Pool } {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let failure: unknown;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    try {
      database = await createTestDatabase();
    } catch (error) {
      failure = error;
    }
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
  const url = () => {
    if (!database) throw failure ?? new Error('The test database is not created yet.');
    return database.url;
  };
  return {
    get url() {
      return url();
    },
    get pool() {
      if (!pool) {
        pool = new pg.Pool({ connectionString: url(), max: 10 });
        // pool.end() resolves before its connections have closed; dropping the database then terminates
        // them, which the pool reports as an 'error' event (an uncaught exception without a listener).
        pool.on('error', () => {});
      }
      return pool;
    },
  };
}

/** Runs `setup` once, on first use inside a test, so a failure fails each test instead of skipping them. */
export function lazy<T>(setup: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= setup();
    return value;
  };
}
