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

/** Opens PGlite (loaded only when used, so apps on a PostgreSQL server never load the WebAssembly build). */
export async function openPglite(dataDir: string | undefined): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(dataDir);
}
