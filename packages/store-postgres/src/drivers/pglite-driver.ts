import type { PGlite } from '@electric-sql/pglite';
import type { Row, SqlDriver } from '../driver.ts';

/**
 * A driver over an embedded PGlite database. PGlite runs one query at a time and holds other queries back
 * while a transaction is open, so its transactions are serialised by PGlite itself.
 */
export function pgliteDriver(db: PGlite, options: { owned: boolean }): SqlDriver {
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
): Promise<PGlite> {
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
