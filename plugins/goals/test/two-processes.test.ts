import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPlatform, type Platform, type PluginError, type Prompt, type Store } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import type { ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueSchema } from '../../../packages/store-postgres/test/support/databases.ts';
import { continuationId, type Goal, goalMetaOf, goalService, goalsPlugin } from '../src/index.ts';
import { appTools, statelessModel, until } from './helpers.ts';

// Processes over one PostgreSQL database (each its own store and relay connection), all running the plugin
// and sweeping: a goal is driven by exactly one of them, turn after turn, and a process SIGKILLed in the
// middle of a turn leaves the goal to the others, which finish it without running any turn twice.

const WORKER = fileURLToPath(new URL('./support/goal-worker.ts', import.meta.url));
const userId = 'ada';
const RELAY = { relayHeartbeatMs: 100, relayExpiryMs: 400 };

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const platforms: Platform[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(platforms.map((p) => p.close()));
  await database?.drop();
});

type Process = { platform: Platform; model: ScriptedModel; errors: PluginError[] };

async function processIn(schema: string, checkFrom: number, sweepEveryMs: number | false): Promise<Process> {
  const store: Store = await createPostgresStore({ connectionString: database!.url, schema, ...RELAY });
  const app = appTools();
  app.checks.pass = true;
  const model = statelessModel(checkFrom);
  const errors: PluginError[] = [];
  const platform = createPlatform({
    plugins: [goalsPlugin({ sweepEveryMs }), app.plugin],
    store,
    model,
    recoverEveryMs: 100,
    onPluginError: (error) => errors.push(error),
  });
  platforms.push(platform);
  await platform.open();
  return { platform, model, errors };
}

const ENDED = ['completed', 'failed', 'cancelled'];

async function finished(
  platform: Platform,
  conversationId: string,
): Promise<{ goal: Goal; prompts: Prompt[] }> {
  const goals = goalService(platform.services);
  return until(
    async () => {
      const goal = await goals.get(conversationId, userId);
      const prompts = await platform.conversations.prompts(conversationId, userId);
      const done = goal.state === 'completed' && prompts.every((p) => ENDED.includes(p.state));
      const counted = prompts.filter((p) => p.usage.modelCalls > 0).length === goal.used.prompts;
      return done && counted && { goal, prompts };
    },
    async () => JSON.stringify(await goals.get(conversationId, userId)),
  );
}

/** One prompt per turn, in order, and the goal's usage the sum of its prompts' (each counted once). */
function runOnce(goal: Goal, prompts: Prompt[]) {
  const turns = prompts.map((p) => goalMetaOf(p.metadata)?.turn);
  expect(turns.every((turn) => turn !== undefined)).toBe(true);
  expect(new Set(turns).size).toBe(turns.length);
  expect(prompts.map((p) => p.id)).toEqual(turns.map((turn) => continuationId(goal.id, turn!)));
  expect(goal.used.modelCalls).toBe(prompts.reduce((sum, p) => sum + p.usage.modelCalls, 0));
}

describe('a goal over several processes', { timeout: 120_000 }, () => {
  it('is driven by exactly one process, turn after turn, though every process sweeps', async () => {
    const schema = uniqueSchema();
    // Both sweep every 20 ms: each sweep races the driver of the process that ran the last prompt.
    const a = await processIn(schema, 5, 20);
    const b = await processIn(schema, 5, 20);
    const conversation = await a.platform.conversations.create({ userId });
    await goalService(a.platform.services).create(conversation.id, userId, {
      objective: 'Ship the release',
      criteria: [{ description: 'Tests pass', verify: { kind: 'check', toolId: 'check.tests' } }],
    });
    const { goal, prompts } = await finished(b.platform, conversation.id);
    expect(goal.turn).toBe(5);
    runOnce(goal, prompts);
    // No prompt was run by both: the model requests of both processes are the prompts' model calls.
    expect(a.model.requests.length + b.model.requests.length).toBe(goal.used.modelCalls);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('a process SIGKILLed in the middle of a turn: another finishes the goal, no turn run twice', async () => {
    const schema = uniqueSchema();
    const worker = fork(WORKER, [], {
      execPath: process.execPath,
      execArgv: ['--disable-warning=ExperimentalWarning'],
      env: { ...process.env, DATABASE_URL: database!.url, TESSERA_SCHEMA: schema, TESSERA_USER: userId },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise((resolve) => worker.once('exit', (code, signal) => resolve(signal ?? code)));
    const messages: Record<string, string>[] = [];
    const hanging = new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => {
        messages.push(message as Record<string, string>);
        if ((message as { hanging?: string }).hanging) resolve();
      });
      void exited.then((code) => reject(new Error(`The worker exited first (${String(code)}).`)));
    });
    await hanging;
    const { conversationId, goalId } = messages.find((m) => m.conversationId)!;
    worker.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // The survivor: recovers turn 2 (its call cut off), then drives turns 3 (the check) to completion.
    const survivor = await processIn(schema, 3, 50);
    const { goal, prompts } = await finished(survivor.platform, conversationId!);
    expect(goal.id).toBe(goalId);
    runOnce(goal, prompts);
    expect(prompts.map((p) => goalMetaOf(p.metadata)?.turn)).toEqual([1, 2, 3]);
    const cut = prompts[1]!.output.find((o) => o.type === 'tool' && o.toolId === 'work.do');
    expect(cut).toMatchObject({ result: { type: 'error' } });
    expect(survivor.errors).toEqual([]);
  });
});
