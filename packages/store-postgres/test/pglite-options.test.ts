import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createPostgresStore, DEFAULT_PGLITE_SHARED_BUFFERS } from '../src/index.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const dataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-pglite-options-'));
  dirs.push(dir);
  return join(dir, 'db');
};
const sharedBuffers = async (store: Awaited<ReturnType<typeof createPostgresStore>>) =>
  (await store.driver.query<{ value: string }>(`SELECT current_setting('shared_buffers') AS value`))[0]
    ?.value;

it('opens the embedded database with a small buffer cache, or the one asked for', async () => {
  const small = await createPostgresStore({ dataDir: await dataDir() });
  try {
    expect(await sharedBuffers(small)).toBe(DEFAULT_PGLITE_SHARED_BUFFERS);
  } finally {
    await small.close();
  }
  const asked = await createPostgresStore({ dataDir: await dataDir(), pgliteSharedBuffers: '32MB' });
  try {
    expect(await sharedBuffers(asked)).toBe('32MB');
  } finally {
    await asked.close();
  }
});

it('refuses a buffer cache size it cannot pass on, before opening anything', async () => {
  await expect(
    createPostgresStore({ dataDir: await dataDir(), pgliteSharedBuffers: '16MB -c fsync=off' }),
  ).rejects.toThrow(/pgliteSharedBuffers must be a size/);
});
