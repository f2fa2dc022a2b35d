import { join } from 'node:path';
import type { Store } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import type { ServerConfig } from './config.ts';

/** PostgreSQL when a database URL is configured, else the embedded database (PGlite) in the data directory. */
export async function createStore(
  config: ServerConfig,
): Promise<{ store: Store; kind: 'postgres' | 'embedded' }> {
  if (config.databaseUrl)
    return { store: await createPostgresStore({ connectionString: config.databaseUrl }), kind: 'postgres' };
  return { store: await createPostgresStore({ dataDir: join(config.dataDir, 'db') }), kind: 'embedded' };
}
