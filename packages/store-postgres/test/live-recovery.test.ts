import { setTimeout as sleep } from 'node:timers/promises';
import type { Prompt, ToolOutput } from '@tessera/core';
import { callTool, reply } from '@tessera/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';
import { RUNNER_LOCK_SPACE } from '../src/prompts.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';
import { WorkerProcess } from './support/worker-process.ts';

const userId = 'user_live';
const toolOf = (prompt: Prompt | undefined) => prompt?.output.find((o): o is ToolOutput => o.type === 'tool');

describe('live processes take over from a killed one, over one PostgreSQL database', () => {
  const database = useServerDatabase();
  const workers: WorkerProcess[] = [];
  const stores: PostgresStore[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await Promise.all(stores.map((store) => store.close()));
  });

  /** A schema of its own for one test (so no other test's processes see its prompts), and a store to read it. */
  async function schema() {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    const store = await createPostgresStore({ connectionString: database.url, schema: target.schema });
    stores.push(store);
    const start = async (env: Record<string, string> = {}) => {
      const worker = await WorkerProcess.start(target, env);
      workers.push(worker);
      return worker;
    };
    return { store, start };
  }

  /** Starts a prompt in `worker` whose tool hangs, and kills the worker inside the tool. */
  async function killMidTool(worker: WorkerProcess) {
    const conversation = await worker.call<{ id: string }>('createConversation', { userId });
    await worker.call('script', { turns: [callTool('ops.hang')] });
    const promptId = await worker.call<string>('start', {
      conversationId: conversation.id,
      userId,
      input: 'go',
    });
    await worker.waitFor('tool-started');
    const runner = await worker.call<string>('runner');
    worker.child.kill('SIGKILL');
    await worker.exited;
    return { promptId, conversationId: conversation.id, runner };
  }

  it('resumes the prompt in a process that is alive and open, without a restart', async () => {
    const { store, start } = await schema();
    const b = await start({ TESSERA_RECOVER_EVERY_MS: '100' });
    await b.call('script', { turns: [reply('Taken over.')] });
    await b.call('open');
    const a = await start();
    const { promptId, conversationId } = await killMidTool(a);

    // Nobody restarts: B, open, finds the orphan at one of its checks.
    let prompt = (await store.prompts.get(promptId)) as Prompt | undefined;
    while (prompt?.state === 'running') {
      await sleep(50);
      prompt = (await store.prompts.get(promptId)) as Prompt | undefined;
    }
    expect(prompt?.state).toBe('completed');
    expect(toolOf(prompt)?.result).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
    expect(prompt?.output.at(-1)).toMatchObject({ type: 'text', text: 'Taken over.' });
    expect(await b.call('ran')).toEqual([]);
    // The conversation is free again, from any process.
    await b.call('script', { turns: [reply('Next.')] });
    await expect(b.call<Prompt>('send', { conversationId, userId, input: 'next' })).resolves.toMatchObject({
      state: 'completed',
    });
  });

  it('cancels a killed process’s prompt at once from a live process, without waiting for an answer', async () => {
    const { store, start } = await schema();
    // Not open (no periodic recovery), and a wait for an answer that would outlast the test.
    const c = await start({ TESSERA_REMOTE_CANCEL_TIMEOUT_MS: '3600000' });
    const a = await start();
    const { promptId, runner } = await killMidTool(a);
    // The server releases the dead session's lock once it sees the connection gone.
    const lockHeld = async () =>
      (
        await store.driver.query(
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1
            AND objid = (hashtext($2)::bigint & 4294967295)::oid`,
          [RUNNER_LOCK_SPACE, runner],
        )
      ).length > 0;
    while (await lockHeld()) await sleep(20);

    const cancelled = await c.call<Prompt>('cancel', { promptId, userId });
    expect(cancelled).toMatchObject({ id: promptId, state: 'cancelled', stopReason: { code: 'cancelled' } });
    expect(toolOf(cancelled)?.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    expect(await store.prompts.get(promptId)).toMatchObject({ state: 'cancelled' });
    expect(await c.call('ran')).toEqual([]);
  });
});
