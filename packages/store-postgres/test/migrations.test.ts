import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgDriver } from '../src/drivers/pg-driver.ts';
import { createPostgresStore, MIGRATIONS, SCHEMA_VERSION, SchemaVersionError } from '../src/index.ts';
import { migrate } from '../src/migrations/migrate.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';

describe('migrations on the PostgreSQL server', () => {
  const database = useServerDatabase();

  const versions = async (schema: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      );
      return rows.map((r) => r.version);
    } finally {
      await client.end();
    }
  };

  it('migrates once when several stores start at the same time on separate connections', async () => {
    const schema = uniqueSchema();
    const stores = await Promise.all(
      Array.from({ length: 5 }, () =>
        createPostgresStore({ connectionString: database.url, schema, maxConnections: 2 }),
      ),
    );
    expect(stores.map((s) => s.schemaVersion)).toEqual(stores.map(() => SCHEMA_VERSION));
    expect(await versions(schema)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('refuses a database a newer version migrated, and leaves its data alone', async () => {
    const schema = uniqueSchema();
    const store = await createPostgresStore({ connectionString: database.url, schema });
    await store.records.put('ns', 'kept', { ok: true });
    await store.driver.query(
      `INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, 'future')`,
      [SCHEMA_VERSION + 1],
    );
    const opening = createPostgresStore({ connectionString: database.url, schema });
    await expect(opening).rejects.toBeInstanceOf(SchemaVersionError);
    await expect(opening).rejects.toMatchObject({
      code: 'schema_too_new',
      found: SCHEMA_VERSION + 1,
      known: SCHEMA_VERSION,
    });
    expect((await store.records.get('ns', 'kept'))?.value).toEqual({ ok: true });
    await store.close();
  });

  it('applies a migration all or nothing', async () => {
    const schema = uniqueSchema();
    const store = await createPostgresStore({ connectionString: database.url, schema });
    const broken = {
      version: SCHEMA_VERSION + 1,
      name: 'broken',
      statements: (s: string) => [`CREATE TABLE ${s}.half (id int)`, 'SELECT 1 / 0'],
    };
    await expect(migrate(store.driver, schema, `"${schema}"`, [...MIGRATIONS, broken])).rejects.toThrow(
      /division by zero/,
    );
    expect(await versions(schema)).toEqual(MIGRATIONS.map((m) => m.version));
    const [half] = await store.driver.query(`SELECT to_regclass($1)::text AS name`, [`"${schema}".half`]);
    expect(half?.name).toBeNull();
    await store.close();
  });

  it('upgrades a database of an older version without touching its data', async () => {
    const schema = uniqueSchema();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => {}); // a connection still closing when the suite drops the database
    await migrate(pgDriver(pool, { owned: false }), schema, `"${schema}"`, MIGRATIONS.slice(0, 1));
    // A prompt a version-1 process left running, written as that version wrote it.
    await pool.query(
      `INSERT INTO "${schema}".conversations (id, user_id, created_at, updated_at) VALUES ('c1', 'u', now(), now())`,
    );
    await pool.query(`INSERT INTO "${schema}".prompts (id, conversation_id, user_id, model, visible, state, input,
        usage, created_at, updated_at) VALUES ('p1', 'c1', 'u', 'normal', true, 'running', 'hi', '{}', now(), now())`);
    await pool.end();

    const store = await createPostgresStore({ connectionString: database.url, schema });
    expect(await versions(schema)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await store.prompts.get('p1')).toMatchObject({ state: 'running', input: 'hi' });
    // Version 2 knows which process runs a prompt; one from before it is an orphan to recover.
    expect((await store.prompts.claimOrphans()).map((p) => p.id)).toEqual(['p1']);
    await store.close();
  });

  it('uses DATABASE_URL when given no database, and never closes a pool it did not open', async () => {
    const fromEnv = await createPostgresStore({
      env: { DATABASE_URL: database.url },
      schema: uniqueSchema(),
    });
    expect(fromEnv.driver.kind).toBe('pg');
    await fromEnv.close();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => {}); // a connection still closing when the suite drops the database
    const borrowed = await createPostgresStore({ pool, schema: uniqueSchema() });
    await borrowed.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(createPostgresStore({ connectionString: database.url, schema: 'x"; DROP' })).rejects.toThrow(
      /not allowed/,
    );
  });
});

describe('PGlite in a data directory', () => {
  it('keeps the data across restarts and does not migrate again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-pglite-'));
    try {
      const first = await createPostgresStore({ dataDir });
      expect(first.driver.kind).toBe('pglite');
      await first.records.put('ns', 'durable', { n: 1 });
      await first.close();
      const second = await createPostgresStore({ dataDir, env: { DATABASE_URL: 'postgres://ignored' } });
      expect((await second.records.get('ns', 'durable'))?.value).toEqual({ n: 1 });
      const [row] = await second.driver.query(`SELECT count(*)::int AS n FROM tessera.schema_migrations`);
      expect(row?.n).toBe(MIGRATIONS.length);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
