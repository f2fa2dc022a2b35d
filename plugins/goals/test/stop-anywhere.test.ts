import {
  createMemoryStore,
  createPlatform,
  NotFoundError,
  type Platform,
  type PluginError,
  type Prompt,
  type Store,
} from '@tessera/core';
import { ProcessStopped, stoppingStore } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { type Goal, goalMetaOf, goalService, goalsPlugin } from '../src/index.ts';
import { appTools, statelessModel, until } from './helpers.ts';

// A goal of two turns (turn 1 works, turn 2 runs the check, which passes: completed), with the process killed
// after each of its writes in turn. Process 1 (opened) creates the goal and runs until its store stops it;
// process 2, a new platform over what it left, recovers the prompts, sweeps the goals, and the user creates
// the goal again only if process 1 died before the goal was stored. Whatever write the kill came after, the
// goal completes with evidence, each prompt was counted exactly once (its usage in `used`), and no turn ran
// twice (one prompt per turn, in order).

const userId = 'ada';
const INPUT = {
  objective: 'Ship the release',
  criteria: [{ description: 'Tests pass', verify: { kind: 'check' as const, toolId: 'check.tests' } }],
};

async function processOn(store: Store): Promise<{ platform: Platform; errors: PluginError[] }> {
  const app = appTools();
  app.checks.pass = true;
  const errors: PluginError[] = [];
  const platform = createPlatform({
    plugins: [goalsPlugin({ sweepEveryMs: false }), app.plugin],
    store,
    model: statelessModel(),
    onPluginError: (error) => errors.push(error),
  });
  return { platform, errors };
}

const stoppedOnly = (error: unknown) => {
  if (!(error instanceof ProcessStopped) && !(error as { cause?: unknown })?.cause) throw error;
};

/** The store a platform closes without closing it. */
const keepOpen = (store: Store): Store =>
  new Proxy(store, {
    get: (target, key) => (key === 'close' ? undefined : Reflect.get(target, key, target)),
  });

async function firstProcess(store: Store, conversationId: string, stopping?: { stopped(): boolean }) {
  const { platform } = await processOn(store);
  const goals = goalService(platform.services);
  try {
    await platform.open();
    await goals.create(conversationId, userId, INPUT);
    await until(
      async () => stopping?.stopped() || (await goals.get(conversationId, userId)).state === 'completed',
    );
  } catch (error) {
    if (!(error instanceof ProcessStopped)) throw error;
  }
  await platform.close().catch(stoppedOnly);
}

async function secondProcess(
  inner: Store,
  conversationId: string,
): Promise<{ goal: Goal; prompts: Prompt[] }> {
  const { platform, errors } = await processOn(keepOpen(inner));
  const goals = goalService(platform.services);
  await platform.recover();
  await platform.open();
  const existing = await goals.get(conversationId, userId).catch((error) => {
    if (NotFoundError.is(error)) return undefined;
    throw error;
  });
  if (!existing) await goals.create(conversationId, userId, INPUT); // the user tries again
  const ENDED = ['completed', 'failed', 'cancelled'];
  const goal = await until(
    async () => {
      const goal = await goals.get(conversationId, userId);
      const prompts = await platform.conversations.prompts(conversationId, userId);
      return (
        goal.state === 'completed' &&
        prompts.every((p) => ENDED.includes(p.state)) &&
        goal.used.prompts > 0 &&
        goal
      );
    },
    async () => JSON.stringify(await goals.get(conversationId, userId).catch(String)),
  );
  // The counting of the last prompt may land just after the goal completed: wait for the store to settle.
  const prompts = await platform.conversations.prompts(conversationId, userId);
  const counted = prompts.filter(
    (p) =>
      goalMetaOf(p.metadata) &&
      p.usage.modelCalls > 0 &&
      !p.output.some((o) => o.type === 'text' && o.text.startsWith('Goal continuation not run')),
  );
  const final = await until(
    async () => {
      const goal = await goals.get(conversationId, userId);
      return goal.used.prompts === counted.length && goal;
    },
    async () =>
      JSON.stringify({ goal: await goals.get(conversationId, userId), counted: counted.map((p) => p.id) }),
  );
  await platform.close();
  expect(errors.filter((e) => !(e.cause instanceof ProcessStopped))).toEqual([]);
  return { goal: final ?? goal, prompts };
}

async function conversationIn(store: Store): Promise<string> {
  const { platform } = await processOn(keepOpen(store));
  const conversation = await platform.conversations.create({ userId });
  await platform.close();
  return conversation.id;
}

function checkOutcome(goal: Goal, prompts: Prompt[], at: string) {
  expect(goal.state, at).toBe('completed');
  expect(goal.criteria[0]!.evidence?.by, at).toBe('check');
  const turns = prompts.flatMap((p) => {
    const meta = goalMetaOf(p.metadata);
    return meta ? [meta.turn] : [];
  });
  // One prompt per turn, in order: no turn ran twice.
  expect(new Set(turns).size, at).toBe(turns.length);
  expect(
    [...turns].sort((a, b) => a - b),
    at,
  ).toEqual(turns);
  // Counted exactly once: what the goal used is the sum of its prompts' usage.
  const sum = prompts
    .filter((p) => goalMetaOf(p.metadata)?.id === goal.id)
    .reduce((total, p) => total + p.usage.modelCalls, 0);
  const fencedCalls = prompts.filter(
    (p) =>
      goalMetaOf(p.metadata) &&
      p.output.some((o) => o.type === 'text' && o.text.startsWith('Goal continuation not run')),
  ).length;
  expect(goal.used.modelCalls, at).toBe(sum - fencedCalls);
}

describe('a goal survives a kill at any write', () => {
  it('completes once, each prompt counted once and no turn run twice, whatever write the process died after', async () => {
    const full = stoppingStore(createMemoryStore());
    const conversationId = await conversationIn(full.store);
    const before = full.writes();
    await firstProcess(full.store, conversationId);
    const writes = full.writes() - before;
    expect(writes).toBeGreaterThan(10);

    for (let limit = 1; limit <= writes; limit++) {
      const inner = createMemoryStore();
      const conversation = await conversationIn(inner);
      const stopping = stoppingStore(inner, limit);
      await firstProcess(stopping.store, conversation, stopping);
      const { goal, prompts } = await secondProcess(inner, conversation);
      checkOutcome(goal, prompts, `killed after write ${limit} of ${writes}`);
    }
  });
});
