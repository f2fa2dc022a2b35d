import { createMemoryStore, createPlatform, createTool, type Store } from '@tessera/core';
import { callTool, pendingCall, reply, ScriptedModel, type ScriptedTurn } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentRun, agentsPlugin, childPromptId } from '../src/index.ts';
import { appPlugin, routed } from './helpers.ts';

/** A store whose process can die: from `kill()` on, every call through it waits for ever (nothing more is written). */
function killable(store: Store) {
  let dead = false;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key, object);
        if (typeof value === 'function') {
          return (...args: unknown[]) => (dead ? new Promise(() => {}) : value.apply(object, args));
        }
        return value && typeof value === 'object' && !Array.isArray(value) ? wrap(value) : value;
      },
    });
  return {
    store: wrap(store),
    kill: () => {
      dead = true;
    },
  };
}

const userId = 'ada';

/** A process runs a parent whose child waits for approval, then dies; another process over the store recovers. */
async function diedWhileChildWaits(readOnly: boolean, after: Record<string, ScriptedTurn[]>) {
  const runs: string[] = [];
  const work = createTool({
    id: 'work.do',
    description: 'Does something that needs approval.',
    input: z.object({ what: z.string() }),
    readOnly,
    requireApproval: { required: true, reason: 'It changes things.' },
    invoke: ({ input }) => {
      runs.push(input.what);
      return 'done';
    },
  });
  const plugins = () => [
    appPlugin([work]),
    agentsPlugin({
      agents: [
        {
          name: 'worker',
          description: 'Does the work.',
          instructions: 'Do the work.',
          tools: ['work.do'],
          readOnly,
          timeoutMs: 60_000,
        },
      ],
    }),
  ];
  const shared = createMemoryStore();
  const first = killable(shared);
  const dying = createPlatform({
    plugins: plugins(),
    store: first.store,
    model: new ScriptedModel(
      routed({
        parent: [callTool('agent.worker', { task: 'Change it.' })],
        worker: [callTool('work.do', { what: 'it' })],
      }),
    ),
  });
  const conversation = await dying.conversations.create({ userId });
  const waiting = new Promise<string>((resolve) => {
    dying.events.subscribe({ userId }, (event) => {
      if (event.type === 'prompt.approval-requested' && event.conversationId !== conversation.id)
        resolve(event.promptId);
    });
  });
  const parent = await dying.start({ conversationId: conversation.id, userId, input: 'Go.' });
  const childId = await waiting;
  first.kill();

  const model = new ScriptedModel(routed(after));
  const restarted = createPlatform({ plugins: plugins(), store: shared, model });
  const [resumed] = await restarted.recover();
  expect(resumed?.prompt.id).toBe(parent.prompt.id);
  const conversations = (await restarted.conversations.list(userId)).items.length;
  return { restarted, resumed: resumed!, childId, runs, conversations, model };
}

// These platforms are never opened: without the plugin's start() the parent's call waits for its child in
// memory (see durable-approval.test.ts for opened ones, whose parent waits in the store instead).
describe('a process never opened that stops while a child waits for approval', () => {
  // An agent's tool is idempotent (the child's id derives from the call's): recover() runs a call cut off by
  // a crash again, read-only or not, and it finds the child it started rather than ending interrupted.
  it.each([
    ['a read-only agent', true],
    ['any other agent', false],
  ])(
    '%s: the call runs again, waits for the same child, and the parent gets its answer',
    async (_, readOnly) => {
      const t = await diedWhileChildWaits(readOnly, {
        parent: [reply('Changed, says the worker.')],
        worker: [reply('I changed it.')],
      });
      const child = await t.restarted.getPrompt(t.childId, userId);
      expect(child.state).toBe('waiting_for_approval');
      await t.restarted.approve(pendingCall(child, 'work.do').id, { userId });
      const parent = await t.resumed.done;
      expect(parent.state).toBe('completed');
      const call = parent.output.find((o) => o.type === 'tool' && o.toolId === 'agent.worker');
      expect(call?.type === 'tool' && call.result?.type).toBe('success');
      const result = (call?.type === 'tool' &&
        call.result?.type === 'success' &&
        call.result.output) as AgentRun;
      expect(result).toMatchObject({ answer: 'I changed it.', promptId: t.childId });
      expect(t.childId).toBe(childPromptId(call!.id));
      expect(t.runs).toEqual(['it']);
      expect((await t.restarted.conversations.list(userId)).items).toHaveLength(t.conversations);
      // One agent-run output: the first run's was taken out, the second run's shows the child completed.
      expect(parent.output.filter((o) => o.type === 'agent-run')).toMatchObject([
        { promptId: t.childId, state: 'completed' },
      ]);
    },
  );
});
