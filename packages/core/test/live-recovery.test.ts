import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlatform,
  createTool,
  definePlugin,
  type EventRelay,
  emptyUsage,
  MemoryStore,
  type Platform,
  type Prompt,
  type Store,
  type ToolOutput,
} from '../src/index.ts';

const userId = 'ada';

/** A tool that runs until the test lets it finish, and a log of its runs. */
function gate() {
  const ran: string[] = [];
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let start: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const plugin = definePlugin({
    id: 'gate',
    tools: [
      createTool({
        id: 'gate.wait',
        description: 'Waits for the gate.',
        input: z.object({}),
        readOnly: true,
        invoke: async () => {
          ran.push('wait');
          start();
          await opened;
          return 'through';
        },
      }),
    ],
  });
  return { plugin, ran, open, started };
}

/** What a process that died mid-prompt leaves in the store: a running prompt with a call in flight. */
async function seedOrphan(store: Store, id: string): Promise<Prompt> {
  const conversation = await createPlatform({ model: new ScriptedModel(), store }).conversations.create({
    userId,
  });
  const at = new Date().toISOString();
  await store.prompts.create({
    id,
    conversationId: conversation.id,
    userId,
    model: 'normal',
    visible: true,
    state: 'running',
    input: 'go',
    output: [],
    usage: { ...emptyUsage(), modelCalls: 1 },
    createdAt: at,
    updatedAt: at,
  });
  await store.prompts.appendOutput(id, {
    type: 'tool',
    id: `call_${id}`,
    createdAt: at,
    callId: `c_${id}`,
    toolId: 'gate.wait',
    input: {},
    startedAt: at,
  } as ToolOutput);
  return (await store.prompts.get(id)) as Prompt;
}

const ended = (platform: Platform, promptId: string) =>
  new Promise<void>((resolve) => {
    const stop = platform.events.subscribe({ promptId }, (event) => {
      if (event.type === 'prompt.completed' || event.type === 'prompt.failed') {
        stop();
        resolve();
      }
    });
  });

/** A relay to processes that are all gone: nobody answers a cancel request. */
const silentRelay: EventRelay = { publish: () => {}, subscribe: () => () => {} };

describe('recovery while the platform is open', () => {
  it('resumes a dead process’s prompt without a restart, never the prompts it runs itself, and stops on close', async () => {
    const store = new MemoryStore();
    const claims: number[] = [];
    const counted: Store = {
      ...store,
      conversations: store.conversations,
      records: store.records,
      prompts: {
        ...store.prompts,
        claimOrphans: (options) => {
          claims.push(options?.except?.length ?? 0);
          return store.prompts.claimOrphans(options);
        },
      },
    };
    const { plugin, ran, open, started } = gate();
    const model = new ScriptedModel([callTool('gate.wait'), reply('Own prompt done.')]);
    const platform = createPlatform({ plugins: [plugin], store: counted, model, recoverEveryMs: 5 });
    await platform.open();
    const conversation = await platform.conversations.create({ userId });
    const own = await platform.start({ conversationId: conversation.id, userId, input: 'wait' });
    await started;
    // Checks keep coming while the platform's own prompt runs: they leave it alone.
    const before = claims.length;
    while (claims.length < before + 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(claims.slice(before).every((except) => except === 1)).toBe(true);

    // A process dies with a prompt in flight: the open platform resumes it by itself.
    model.push(reply('Recovered.'));
    const orphan = await seedOrphan(counted, 'prm_orphan');
    const resumed = ended(platform, orphan.id);
    open();
    await resumed;
    expect((await own.done).state).toBe('completed');
    const recovered = (await store.prompts.get(orphan.id)) as Prompt;
    expect(recovered.state).toBe('completed');
    expect((recovered.output[0] as ToolOutput).result).toEqual({ type: 'success', output: 'through' });
    expect(ran).toEqual(['wait', 'wait']); // the own call once, the orphan's read-only call again

    await platform.close();
    const after = claims.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(claims.length).toBe(after);
  });

  it('never takes for an orphan a prompt it is starting, resuming after approval or recovering', async () => {
    // Every write is followed at once by a recovery: as if a periodic check ran in each gap.
    const store = new MemoryStore();
    let platform: Platform | undefined;
    const recovered: string[] = [];
    const recover = async () => {
      for (const run of (await platform?.recover()) ?? []) recovered.push(run.prompt.id);
    };
    const racing: Store = {
      ...store,
      conversations: store.conversations,
      records: store.records,
      prompts: {
        ...store.prompts,
        create: async (prompt) => {
          await store.prompts.create(prompt);
          await recover();
        },
        createWithHistory: async (prompt) => {
          const created = await store.prompts.createWithHistory!(prompt);
          await recover();
          return created;
        },
        update: async (id, patch, options) => {
          const applied = await store.prompts.update(id, patch, options);
          await recover();
          return applied;
        },
      },
    };
    const ran: string[] = [];
    const remove = createTool({
      id: 'ops.delete',
      description: 'Deletes (needs approval).',
      input: z.object({}),
      requireApproval: { required: true, reason: 'Permanent.' },
      invoke: () => {
        ran.push('delete');
        return 'deleted';
      },
    });
    const model = new ScriptedModel([callTool('ops.delete'), reply('Deleted.')]);
    platform = createPlatform({
      plugins: [definePlugin({ id: 'ops', tools: [remove] })],
      store: racing,
      model,
    });
    const conversation = await platform.conversations.create({ userId });
    const paused = await platform.send({ conversationId: conversation.id, userId, input: 'delete' });
    expect(paused.state).toBe('waiting_for_approval');
    const pending = paused.output.find((o) => o.type === 'tool')!;
    const done = await platform.approve(pending.id, { userId });
    expect(done.state).toBe('completed');
    expect(ran).toEqual(['delete']);
    expect(model.requests).toHaveLength(2);
    expect(recovered).toEqual([]);
  });

  it('cancels at once a running prompt whose process died, without waiting for an answer', async () => {
    const memory = new MemoryStore();
    const store: Store = {
      conversations: memory.conversations,
      prompts: memory.prompts,
      records: memory.records,
      relay: silentRelay,
    };
    const orphan = await seedOrphan(store, 'prm_dead');
    const { plugin, ran } = gate();
    const model = new ScriptedModel();
    // Off, so that the orphan is still there to cancel; a wait for an answer would outlast the test.
    const platform = createPlatform({
      plugins: [plugin],
      store,
      model,
      recoverEveryMs: 0,
      remoteCancelTimeoutMs: 3_600_000,
    });
    const cancelled = await platform.cancel(orphan.id, { userId });
    expect(cancelled).toMatchObject({ id: orphan.id, state: 'cancelled', stopReason: { code: 'cancelled' } });
    expect((cancelled.output[0] as ToolOutput).result).toMatchObject({
      type: 'error',
      error: { code: 'cancelled' },
    });
    expect(ran).toEqual([]);
    expect(model.requests).toEqual([]);
    expect(await platform.recover()).toEqual([]);
    await expect(platform.cancel(orphan.id, { userId })).rejects.toMatchObject({ code: 'conflict' });
  });
});
