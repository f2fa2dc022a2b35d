import type { Pool, PoolClient } from 'pg';
import type { Row, SqlDriver } from '../driver.ts';

/** A driver over a `pg` connection pool: single statements take any free connection, a transaction holds one. */
export function pgDriver(pool: Pool, options: { owned: boolean }): SqlDriver {
  let closed = false;
  return {
    kind: 'pg',
    query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
      (await pool.query<R>(sql, params as unknown[])).rows,
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
            (await client.query<R>(sql, params as unknown[])).rows,
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = await rollback(client);
        throw error;
      } finally {
        // A connection whose rollback failed is in an unknown state: destroy it rather than reuse it.
        client.release(broken);
      }
    },
    hold: (sql, params, release) => holdConnection(pool, sql, params, release),
    close: async () => {
      if (!options.owned || closed) return;
      closed = true;
      await pool.end();
    },
  };
}

async function rollback(client: PoolClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Creates a pool the store owns (loaded only when used, so PGlite-only apps never load `pg`). */
export async function openPool(connectionString: string, maxConnections: number): Promise<Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: maxConnections, connectionTimeoutMillis: 10_000 });
  // An idle connection the server closed (restart, network) is replaced on next use; without a listener
  // the pool's 'error' event would crash the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `sql` on a connection taken from the pool and kept until `release()`. When the connection breaks (its
 * session, and so its locks, are gone) a new one is taken and `sql` run again, until released or the pool ends.
 */
async function holdConnection(
  pool: Pool,
  sql: string,
  params: readonly unknown[],
  unlock: string,
): Promise<{ release(): Promise<void> }> {
  let held: { client: PoolClient; finish(): void } | undefined;
  let released = false;

  const take = async (): Promise<void> => {
    const client = await pool.connect();
    let dropped = false;
    // Returns the connection to the pool once: destroyed when it broke, whole when released. A broken one
    // keeps its listener, since ending it can report more errors.
    const drop = (broken = true) => {
      if (dropped) return;
      dropped = true;
      if (!broken) client.off('error', broke);
      if (held?.client === client) held = undefined;
      client.release(broken);
    };
    const broke = () => {
      if (dropped) return;
      drop();
      if (!released) void retake();
    };
    client.on('error', broke);
    try {
      await client.query(sql, params as unknown[]);
    } catch (error) {
      drop();
      throw error;
    }
    if (dropped) throw new Error('The connection closed while it was being set up.');
    held = { client, finish: () => drop(false) };
  };
  const retake = async (): Promise<void> => {
    while (!released && !held && !pool.ending && !pool.ended) {
      try {
        await take();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  };

  await take();
  return {
    async release() {
      released = true;
      const current = held;
      if (!current) return;
      await current.client.query(unlock, params as unknown[]).catch(() => {});
      current.finish(); // a no-op when the connection broke meanwhile (it is already destroyed)
    },
  };
}
