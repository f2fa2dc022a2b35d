import type { Prompt, ToolOutput } from '@tessera/core';
import { callTool, reply } from '@tessera/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.ts';
import { lazy, uniqueSchema, useServerDatabase } from './support/databases.ts';
import { WorkerProcess } from './support/worker-process.ts';

const userId = 'user_x';
const pendingCallOf = (prompt: Prompt) =>
  prompt.output.find((o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending')!;

describe('two platform processes over one PostgreSQL database', () => {
  const database = useServerDatabase();
  let opened: { a: WorkerProcess; b: WorkerProcess; store: PostgresStore } | undefined;
  const processes = lazy(async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    // Both start (and so migrate) at the same time.
    const [a, b] = await Promise.all([WorkerProcess.start(target), WorkerProcess.start(target)]);
    const store = await createPostgresStore({ connectionString: database.url, schema: target.schema });
    opened = { a, b, store };
    return opened;
  });
  afterAll(async () => {
    await Promise.all([opened?.a.close(), opened?.b.close()]);
    await opened?.store.close();
  });

  it('admits exactly one prompt per conversation when both processes start prompts at once', async () => {
    const { a, b, store } = await processes();
    const conversations = await Promise.all(
      Array.from({ length: 10 }, () => a.call<{ id: string }>('createConversation', { userId })),
    );
    // Slow answers keep the winners running while the losers try.
    const slow = conversations.map(() => reply('Slow answer.', { delayMs: 1_500 }));
    await Promise.all([a.call('script', { turns: slow }), b.call('script', { turns: slow })]);
    const attempts = await Promise.all(
      conversations.map(({ id }) =>
        Promise.allSettled(
          [a, b].map((worker) => worker.call<string>('start', { conversationId: id, userId, input: 'go' })),
        ),
      ),
    );
    for (const pair of attempts) {
      expect(pair.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = pair.find((r) => r.status === 'rejected');
      expect(refused?.reason).toMatchObject({ name: 'ConversationBusyError', code: 'conversation_busy' });
    }
    await Promise.all([a.call('settle'), b.call('settle')]);
    for (const { id } of conversations) {
      const prompts = await store.prompts.listByConversation(id);
      expect(prompts.map((p) => p.state)).toEqual(['completed']);
    }
  });

  it('approves in one process a prompt that paused in the other, and runs the tool once', async () => {
    const { a, b, store } = await processes();
    const conversation = await a.call<{ id: string }>('createConversation', { userId });
    await a.call('script', { turns: [callTool('ops.delete', { id: 'r1' })] });
    const paused = await a.call<Prompt>('send', {
      conversationId: conversation.id,
      userId,
      input: 'delete r1',
    });
    expect(paused.state).toBe('waiting_for_approval');

    await b.call('script', { turns: [reply('Deleted r1.')] });
    const resumed = await b.call<Prompt>('approve', { toolCallId: pendingCallOf(paused).id, userId });
    expect(resumed.state).toBe('completed');
    expect(resumed.output.find((o) => o.type === 'tool')).toMatchObject({
      result: { type: 'success', output: { deleted: 'r1' } },
      approval: { decision: 'approved', decidedBy: userId },
    });
    expect(await b.call('ran')).toEqual([{ tool: 'ops.delete', input: { id: 'r1' } }]);
    expect(await a.call('ran')).toEqual([]);
    expect((await store.prompts.get(paused.id))?.state).toBe('completed');
    // A second decision, from the process that paused it, is refused.
    await expect(a.call('approve', { toolCallId: pendingCallOf(paused).id, userId })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('lets exactly one of two processes approving the same call at once win', async () => {
    const { a, b, store } = await processes();
    const conversation = await a.call<{ id: string }>('createConversation', { userId });
    await a.call('script', { turns: [callTool('ops.delete', { id: 'r2' })] });
    const paused = await a.call<Prompt>('send', {
      conversationId: conversation.id,
      userId,
      input: 'delete r2',
    });
    const turns = [reply('Deleted r2.')];
    await Promise.all([a.call('script', { turns }), b.call('script', { turns })]);
    const decisions = await Promise.allSettled(
      [a, b].map((worker) =>
        worker.call<Prompt>('approve', { toolCallId: pendingCallOf(paused).id, userId }),
      ),
    );
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    expect(decisions.find((d) => d.status === 'rejected')?.reason).toMatchObject({ code: 'conflict' });
    const runs = [...(await a.call<unknown[]>('ran')), ...(await b.call<unknown[]>('ran'))];
    expect(runs.filter((r) => JSON.stringify(r).includes('r2'))).toHaveLength(1);
    expect((await store.prompts.get(paused.id))?.state).toBe('completed');
  });

  it('gives every firing of a trigger to exactly one process when both claim it at once', async () => {
    const { a, b, store } = await processes();
    await store.records.put('triggers', 'trg_race', { next: 0 }, { expectedVersion: 0 });
    const [byA, byB] = await Promise.all(
      [a, b].map((worker) => worker.call<number[]>('claimFirings', { triggerId: 'trg_race', until: 100 })),
    );
    expect([...byA!, ...byB!].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect((await store.records.get('triggers', 'trg_race'))?.version).toBe(101);
  });
});

describe('recovery with several processes over one PostgreSQL database', () => {
  const database = useServerDatabase();
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
  });

  it('leaves a prompt to the live process running it, and hands it to exactly one process once that one dies', async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => WorkerProcess.start(target)));
    workers.push(a!, b!, c!);
    const conversation = await a!.call<{ id: string }>('createConversation', { userId });
    await a!.call('script', { turns: [callTool('ops.hang')] });
    const promptId = await a!.call<string>('start', { conversationId: conversation.id, userId, input: 'go' });
    await a!.waitFor('tool-started');
    await Promise.all([b, c].map((worker) => worker!.call('script', { turns: [reply('Recovered.')] })));

    // A is alive: nobody else takes its prompt.
    expect(await b!.call<unknown[]>('recover')).toEqual([]);

    a!.child.kill('SIGKILL');
    await a!.exited;
    // The server releases A's lock once it sees the connection gone; then B and C race for the prompt.
    let recovered: Prompt[] = [];
    for (let attempt = 0; attempt < 50 && recovered.length === 0; attempt++) {
      const [byB, byC] = await Promise.all([b, c].map((worker) => worker!.call<Prompt[]>('recover')));
      recovered = [...byB!, ...byC!];
      if (recovered.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered.map((prompt) => prompt.id)).toEqual([promptId]);
    expect(recovered[0]).toMatchObject({ state: 'completed' });
    expect(recovered[0]!.output.find((o) => o.type === 'tool')).toMatchObject({
      result: { type: 'error', error: { code: 'interrupted' } },
    });
  });
});

describe('events and cancellation across processes over one PostgreSQL database', () => {
  const database = useServerDatabase();
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
  });

  it('shows another process every event of a prompt, whole and in order, and cancels it from there', async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    const [a, b] = await Promise.all([WorkerProcess.start(target), WorkerProcess.start(target)]);
    workers.push(a!, b!);
    const conversation = await a!.call<{ id: string }>('createConversation', { userId });
    await b!.call('watch', { conversationId: conversation.id });
    await a!.call('watch', { conversationId: conversation.id });
    // A result of 60 KB crosses in many notifications; text deltas in a few.
    await a!.call('script', {
      turns: [callTool('ops.big', { size: 60_000 }), reply(['The ', 'big ', 'one.'])],
    });
    const prompt = await a!.call<Prompt>('send', { conversationId: conversation.id, userId, input: 'go' });
    expect(prompt.state).toBe('completed');
    type Seen = { type: string; promptId: string; output?: { result?: { output?: { text?: string } } } };
    let inB: Seen[] = [];
    for (let i = 0; i < 100 && !inB.some((e) => e.type === 'prompt.completed'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      inB = await b!.call<Seen[]>('watched');
    }
    const inA = await a!.call<Seen[]>('watched');
    expect(inB.map((e) => e.type)).toEqual(inA.map((e) => e.type));
    expect(inB).toEqual(inA);
    // ops.big is read-only and quick: its call goes out once, with its result (see invariant 14).
    const big = inB.find((e) => e.output?.result)?.output?.result?.output?.text;
    expect(big).toHaveLength(75_000); // 15,000 times 5 UTF-16 units
    expect(big?.slice(0, 5)).toBe('aé€😀');

    // B cancels a prompt that A runs.
    await a!.call('script', { turns: [callTool('ops.hang')] });
    const running = await a!.call<string>('start', {
      conversationId: conversation.id,
      userId,
      input: 'hang',
    });
    await a!.waitFor('tool-started');
    const cancelled = await b!.call<Prompt>('cancel', { promptId: running, userId });
    expect(cancelled).toMatchObject({ id: running, state: 'cancelled' });
    expect(cancelled.output.find((o) => o.type === 'tool')).toMatchObject({ result: { type: 'error' } });
  });
});

describe('a process joining one that has been alone over one PostgreSQL database', () => {
  const database = useServerDatabase();
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
  });

  it('sees the prompts of the process that was alone, and cancels one of them', async () => {
    const target = { databaseUrl: database.url, schema: uniqueSchema() };
    // Short intervals: A has listened for a whole window alone (so it stopped sending) before B starts.
    const times = { TESSERA_RELAY_HEARTBEAT_MS: '200', TESSERA_RELAY_EXPIRY_MS: '1000' };
    const a = await WorkerProcess.start(target, times);
    workers.push(a);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const b = await WorkerProcess.start(target, times);
    workers.push(b);
    const conversation = await a.call<{ id: string }>('createConversation', { userId });
    await b.call('watch', { conversationId: conversation.id });
    // Past B's window too: from here on, each sends because it knows of the other.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await a.call('script', { turns: [reply(['Hello ', 'from A.'])] });
    const prompt = await a.call<Prompt>('send', { conversationId: conversation.id, userId, input: 'hi' });
    expect(prompt.state).toBe('completed');
    await expect
      .poll(async () => (await b.call<{ type: string }[]>('watched')).map((e) => e.type), {
        timeout: 20_000,
      })
      .toContain('prompt.completed');

    await a.call('script', { turns: [callTool('ops.hang')] });
    const running = await a.call<string>('start', { conversationId: conversation.id, userId, input: 'hang' });
    await a.waitFor('tool-started');
    const cancelled = await b.call<Prompt>('cancel', { promptId: running, userId });
    expect(cancelled).toMatchObject({ id: running, state: 'cancelled' });
  });
});
