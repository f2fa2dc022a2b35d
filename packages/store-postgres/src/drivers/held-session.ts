import type { Pool, PoolClient } from 'pg';

/** What a held session does on its connection when it is opened (again) and when it is released. */
export type SessionSetup = {
  setup(client: PoolClient): Promise<unknown>;
  teardown(client: PoolClient): Promise<unknown>;
  /** Called when the connection broke (before another is taken): its session state is gone. */
  broken?(): void;
};

/**
 * Keeps one pooled connection for session state (advisory locks, LISTEN) until `release()`. When the
 * connection breaks, its session state is gone: a new connection is taken and set up again, every second
 * until it works, the session is released, or the pool ends.
 */
export async function holdSession(pool: Pool, session: SessionSetup): Promise<{ release(): Promise<void> }> {
  let held: { client: PoolClient; finish(): void } | undefined;
  let released = false;

  const take = async (): Promise<void> => {
    const client = await pool.connect();
    let dropped = false;
    // Returns the connection to the pool once: destroyed when it broke, whole when released. A broken one
    // keeps its listener, since ending it can report more errors.
    const drop = (broken = true) => {
      if (dropped) return;
      dropped = true;
      if (!broken) client.off('error', broke);
      if (held?.client === client) held = undefined;
      client.release(broken);
    };
    const broke = () => {
      if (dropped) return;
      drop();
      if (released) return;
      session.broken?.();
      void retake();
    };
    client.on('error', broke);
    try {
      await session.setup(client);
    } catch (error) {
      drop();
      throw error;
    }
    if (dropped) throw new Error('The connection closed while it was being set up.');
    held = { client, finish: () => drop(false) };
  };
  const retake = async (): Promise<void> => {
    while (!released && !held && !pool.ending && !pool.ended) {
      try {
        await take();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  };

  await take();
  return {
    async release() {
      released = true;
      const current = held;
      if (!current) return;
      await session.teardown(current.client).catch(() => {});
      current.finish(); // a no-op when the connection broke meanwhile (it is already destroyed)
    },
  };
}
