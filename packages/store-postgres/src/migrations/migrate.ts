import { TesseraError } from '@tessera/core';
import type { SqlDriver, SqlExecutor } from '../driver.ts';
import { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.ts';

/** The database was migrated by a newer version of this package: refuse to guess what its tables mean. */
export class SchemaVersionError extends TesseraError {
  readonly found: number;
  readonly known: number;
  constructor(schema: string, found: number, known: number) {
    super(
      'schema_too_new',
      `The Tessera schema '${schema}' is at version ${found}, but this @tessera/store-postgres only knows versions up to ${known}. Upgrade @tessera/store-postgres (or point it at another database or schema).`,
    );
    this.found = found;
    this.known = known;
  }
}

/**
 * Brings the schema to the newest version, in one transaction under an advisory lock: processes starting
 * together wait for each other, and a failed migration leaves nothing half-applied. Returns the version.
 */
export async function migrate(
  driver: SqlDriver,
  schemaName: string,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const known = migrations.at(-1)?.version ?? SCHEMA_VERSION;
  return driver.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tessera.migrate:${schemaName}`]);
    const current = await currentVersion(tx, schemaName, schema);
    if (current > known) throw new SchemaVersionError(schemaName, current, known);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements(schema)) await tx.query(statement);
      await tx.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    return Math.max(current, known);
  });
}

/** The applied version (0 for a new database), creating the schema and its version table when missing. */
async function currentVersion(tx: SqlExecutor, schemaName: string, schema: string): Promise<number> {
  const [found] = await tx.query<{ version_table: string | null; namespace: boolean }>(
    `SELECT to_regclass($1)::text AS version_table, EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $2) AS namespace`,
    [`${schema}.schema_migrations`, schemaName],
  );
  if (found?.version_table) {
    const [row] = await tx.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::int AS version FROM ${schema}.schema_migrations`,
    );
    return row?.version ?? 0;
  }
  // Created only when missing, so an app whose role may not create schemas can use one made for it.
  if (!found?.namespace) await tx.query(`CREATE SCHEMA ${schema}`);
  await tx.query(`CREATE TABLE ${schema}.schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  return 0;
}
