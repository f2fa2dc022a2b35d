import { createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { expect, it } from 'vitest';
import { createPlatform, emptyUsage, MemoryStore, type ToolOutput } from '../src/index.ts';
import { toolbox } from './helpers.ts';

it('recovers a prompt left running by a crash: started calls get a result (read-only ones run again), queued ones run, the loop goes on', async () => {
  // What a process that died mid-batch leaves in the store: one call started, one not yet.
  const store = new MemoryStore();
  const seed = await createTestPlatform({ store });
  const at = new Date().toISOString();
  await store.prompts.create({
    id: 'prm_crashed',
    conversationId: seed.conversation.id,
    userId: seed.userId,
    model: 'normal',
    visible: true,
    state: 'running',
    input: 'echo twice',
    output: [],
    usage: { ...emptyUsage(), modelCalls: 1 },
    createdAt: at,
    updatedAt: at,
  });
  const call = (id: string, extra: object, toolId = 'demo.echo') => ({
    type: 'tool',
    id,
    createdAt: at,
    callId: `c_${id}`,
    toolId,
    input: { text: id },
    ...extra,
  });
  await store.prompts.appendOutput('prm_crashed', call('in_flight', { startedAt: at }, 'demo.fail'));
  await store.prompts.appendOutput('prm_crashed', call('read_only_in_flight', { startedAt: at }));
  await store.prompts.appendOutput('prm_crashed', call('queued', {}));

  const { plugin, ran } = toolbox();
  const model = new ScriptedModel([reply('Recovered.')]);
  const platform = createPlatform({ plugins: [plugin], store, model });
  const [run] = await platform.recover();
  const recovered = await run?.done;
  expect(recovered?.state).toBe('completed');
  const [inFlight, readOnly, queued] = recovered!.output as ToolOutput[];
  // demo.fail may have had side effects: not run again. demo.echo is read-only: safe to run again.
  expect(inFlight?.result).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
  expect(readOnly?.result).toEqual({ type: 'success', output: { echoed: 'read_only_in_flight' } });
  expect(queued?.result).toEqual({ type: 'success', output: { echoed: 'queued' } });
  expect(ran).toEqual([
    { tool: 'demo.echo', input: { text: 'read_only_in_flight' } },
    { tool: 'demo.echo', input: { text: 'queued' } },
  ]);
  expect(model.requests[0]?.messages.filter((m) => m.type === 'function_call_output')).toHaveLength(3);
  expect(await platform.recover()).toEqual([]);
});
