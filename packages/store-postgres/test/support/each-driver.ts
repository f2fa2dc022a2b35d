import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../src/index.ts';
import { createTempPglite, uniqueSchema, useServerDatabase } from './databases.ts';

/** Opens a store on an empty schema of the suite's database. */
export type OpenStore = () => Promise<PostgresStore>;

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
    tests(() => createPostgresStore({ pglite: database.db, schema: uniqueSchema() }));
  });

  describe(`${name} (PostgreSQL server)`, () => {
    const database = useServerDatabase();
    tests(() => createPostgresStore({ pool: database.pool, schema: uniqueSchema() }));
  });
}
