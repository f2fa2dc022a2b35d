import { setTimeout as sleep } from 'node:timers/promises';
import { type AnyPlugin, createTool, definePlugin, type Prompt, type Store } from '@tessera/core';
import { callTool, createTestPlatform, reply, ScriptedModel, type ScriptedTurn } from '@tessera/testing';
import { z } from 'zod';
import { type Goal, type GoalsPluginOptions, goalService, goalsPlugin } from '../src/index.ts';

/**
 * An app's tools: `work.do` (work: progress), `check.tests` (a check: passes when `checks.pass` is true,
 * else returns `{ passed: false }`), `check.lint` (a check that throws unless `checks.lint`) and `ops.deploy`
 * (work that needs approval).
 */
export function appTools() {
  const checks: {
    pass: boolean;
    lint: boolean;
    runs: number;
    work: number;
    /** Awaited by the next `work.do` call (once): what a person does while the tool runs. */
    duringWork?: () => Promise<unknown>;
    /** Awaited by every `work.do` call, with its step. */
    onStep?: (step: string) => Promise<unknown> | undefined;
  } = { pass: false, lint: true, runs: 0, work: 0 };
  const plugin = definePlugin({
    id: 'app',
    tools: [
      createTool({
        id: 'work.do',
        description: 'Does a step of work.',
        input: z.object({ step: z.string().default('step') }),
        invoke: async ({ input }) => {
          checks.work++;
          const during = checks.duringWork;
          checks.duringWork = undefined;
          await during?.();
          await checks.onStep?.(input.step);
          return `did ${input.step}`;
        },
      }),
      createTool({
        id: 'check.tests',
        description: 'Runs the tests.',
        input: z.object({}),
        readOnly: true,
        invoke: () => {
          checks.runs++;
          return checks.pass ? { passed: true, tests: 12 } : { passed: false, failing: 2 };
        },
      }),
      createTool({
        id: 'check.lint',
        description: 'Runs the linter.',
        input: z.object({}),
        readOnly: true,
        invoke: () => {
          if (!checks.lint) throw new Error('3 lint errors');
          return 'clean';
        },
      }),
      createTool({
        id: 'ops.deploy',
        description: 'Deploys.',
        input: z.object({}),
        requireApproval: () => ({ required: true, reason: 'Deploys to production.' }),
        invoke: () => 'deployed',
      }),
    ],
  });
  return { plugin, checks };
}

export async function setup(
  options: {
    script?: ScriptedTurn[];
    store?: Store;
    goals?: GoalsPluginOptions;
    plugins?: AnyPlugin[];
    open?: boolean;
  } = {},
) {
  const app = appTools();
  const t = await createTestPlatform({
    plugins: [goalsPlugin({ sweepEveryMs: false, ...options.goals }), app.plugin, ...(options.plugins ?? [])],
    ...(options.script && { script: options.script }),
    ...(options.store && { store: options.store }),
  });
  if (options.open !== false) await t.platform.open();
  const goals = goalService(t.platform.services);
  const prompts = (): Promise<Prompt[]> => t.platform.conversations.prompts(t.conversation.id, t.userId);
  const goal = () => goals.get(t.conversation.id, t.userId);
  return { ...t, app, checks: app.checks, goals, prompts, goal };
}

/** Polls until `check` gives a value (not undefined/false); fails after `ms` with `describe()`. */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  describe: () => Promise<string> | string = () => '',
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting. ${await describe()}`);
    await sleep(10);
  }
}

const ENDED = ['completed', 'failed', 'cancelled'];

/** Waits until the goal is in `state` and the conversation's prompts have all stopped. */
export async function settled(
  goal: () => Promise<Goal>,
  prompts: () => Promise<Prompt[]>,
  states: Goal['state'][],
): Promise<Goal> {
  return until(
    async () => {
      const current = await goal();
      if (!states.includes(current.state)) return undefined;
      const all = await prompts();
      return all.every((p) => ENDED.includes(p.state) || p.state === 'waiting_for_approval')
        ? current
        : undefined;
    },
    async () => {
      const current = await goal();
      const all = await prompts();
      return `Goal ${current.state} turn ${current.turn} ${JSON.stringify(current.pause ?? current.endReason)}; prompts: ${all.map((p) => `${p.id}:${p.state}`).join(', ')}; progress: ${current.progress.map((e) => `${e.kind}:${e.text}`).join(' | ')}`;
    },
  );
}

/** Every tool call of the prompts, as `toolId` in order. */
export const callsOf = (prompts: readonly Prompt[]): string[] =>
  prompts.flatMap((p) => p.output.flatMap((o) => (o.type === 'tool' ? [o.toolId] : [])));

/**
 * A model that answers from the request alone (any process may ask it, a recovered prompt again): after a
 * tool result it answers; a continuation of a turn below `checkFrom` does work (`work.do` with step
 * `turn <n>`), later ones run the check.
 */
export const statelessModel = (checkFrom = 2) =>
  new ScriptedModel(
    Array.from({ length: 500 }, () => (request) => {
      const last = request.messages.at(-1);
      if (last?.type === 'function_call_output') return reply('Step done.');
      const text = last?.type === 'message' ? last.content : '';
      const turn = Number(/\(turn (\d+)\)/.exec(text)?.[1] ?? 0);
      return turn > 0 && turn < checkFrom
        ? callTool('work.do', { step: `turn ${turn}` })
        : callTool('check.tests');
    }),
  );
