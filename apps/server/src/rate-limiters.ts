import type { Pool } from 'pg';
import type { Logger } from 'pino';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  type RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { ServerConfig } from './config.ts';

/** What the HTTP layer needs of a limiter (rate-limiter-flexible's, in memory or in PostgreSQL). */
export type Counter = {
  /** Counts one for `key`; rejects with a RateLimiterRes past the limit. */
  consume(key: string): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  block(key: string, seconds: number): Promise<RateLimiterRes>;
};

/** One limit in force: at most `max` in each window of `windowSeconds`. */
export type Limit = { max: number; windowSeconds: number; counter: Counter };

export type RateLimiters = {
  failedAuth: (Limit & { blockSeconds: number }) | undefined;
  requestsPerUser: Limit | undefined;
  promptsPerUser: Limit | undefined;
  requestsPerAddress: Limit | undefined;
  /** How many proxies in front of the server append to `X-Forwarded-For` (0: the connection's address). */
  trustProxy: number;
  /** Where the counts are: this process's memory, or PostgreSQL (shared by every process on it). */
  store: 'memory' | 'postgres';
  close(): Promise<void>;
};

/** The counts' table, in the schema of the store's tables (created by the library when missing). */
const SCHEMA = 'tessera';
const TABLE = 'rate_limits';
/** How long a count in PostgreSQL may take before this process's memory answers for it. */
const STORE_TIMEOUT_MS = 1_000;
/** Rows whose window ended this long ago are deleted, every `CLEAN_EVERY_MS`. */
const KEEP_EXPIRED_MS = 3_600_000;
const CLEAN_EVERY_MS = 300_000;

/**
 * The rate limiters the settings ask for (none with `rateLimits: false`). With a PostgreSQL server
 * (`databaseUrl`) the counts of failed authentications and of anonymous requests are kept there, so every
 * process on that database shares those limits; each
 * process's memory stands in whenever PostgreSQL fails or is slow (a database hiccup neither locks everyone
 * out nor lets everyone in unbounded). Without one, they are kept in memory.
 */
export async function openRateLimiters(
  config: Pick<ServerConfig, 'rateLimits' | 'trustProxy' | 'databaseUrl'>,
  log?: Logger,
): Promise<RateLimiters | undefined> {
  const settings = config.rateLimits;
  if (settings === false) return undefined;
  const postgres = config.databaseUrl ? await openPostgres(config.databaseUrl, log) : undefined;
  /** `shared`: counted in PostgreSQL when there is one; else in this process's memory. */
  const limit = (
    name: string,
    { max, windowSeconds }: { max: number; windowSeconds: number },
    shared: boolean,
  ) => {
    if (max === 0) return undefined;
    const options = { keyPrefix: name, points: max, duration: windowSeconds };
    const memory = new RateLimiterMemory(options);
    if (!postgres || !shared) return { max, windowSeconds, counter: memory };
    const stored = new RateLimiterPostgres({
      ...options,
      storeClient: postgres.pool,
      storeType: 'pool',
      schemaName: SCHEMA,
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      insuranceLimiter: memory,
    });
    return {
      max,
      windowSeconds,
      counter: new RLWrapperTimeouts({ limiter: stored, timeoutMs: STORE_TIMEOUT_MS }),
    };
  };
  // Guessing and anonymous traffic are counted across processes: an attacker spreading guesses over the
  // processes behind a load balancer gets no more of them. A signed-in user's requests are counted by each
  // process (N processes allow N times the limit, still bounded): sharing those would add two database round
  // trips to every request and prompt.
  const failedAuth = limit('failed-auth', settings.failedAuth, true);
  return {
    failedAuth: failedAuth && { ...failedAuth, blockSeconds: settings.failedAuth.blockSeconds },
    requestsPerUser: limit('user', settings.requestsPerUser, false),
    promptsPerUser: limit('prompts', settings.promptsPerUser, false),
    requestsPerAddress: limit('address', settings.requestsPerAddress, true),
    trustProxy: config.trustProxy === true ? 1 : config.trustProxy === false ? 0 : config.trustProxy,
    store: postgres ? 'postgres' : 'memory',
    close: async () => postgres?.close(),
  };
}

/** A small pool of its own, the counts' table (created once, by any process) and its cleaning. */
async function openPostgres(url: string, log: Logger | undefined) {
  const { default: pg } = await import('pg');
  const pool: Pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 2_000 });
  // An idle connection the server closed is replaced on next use; unhandled, 'error' would crash the process.
  pool.on('error', (error) => log?.warn({ err: error }, 'a rate-limit database connection failed'));
  try {
    // Created only when missing (a role that may not create schemas can use one made for it), as the store does.
    const { rows } = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [SCHEMA]);
    if (rows.length === 0) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
    await new Promise<void>((resolve, reject) => {
      new RateLimiterPostgres(
        {
          storeClient: pool,
          storeType: 'pool',
          schemaName: SCHEMA,
          tableName: TABLE,
          clearExpiredByTimeout: false,
          points: 1,
          duration: 1,
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  } catch (error) {
    await pool.end();
    throw new Error(`Cannot keep rate limits in the PostgreSQL database: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const clean = setInterval(() => {
    pool
      .query(`DELETE FROM "${SCHEMA}"."${TABLE}" WHERE expire < $1`, [Date.now() - KEEP_EXPIRED_MS])
      .catch((error: unknown) => log?.warn({ err: error }, 'cleaning expired rate limits failed'));
  }, CLEAN_EVERY_MS);
  clean.unref();
  return {
    pool,
    close: async () => {
      clearInterval(clean);
      await pool.end();
    },
  };
}
