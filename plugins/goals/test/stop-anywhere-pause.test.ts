import {
  createMemoryStore,
  createPlatform,
  type ModelRequest,
  NotFoundError,
  type Platform,
  type PluginError,
  type Prompt,
  type Store,
} from '@tessera/core';
import { ProcessStopped, type ScriptedModel, stoppingStore } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { type Goal, goalMetaOf, goalService, goalsPlugin } from '../src/index.ts';
import { appTools, statelessModel, until } from './helpers.ts';

// A goal whose model always works (it never completes by itself), paused by the user while turn 2's work
// runs, with the process killed after each of its writes in turn. The user knows they asked for the pause:
// if the process died before it was stored, they pause again in the next process (before it recovers
// anything). Whatever write the kill came after, once paused the goal never gets another model call: no
// turn after 2 is ever asked, nor turn 2 after its work (a stale continuation fenced, a recovered one stopped).

const userId = 'ada';
const INPUT = {
  objective: 'Keep improving the docs',
  criteria: [{ description: 'A person says they are good' }],
};

type Process = { platform: Platform; model: ScriptedModel; errors: PluginError[]; asked: () => boolean };

async function processOn(store: Store, conversationId: string): Promise<Process> {
  const app = appTools();
  const model = statelessModel(Number.POSITIVE_INFINITY);
  const errors: PluginError[] = [];
  const platform = createPlatform({
    plugins: [goalsPlugin({ sweepEveryMs: false }), app.plugin],
    store,
    model,
    onPluginError: (error) => errors.push(error),
  });
  let asked = false;
  // The user pauses the goal while turn 2's work runs.
  app.checks.onStep = async (step) => {
    if (step !== 'turn 2') return;
    asked = true;
    await goalService(platform.services)
      .pause(conversationId, userId, 'Wait for my review.')
      .catch((error) => {
        if (!(error instanceof ProcessStopped)) throw error;
      });
  };
  return { platform, model, errors, asked: () => asked };
}

const keepOpen = (store: Store): Store =>
  new Proxy(store, {
    get: (target, key) => (key === 'close' ? undefined : Reflect.get(target, key, target)),
  });

const ENDED = ['completed', 'failed', 'cancelled'];

/** The turn a model request is for, and whether it follows a call's result (a later round). */
function turnOf(request: ModelRequest): { turn: number; later: boolean } {
  const at = request.messages.findLastIndex((m) => m.type === 'message' && m.role === 'user');
  const input = request.messages[at];
  const text = input?.type === 'message' ? input.content : '';
  return {
    turn: Number(/\(turn (\d+)\)/.exec(text)?.[1] ?? 0),
    later: request.messages.slice(at + 1).some((m) => m.type === 'function_call_output'),
  };
}

async function firstProcess(store: Store, conversationId: string, stopped: () => boolean): Promise<Process> {
  const process = await processOn(store, conversationId);
  const goals = goalService(process.platform.services);
  try {
    await process.platform.open();
    await goals.create(conversationId, userId, INPUT);
    await until(async () => {
      if (stopped()) return true;
      const goal = await goals.get(conversationId, userId);
      const prompts = await process.platform.conversations.prompts(conversationId, userId);
      return goal.state === 'paused' && prompts.every((p) => ENDED.includes(p.state));
    });
  } catch (error) {
    if (!(error instanceof ProcessStopped)) throw error;
  }
  await process.platform.close().catch(() => undefined);
  return process;
}

async function secondProcess(inner: Store, conversationId: string, askedBefore: boolean) {
  const process = await processOn(keepOpen(inner), conversationId);
  const { platform } = process;
  const goals = goalService(platform.services);
  const existing = await goals.get(conversationId, userId).catch((error) => {
    if (NotFoundError.is(error)) return undefined;
    throw error;
  });
  // The user asked for the pause in the dead process and does not see it: they ask again, first thing.
  if (existing?.state === 'active' && askedBefore)
    await goals.pause(conversationId, userId, 'Wait for my review.');
  await platform.recover();
  await platform.open();
  if (!existing) await goals.create(conversationId, userId, INPUT);
  const settled = await until(
    async () => {
      const goal = await goals.get(conversationId, userId);
      const prompts = await platform.conversations.prompts(conversationId, userId);
      return goal.state === 'paused' && prompts.every((p) => ENDED.includes(p.state)) && { goal, prompts };
    },
    async () => JSON.stringify(await goals.get(conversationId, userId)),
  );
  await platform.close();
  return { ...settled, process };
}

function check(goal: Goal, prompts: Prompt[], models: ScriptedModel[], at: string) {
  expect(goal.pause, at).toMatchObject({ kind: 'user', reason: 'Wait for my review.' });
  const turns = prompts.flatMap((p) => {
    const meta = goalMetaOf(p.metadata);
    return meta ? [meta.turn] : [];
  });
  expect(new Set(turns).size, at).toBe(turns.length);
  for (const model of models) {
    for (const request of model.requests) {
      const { turn, later } = turnOf(request);
      expect(turn, at).toBeLessThanOrEqual(2);
      if (turn === 2) expect(later, `${at}: turn 2 asked the model again after its work`).toBe(false);
    }
  }
}

describe('a paused goal never runs again, whatever write a kill came after', () => {
  it('paused during turn 2: no model call after the pause, in either process', async () => {
    const full = stoppingStore(createMemoryStore());
    const conversation = await (async () => {
      const p = await processOn(keepOpen(full.store), 'none');
      const c = await p.platform.conversations.create({ userId });
      await p.platform.close();
      return c.id;
    })();
    const before = full.writes();
    const first = await firstProcess(full.store, conversation, () => false);
    const writes = full.writes() - before;
    expect(first.asked()).toBe(true);
    expect(writes).toBeGreaterThan(10);

    for (let limit = 1; limit <= writes; limit++) {
      const inner = createMemoryStore();
      const setupProcess = await processOn(keepOpen(inner), 'none');
      const { id } = await setupProcess.platform.conversations.create({ userId });
      await setupProcess.platform.close();
      const stopping = stoppingStore(inner, limit);
      const dead = await firstProcess(stopping.store, id, () => stopping.stopped());
      const { goal, prompts, process } = await secondProcess(inner, id, dead.asked());
      check(goal, prompts, [dead.model, process.model], `killed after write ${limit} of ${writes}`);
      expect(process.errors, `killed after write ${limit}`).toEqual([]);
    }
  });
});
