import pg from 'pg';

/** The machine's PostgreSQL server (as for @tessera/store-postgres's tests, which never skip either). */
export const SERVER_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 5_000 });
  await client.connect().catch((error: unknown) => {
    throw new Error(`The PostgreSQL server at ${SERVER_URL} is not reachable (this test never skips).`, {
      cause: error,
    });
  });
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server for one test; `drop()` removes it. */
export async function serverDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tessera_server_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
