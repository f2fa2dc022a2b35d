import { describeStoreConformance } from '@tessera/testing/store-conformance';
import { afterAll, beforeAll } from 'vitest';
import { createPostgresStore } from '../src/index.ts';
import { createTempPglite, uniqueSchema } from './support/databases.ts';

// One PGlite database in a temporary directory; every test gets its own schema, so starts empty.
let database: Awaited<ReturnType<typeof createTempPglite>>;
beforeAll(async () => {
  database = await createTempPglite();
});
afterAll(() => database?.dispose());

describeStoreConformance('PGlite (temporary directory)', () =>
  createPostgresStore({ pglite: database.db, schema: uniqueSchema() }),
);
