import { sampleConversation, samplePrompt } from '@tessera/testing';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';

const database = useServerDatabase();
let store: PostgresStore;
let pool: Pool;
beforeAll(async () => {
  // Three connections: the runner lock and the relay hold one each, so the store's queries all run on the
  // third, and the statements it prepared are all on it.
  const { default: pg } = await import('pg');
  pool = new pg.Pool({ connectionString: database.url, max: 3 });
  // pool.end() resolves before its connections close; dropping the database then terminates them, which the
  // pool reports as an 'error' event (an uncaught exception without a listener; seen on a loaded machine).
  pool.on('error', () => {});
  store = await createPostgresStore({ pool, schema: uniqueSchema() });
});
// Before the suite's database is dropped (after hooks run last registered first).
afterAll(async () => {
  await store?.close();
  await pool?.end();
});

it('prepares the store’s statements once per connection and runs them again by name', async () => {
  const conversation = sampleConversation();
  await store.conversations.create(conversation);
  for (let i = 0; i < 3; i++) {
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    await store.prompts.update(prompt.id, { state: 'completed' });
  }
  const prepared = await store.driver.query<{ name: string; calls: string }>(
    `SELECT name, (generic_plans + custom_plans)::text AS calls FROM pg_prepared_statements
      WHERE name LIKE 'tessera_%' ORDER BY name`,
    [],
  );
  // create and update each ran three times under one name; this query is named too.
  expect(prepared.length).toBeGreaterThanOrEqual(3);
  expect(prepared.filter((row) => Number(row.calls) >= 3).length).toBeGreaterThanOrEqual(2);
});
