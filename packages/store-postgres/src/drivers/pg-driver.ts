import { createHash } from 'node:crypto';
import type { Notification, Pool, PoolClient, QueryConfig } from 'pg';
import type { Row, SqlDriver } from '../driver.ts';
import { holdSession } from './held-session.ts';

/**
 * How many distinct statements get a name. A named statement is parsed and planned once per connection and
 * then only bound and executed; each connection keeps every name it prepared, so the store's own fixed
 * statements are named and anything past this many (an app's ad-hoc SQL through `driver`) runs unnamed.
 */
const MAX_NAMED = 200;

/** The statement as `pg` takes it: named (prepared once per connection) when it has parameters. */
function statements() {
  const names = new Map<string, string>();
  return (text: string, values: readonly unknown[] | undefined): QueryConfig => {
    // Without parameters a statement goes as a simple query, which may hold several (migrations do).
    if (!values) return { text };
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `tessera_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return { text, values: values as unknown[], ...(name && { name }) };
  };
}

/** A driver over a `pg` connection pool: single statements take any free connection, a transaction holds one. */
export function pgDriver(pool: Pool, options: { owned: boolean }): SqlDriver {
  let closed = false;
  const statement = statements();
  return {
    kind: 'pg',
    query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
      (await pool.query<R>(statement(sql, params))).rows,
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
            (await client.query<R>(statement(sql, params))).rows,
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
    hold: (sql, params, release) =>
      holdSession(pool, {
        setup: (client) => client.query(sql, params as unknown[]),
        teardown: (client) => client.query(release, params as unknown[]),
      }),
    listen: async (onPayload, onConnection) => {
      const channels = new Set<string>();
      // The connection listening now; a broken one is replaced and listens again on every channel.
      let current: PoolClient | undefined;
      const onNotification = (message: Notification) => {
        if (message.payload !== undefined) onPayload(message.channel, message.payload);
      };
      // One statement at a time on the connection, in call order (a LISTEN, then the UNLISTEN after it). A
      // failed one means a broken connection: the next connection listens on the whole set again.
      let queue: Promise<unknown> = Promise.resolve();
      const run = (sql: string, client = current) => {
        queue = queue.catch(() => {}).then(() => client?.query(sql));
        return queue;
      };
      let taken = false;
      const session = await holdSession(pool, {
        setup: async (client) => {
          client.on('notification', onNotification);
          current = client;
          const listen = [...channels].map((c) => `LISTEN "${c}"`).join(';');
          if (listen) await run(listen, client); // a failure here is the session's: it is taken again
          if (taken) onConnection?.(true); // taken again (the first one is the listener's promise)
        },
        broken: () => onConnection?.(false),
        teardown: async (client) => {
          current = undefined;
          client.off('notification', onNotification);
          await run('UNLISTEN *', client);
        },
      });
      taken = true;
      return {
        async listen(channel) {
          if (channels.has(channel)) return;
          channels.add(channel);
          await run(`LISTEN "${channel}"`).catch(() => {});
        },
        async unlisten(channel) {
          if (!channels.delete(channel)) return;
          await run(`UNLISTEN "${channel}"`).catch(() => {});
        },
        release: () => session.release(),
      };
    },
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
