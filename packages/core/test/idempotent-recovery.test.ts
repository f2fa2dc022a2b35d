import { createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlatform,
  createTool,
  definePlugin,
  emptyUsage,
  MemoryStore,
  type ToolOutput,
} from '../src/index.ts';

it('recovers idempotent calls cut off by a crash by running them again: an approved one with its approved arguments, not asked again; what it emitted shows once', async () => {
  // What a process that died mid-batch leaves: an idempotent call started, and one approved (with edited
  // arguments) that had emitted a note before the crash; and the same for a call that is not idempotent.
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
    input: 'jobs',
    output: [],
    usage: { ...emptyUsage(), modelCalls: 1 },
    createdAt: at,
    updatedAt: at,
  });
  const call = (id: string, toolId: string, extra: object) => ({
    type: 'tool',
    id,
    createdAt: at,
    callId: `c_${id}`,
    toolId,
    input: { name: id },
    startedAt: at,
    ...extra,
  });
  const approval = { reason: 'Check it.', decision: 'approved', decidedBy: seed.userId, decidedAt: at };
  await store.prompts.appendOutput('prm_crashed', call('plain', 'jobs.find', {}));
  await store.prompts.appendOutput(
    'prm_crashed',
    call('approved', 'jobs.run', { approval, editedInput: { name: 'edited' }, editedBy: seed.userId }),
  );
  const note = {
    type: 'text',
    id: 'out_note',
    createdAt: at,
    toolCallId: 'approved',
    text: 'started approved',
  };
  await store.prompts.appendOutput('prm_crashed', note);
  await store.prompts.appendOutput('prm_crashed', call('side_effect', 'jobs.once', { approval }));

  const ran: string[] = [];
  const plugin = definePlugin({
    id: 'jobs',
    tools: [
      createTool({
        id: 'jobs.find',
        description: 'Finds or starts the job of this call (idempotent).',
        input: z.object({ name: z.string() }),
        idempotent: true,
        invoke: ({ input }) => {
          ran.push(input.name);
          return `found ${input.name}`;
        },
      }),
      createTool({
        id: 'jobs.run',
        description: 'Finds or starts the job of this call (idempotent); needs approval.',
        input: z.object({ name: z.string() }),
        idempotent: true,
        requireApproval: { required: true, reason: 'Check it.' },
        invoke: async ({ input, emit }) => {
          ran.push(input.name);
          await emit({ type: 'text', text: `started ${input.name}` });
          return `ran ${input.name}`;
        },
      }),
      createTool({
        id: 'jobs.once',
        description: 'Has side effects.',
        input: z.object({ name: z.string() }),
        invoke: ({ input }) => {
          ran.push(input.name);
          return 'ran';
        },
      }),
    ],
  });
  const platform = createPlatform({
    plugins: [plugin],
    store,
    model: new ScriptedModel([reply('Recovered.')]),
  });
  const [run] = await platform.recover();
  const recovered = await run!.done;
  expect(recovered.state).toBe('completed');
  const calls = recovered.output.filter((o): o is ToolOutput => o.type === 'tool');
  const [plain, approved, sideEffect] = calls;
  // Never needed approval: decided again, and run again.
  expect(plain?.result).toEqual({ type: 'success', output: 'found plain' });
  // Approved: run again once, with the arguments the user approved, not asked again.
  expect(approved?.result).toEqual({ type: 'success', output: 'ran edited' });
  expect(sideEffect?.result).toMatchObject({ type: 'error', error: { code: 'interrupted' } });
  expect(ran).toEqual(['plain', 'edited']);
  // What its first run emitted went; the second run's shows once.
  const notes = recovered.output.filter((o) => o.type === 'text' && o.toolCallId === 'approved');
  expect(notes).toMatchObject([{ text: 'started edited' }]);
  expect(notes[0]?.id).not.toBe('out_note');
});
