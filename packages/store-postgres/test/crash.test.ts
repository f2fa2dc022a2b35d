import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { OutputRegistry, type Prompt, promptsToMessages, type ToolOutput } from '@tessera/core';
import { assertWellFormed, callTool, callTools, reply } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';
import { lazy, uniqueSchema, useServerDatabase } from './support/databases.ts';
import { WorkerProcess } from './support/worker-process.ts';

const userId = 'user_crash';
const tools = (prompt: Prompt | undefined) =>
  (prompt?.output ?? []).filter((o): o is ToolOutput => o.type === 'tool');

const read = async (store: PostgresStore, id: string) => (await store.prompts.get(id)) as Prompt | undefined;

/**
 * What a killed process must leave: positions 0..n-1 without gaps, as many rows as the prompt counted. Read
 * in one statement (one snapshot): a write the dead process had sent may still commit after the kill, and
 * two reads could each see a different side of it.
 */
async function expectConsistentRows(store: PostgresStore, promptId: string) {
  const [row] = await store.driver.query<{ output_count: number; positions: number[] }>(
    `SELECT p.output_count, coalesce(
        (SELECT array_agg(o.position ORDER BY o.position) FROM "${store.schema}".prompt_outputs o
          WHERE o.prompt_id = p.id), '{}') AS positions
      FROM "${store.schema}".prompts p WHERE p.id = $1`,
    [promptId],
  );
  expect(row?.positions).toEqual(row?.positions.map((_, i) => i));
  expect(row?.output_count).toBe(row?.positions.length);
}

/** After recovery: the prompt ended, every tool call has a result, and the history is valid for a model. */
function expectRecovered(prompt: Prompt | undefined) {
  expect(prompt?.state).toBe('completed');
  for (const call of tools(prompt)) expect(call.result?.type).toMatch(/success|error/);
  assertWellFormed(promptsToMessages([prompt!], { outputs: new OutputRegistry() }));
}

describe('a process killed with SIGKILL while running a prompt (PostgreSQL server)', () => {
  const database = useServerDatabase();
  let opened: { target: { databaseUrl: string; schema: string }; store: PostgresStore } | undefined;
  const shared = lazy(async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    opened = {
      target,
      store: await createPostgresStore({ connectionString: database.url, schema: target.schema }),
    };
    return opened;
  });
  afterAll(() => opened?.store.close());

  /** Runs `input` in a fresh process, kills it once `ready` resolves, and returns the prompt's id. */
  async function crash(script: unknown[], ready: (worker: WorkerProcess) => Promise<void>) {
    const { target } = await shared();
    const worker = await WorkerProcess.start(target);
    const conversation = await worker.call<{ id: string }>('createConversation', { userId });
    await worker.call('script', { turns: script });
    const promptId = await worker.call<string>('start', {
      conversationId: conversation.id,
      userId,
      input: 'go',
    });
    await ready(worker);
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');
    return { promptId, conversationId: conversation.id };
  }

  /** A restarted process runs the platform's recovery and answers with `turns`. */
  async function recoverWith(turns: unknown[]) {
    const { target } = await shared();
    const restarted = await WorkerProcess.start(target);
    try {
      await restarted.call('script', { turns });
      const recovered = await restarted.call<Prompt[]>('recover');
      return { recovered, ran: await restarted.call<{ tool: string }[]>('ran') };
    } finally {
      await restarted.close();
    }
  }

  it('killed inside a tool with side effects: the call gets an interrupted result, never a second run', async () => {
    const { store } = await shared();
    const { promptId } = await crash(
      [callTools({ name: 'ops.echo', args: { text: 'before' } }, { name: 'ops.hang' })],
      (w) => w.waitFor('tool-started'),
    );
    const left = await read(store, promptId);
    expect(left?.state).toBe('running');
    expect(tools(left).map((t) => [t.toolId, t.result?.type, Boolean(t.startedAt)])).toEqual([
      ['ops.echo', 'success', true],
      ['ops.hang', undefined, true],
    ]);
    await expectConsistentRows(store, promptId);

    const { recovered, ran } = await recoverWith([reply('Recovered.')]);
    expect(recovered.map((p) => p.id)).toEqual([promptId]);
    const after = await read(store, promptId);
    expectRecovered(after);
    expect(tools(after)[1]?.result).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
    expect(ran).toEqual([]);
  });

  it('killed while a tool streams outputs: every stored output is whole and in order', async () => {
    const { store, target } = await shared();
    const { promptId, conversationId } = await crash([callTool('ops.flood')], async (w) => {
      await w.waitFor('flooding');
      await sleep(50);
    });
    await expectConsistentRows(store, promptId);
    const left = await read(store, promptId);
    const texts = left!.output.filter((o) => o.type === 'text');
    expect(texts.length).toBeGreaterThan(50);
    for (const [i, o] of texts.entries()) expect(o.text).toBe(`chunk ${i} `.repeat(50));

    await recoverWith([reply('Recovered.')]);
    const after = await read(store, promptId);
    expectRecovered(after);
    expect(tools(after)[0]?.result).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
    // The conversation is free again.
    const next = await WorkerProcess.start(target);
    await next.call('script', { turns: [reply('Next.')] });
    await expect(
      next.call<Prompt>('send', { conversationId, userId, input: 'again' }),
    ).resolves.toMatchObject({ state: 'completed' });
    await next.close();
  });

  it('killed while the model streams: nothing half-written, the model is asked again', async () => {
    const { store } = await shared();
    const { promptId } = await crash([reply(['never ', 'recorded'], { delayMs: 60_000 })], () => sleep(300));
    expect((await read(store, promptId))?.output).toEqual([]);
    await recoverWith([reply('Answered after the restart.')]);
    const after = await read(store, promptId);
    expectRecovered(after);
    expect(after?.output.map((o) => (o.type === 'text' ? o.text : o.type))).toEqual([
      'Answered after the restart.',
    ]);
  });
});

describe('a process killed with SIGKILL while writing to PGlite', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tessera-pglite-crash-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('leaves a data directory that opens with whole outputs, and the prompt recovers', async () => {
    const worker = await WorkerProcess.start({ dataDir });
    const conversation = await worker.call<{ id: string }>('createConversation', { userId });
    await worker.call('script', { turns: [callTool('ops.flood')] });
    const promptId = await worker.call<string>('start', {
      conversationId: conversation.id,
      userId,
      input: 'go',
    });
    await worker.waitFor('flooding');
    await sleep(50);
    worker.child.kill('SIGKILL');
    await worker.exited;

    const store = await createPostgresStore({ dataDir });
    try {
      await expectConsistentRows(store, promptId);
      const left = await read(store, promptId);
      const texts = left!.output.filter((o) => o.type === 'text');
      for (const [i, o] of texts.entries()) expect(o.text).toBe(`chunk ${i} `.repeat(50));
    } finally {
      await store.close();
    }
    const restarted = await WorkerProcess.start({ dataDir });
    await restarted.call('script', { turns: [reply('Recovered.')] });
    const [recovered] = await restarted.call<Prompt[]>('recover');
    await restarted.close();
    expectRecovered(recovered);
  });
});
