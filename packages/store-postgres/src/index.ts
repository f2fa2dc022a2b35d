export { createPostgresStore, type PostgresStoreOptions } from './create-store.ts';
export type { Row, SqlDriver, SqlExecutor } from './driver.ts';
export {
  DEFAULT_PGLITE_SHARED_BUFFERS,
  type PgliteDatabase,
  type PgliteQueryable,
} from './drivers/pglite-driver.ts';
export { SchemaVersionError } from './migrations/migrate.ts';
export { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations/migrations.ts';
export { PostgresStore } from './postgres-store.ts';
