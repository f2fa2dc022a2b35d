import type { Pool } from 'pg';
import type { SqlDriver } from './driver.ts';
import { openPool, pgDriver } from './drivers/pg-driver.ts';
import { openPglite, type PgliteDatabase, pgliteDriver } from './drivers/pglite-driver.ts';
import { migrate } from './migrations/migrate.ts';
import { PostgresStore } from './postgres-store.ts';
import { DEFAULT_SCHEMA, quoteSchema } from './sql/schema-name.ts';

export type PostgresStoreOptions = {
  /** A PostgreSQL server, e.g. `postgres://app@db:5432/tessera`. */
  connectionString?: string;
  /** A `pg` pool the app manages (the store does not end it). */
  pool?: Pool;
  /** Connections in the pool the store opens for `connectionString` (default 10). */
  maxConnections?: number;
  /** PGlite's data directory; without it (and without a server) the database lives in memory. */
  dataDir?: string;
  /**
   * The buffer cache of the PGlite the store opens (`dataDir` or in memory), as PostgreSQL's
   * `shared_buffers` (default `'16MB'`: PGlite keeps all of it resident; PostgreSQL's own default is 128MB).
   */
  pgliteSharedBuffers?: string;
  /** A `PGlite` instance the app manages (the store does not close it). */
  pglite?: PgliteDatabase;
  /** The PostgreSQL schema for Tessera's tables (default `tessera`); several stores can share a database. */
  schema?: string;
  /**
   * The notification channels the relay spreads conversations and users over (default 1,024; a server
   * only): a process listens on at most this many, and drops the few messages of topics it does not follow
   * that share a channel with one it does. Every process on a schema must use the same number.
   */
  relayShards?: number;
  /**
   * How often the relay tells the other processes on the schema that this one is there (default 2,000 ms; a
   * server only). A process that hears of no other sends no events: the one-process deployment pays nothing
   * for the relay.
   */
  relayHeartbeatMs?: number;
  /**
   * How long another process counts as there without being heard (default 3 heartbeats), and how long a
   * process sends events regardless after its listening connection is taken (again): it may have missed
   * someone's hello meanwhile. Every process on a schema should use the same heartbeat and expiry.
   */
  relayExpiryMs?: number;
  /**
   * The most bytes (about) of ended prompts kept in this process from the conversation histories it read,
   * so that starting the next prompt of a conversation reads from the database only the outputs of prompts
   * it has not seen at their current version (default 16 MiB; 0 keeps none). Every read still checks each
   * prompt's version, so a prompt changed by any process is read again.
   */
  historyCacheBytes?: number;
  /**
   * How much a search reads: the user's newest visible prompts whose inputs add up to this many bytes
   * (default 4 MiB), and their text outputs; older ones are not found (titles always are). A search matches
   * every candidate's text, and neither a timeout (PGlite has none) nor the indexes bound that otherwise.
   */
  searchBytes?: number;
  /**
   * The most prompt ids a page of conversations holds in all (default `PAGE_PROMPT_IDS` of @tessera/core,
   * 50,000): a page ends early, with a cursor, before the conversation that would pass it.
   */
  pagePromptIds?: number;
  /** Where `DATABASE_URL` is read from when no database is given (default `process.env`). */
  env?: Record<string, string | undefined>;
};

/**
 * Opens the store and brings its schema up to date. The database is, in this order: `pool`,
 * `connectionString`, `pglite`, `dataDir` (PGlite), `DATABASE_URL` (server), else an in-memory PGlite.
 */
export async function createPostgresStore(options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const name = options.schema ?? DEFAULT_SCHEMA;
  const quoted = quoteSchema(name);
  const driver = await openDriver(options);
  try {
    const version = await migrate(driver, name, quoted);
    return await PostgresStore.open(driver, { name, quoted, version }, options);
  } catch (error) {
    await driver.close();
    throw error;
  }
}

async function openDriver(options: PostgresStoreOptions): Promise<SqlDriver> {
  if (options.pool) return pgDriver(options.pool, { owned: false });
  if (options.connectionString) return serverDriver(options.connectionString, options);
  if (options.pglite) return pgliteDriver(options.pglite, { owned: false });
  if (options.dataDir !== undefined) {
    return pgliteDriver(await openPglite(options.dataDir, options.pgliteSharedBuffers), { owned: true });
  }
  const url = (options.env ?? process.env).DATABASE_URL;
  if (url) return serverDriver(url, options);
  return pgliteDriver(await openPglite(undefined, options.pgliteSharedBuffers), { owned: true });
}

async function serverDriver(url: string, options: PostgresStoreOptions): Promise<SqlDriver> {
  return pgDriver(await openPool(url, options.maxConnections ?? 10), { owned: true });
}
