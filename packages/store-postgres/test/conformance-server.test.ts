import { describeStoreConformance } from '@tessera/testing/store-conformance';
import { createPostgresStore } from '../src/index.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';

// A fresh database on the server for this run (dropped afterwards); every test gets its own schema.
const database = useServerDatabase();

describeStoreConformance('PostgreSQL server', () =>
  createPostgresStore({ pool: database.pool, schema: uniqueSchema() }),
);
