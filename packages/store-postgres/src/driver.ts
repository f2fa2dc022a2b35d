/** A row as the drivers return it: column name to parsed value (jsonb/json parsed, timestamptz as Date). */
export type Row = Record<string, unknown>;

/** Runs one SQL statement with `$1…$n` parameters and returns its rows. */
export interface SqlExecutor {
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/**
 * The whole surface the store needs from a database: both PGlite and `pg` implement it, so every query is
 * written once and runs unchanged on both.
 */
export interface SqlDriver extends SqlExecutor {
  readonly kind: 'pglite' | 'pg';
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs `sql` on a connection kept open (and reopened after a failure) until `release()`: for session-level
   * advisory locks, which live as long as their connection.
   */
  hold(sql: string, params: readonly unknown[], release: string): Promise<{ release(): Promise<void> }>;
  /**
   * Opens a listener: `onPayload` is called with every notification on the channels it listens on (plain
   * identifiers, added and removed at any time), on one connection kept open until released (and reopened
   * after a failure, listening on the same channels; notifications sent meanwhile are missed). Only drivers
   * that other processes can reach offer it. `onConnection`, when given, hears of each connection lost
   * (`false`) and of each one taken again and listening on every channel (`true`), so that the caller knows
   * when it may have missed notifications (the first connection is the returned promise's).
   */
  listen?(
    onPayload: (channel: string, payload: string) => void,
    onConnection?: (connected: boolean) => void,
  ): Promise<Listener>;
  /** Releases what the driver owns; a pool or PGlite instance passed in by the app is left open. */
  close(): Promise<void>;
}

/** The channels one connection listens on (see `SqlDriver.listen`). */
export interface Listener {
  listen(channel: string): Promise<void>;
  unlisten(channel: string): Promise<void>;
  release(): Promise<void>;
}
