import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/index.ts';
import { createTempPglite, uniqueSchema, useServerDatabase } from './databases.ts';

/**
 * Opens a store on an empty schema of the suite's database, or on `options.schema` (a second store on a
 * schema another has: another process's), with the store's other `options`.
 */
export type OpenStore = (
  options?: Pick<PostgresStoreOptions, 'schema' | 'historyCacheBytes' | 'searchBytes' | 'pagePromptIds'>,
) => Promise<PostgresStore>;

/**
 * Runs the same tests on both drivers: PGlite in a temporary directory and a fresh database on the server.
 * Stores opened by a test are closed after the suite.
 */
export function describeEachDriver(name: string, tests: (open: OpenStore) => void): void {
  describe(`${name} (PGlite)`, () => {
    let database: Awaited<ReturnType<typeof createTempPglite>>;
    beforeAll(async () => {
      database = await createTempPglite();
    });
    afterAll(() => database?.dispose());
    tests((options) => createPostgresStore({ schema: uniqueSchema(), ...options, pglite: database.db }));
  });

  describe(`${name} (PostgreSQL server)`, () => {
    const database = useServerDatabase();
    tests((options) => createPostgresStore({ schema: uniqueSchema(), ...options, pool: database.pool }));
  });
}
