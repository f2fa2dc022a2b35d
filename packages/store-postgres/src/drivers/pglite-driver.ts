import type { Row, SqlDriver } from '../driver.ts';

// PGlite's own declarations are named only in this file's implementation, never in a signature: they use
// Emscripten's and the DOM's global types without referencing them, so an app that type-checks its
// dependencies (`skipLibCheck: false`) without `@types/emscripten` and the DOM lib could not load them.

/** The part of a PGlite transaction the store uses. */
export interface PgliteQueryable {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * The part of a PGlite database the store uses: a `PGlite` from `@electric-sql/pglite` fits it, without this
 * package's declarations naming PGlite's types.
 */
export interface PgliteDatabase extends PgliteQueryable {
  transaction<T>(fn: (tx: PgliteQueryable) => Promise<T>): Promise<T>;
  readonly closed: boolean;
  close(): Promise<void>;
}

/**
 * A driver over an embedded PGlite database. PGlite runs one query at a time and holds other queries back
 * while a transaction is open, so its transactions are serialised by PGlite itself.
 */
export function pgliteDriver(db: PgliteDatabase, options: { owned: boolean }): SqlDriver {
  return {
    kind: 'pglite',
    query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
      (await db.query<R>(sql, params as unknown[])).rows,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
            (await tx.query<R>(sql, params as unknown[])).rows,
        }),
      ),
    // PGlite has one session, which lives as long as the instance.
    async hold(sql, params, release) {
      await db.query(sql, params as unknown[]);
      return {
        release: async () => {
          if (!db.closed) await db.query(release, params as unknown[]);
        },
      };
    },
    close: async () => {
      if (options.owned && !db.closed) await db.close();
    },
  };
}

/**
 * PGlite's buffer cache unless told otherwise. PostgreSQL's default (128MB) is zeroed at start, so all of
 * it is resident in the WebAssembly memory from the first moment; one process's embedded database does well
 * with less, and the operating system's page cache still holds the data files.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '16MB';

/** Opens PGlite (loaded only when used, so apps on a PostgreSQL server never load the WebAssembly build). */
export async function openPglite(
  dataDir: string | undefined,
  sharedBuffers = DEFAULT_PGLITE_SHARED_BUFFERS,
): Promise<PgliteDatabase> {
  if (!/^\d+\s*(kB|MB|GB)?$/.test(sharedBuffers)) {
    throw new TypeError(
      `pgliteSharedBuffers must be a size such as '16MB', not ${JSON.stringify(sharedBuffers)}.`,
    );
  }
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  });
}
