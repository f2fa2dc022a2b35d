import {
  CONTEXT_ORDER,
  definePlugin,
  type Platform,
  PlatformToken,
  type Plugin,
  type Prompt,
} from '@tessera/core';
import { goalContext } from './context.ts';
import { applyCheck, FENCED_PREFIX, goalMetaOf, STOPPED_PREFIX } from './driver.ts';
import {
  asText,
  budgetReached,
  checkTools,
  markRecorded,
  saysFailed,
  unrecorded,
  withProgress,
} from './goal-logic.ts';
import { checkpointOf, goalCheckpoint } from './output.ts';
import {
  createGoalsRuntime,
  type GoalsOptions,
  type GoalsRuntime,
  GoalsRuntimeToken,
  GoalsState,
} from './runtime.ts';
import { driverOf } from './service.ts';
import { goalTools } from './tools.ts';
import type { ProgressEntry, StoredGoal } from './types.ts';

export const GOALS_PLUGIN_ID = 'goals';

export type GoalsPluginOptions = GoalsOptions;

/** The prompt's view of the conversation's goal: none, live and its own, or a stale continuation. */
type GoalView = { kind: 'none' } | { kind: 'live'; goal: StoredGoal } | { kind: 'stale'; reason: string };

function viewOf(goal: StoredGoal | undefined, prompt: Prompt): GoalView {
  const meta = goalMetaOf(prompt.metadata);
  if (meta) {
    if (!goal || goal.id !== meta.id)
      return { kind: 'stale', reason: `goal ${meta.id} is no longer this conversation's goal` };
    if (goal.state !== 'active') {
      return {
        kind: 'stale',
        reason: `goal ${goal.id} is ${goal.state}${goal.pause ? ` (${goal.pause.reason})` : ''}`,
      };
    }
    if (goal.turn !== meta.turn) {
      return {
        kind: 'stale',
        reason: `turn ${meta.turn} of goal ${goal.id} was superseded by turn ${goal.turn}`,
      };
    }
    return { kind: 'live', goal };
  }
  if (!goal || goal.userId !== prompt.userId || (goal.state !== 'active' && goal.state !== 'paused'))
    return { kind: 'none' };
  return { kind: 'live', goal };
}

/**
 * Whether the prompt may have a goal to read: its conversation has had one (the plugin's state says so), or
 * it is a continuation (always checked against its goal, whatever the state says).
 */
const mayHaveGoal = (ctx: { state: { get(): GoalsState }; prompt: Prompt }): boolean =>
  ctx.state.get().goal === true || goalMetaOf(ctx.prompt.metadata) !== undefined;

/** Whether the goal's last change was made by this prompt (its tool completed, paused or ended it). */
const changedHere = (goal: StoredGoal | undefined, promptId: string): boolean =>
  goal?.progress.at(-1)?.promptId === promptId;

const triggerOf = (metadata: Record<string, unknown> | undefined): string | undefined =>
  typeof metadata?.trigger === 'string' ? metadata.trigger : undefined;

/**
 * The goals plugin: a conversation's goal (objective, criteria proved by evidence, budgets, stop rules),
 * driven by the platform from one prompt to the next; its tools and context in the goal's prompts, a
 * `goal-checkpoint` output in the record, and the driver and sweep that `platform.open()` starts.
 */
export function goalsPlugin(options: GoalsPluginOptions = {}): Plugin<GoalsState> {
  const runtime: GoalsRuntime = createGoalsRuntime(options);
  const running = new Map<Platform, { unsubscribe: () => void; timer?: ReturnType<typeof setInterval> }>();
  const driverFor = (services: { resolve: (token: typeof PlatformToken) => Platform }) =>
    driverOf(services.resolve(PlatformToken), runtime);

  const plugin = definePlugin({
    id: GOALS_PLUGIN_ID,
    state: GoalsState,
    outputs: [goalCheckpoint],
    services: (container) => container.register(GoalsRuntimeToken, { useValue: runtime }),
    prepare: async (ctx) => {
      if (!mayHaveGoal(ctx)) return;
      const driver = driverFor(ctx.services);
      const view = viewOf((await driver.records.ofConversation(ctx.conversationId))?.value, ctx.prompt);
      if (view.kind !== 'live') return;
      const goal = view.goal;
      ctx.context.push({ text: goalContext(goal), order: CONTEXT_ORDER.volatile });
      if (goal.state === 'active') ctx.tools.push(...goalTools);
    },
    hooks: {
      beforeFirstModelCall: async (ctx) => {
        if (!mayHaveGoal(ctx)) return;
        const driver = driverFor(ctx.services);
        const trigger = triggerOf(ctx.prompt.metadata);
        let entries: ProgressEntry[] = [];
        const result = await driver.change(ctx.conversationId, (goal) => {
          entries = [];
          if (goal.userId !== ctx.userId) return undefined;
          let next = goal;
          // The trigger a waiting goal set fired: the goal wakes, and this prompt is its next step.
          if (
            trigger &&
            goal.state === 'paused' &&
            goal.pause?.kind === 'waiting' &&
            goal.internal.wakeTriggerId === trigger
          ) {
            const { pause: _pause, ...rest } = goal;
            const { wakeTriggerId: _trigger, ...internal } = goal.internal;
            next = withProgress(
              { ...rest, state: 'active', stalls: 0, internal },
              {
                at: runtime.iso(),
                promptId: ctx.prompt.id,
                kind: 'resumed',
                text: 'Woken at the time it waited for.',
              },
            );
          }
          if (viewOf(next, ctx.prompt).kind !== 'live') return next === goal ? undefined : next;
          entries = unrecorded(next);
          return entries.length > 0 || next !== goal ? markRecorded(next) : undefined;
        });
        if (!result) return;
        const view = viewOf(result.record.value, ctx.prompt);
        if (view.kind !== 'live') return;
        // A checkpoint at the start of each prompt of a live goal, with the entries not recorded yet.
        await ctx.record(checkpointOf(view.goal, result.written ? entries : []));
      },
      beforeModelCall: async (ctx) => {
        const meta = goalMetaOf(ctx.prompt.metadata);
        if (!meta) return undefined;
        const goal = (await driverFor(ctx.services).records.ofConversation(ctx.conversationId))?.value;
        const view = viewOf(goal, ctx.prompt);
        if (view.kind !== 'stale') return undefined;
        // A continuation queued or started before the goal paused, stopped or moved on never calls the model.
        if (ctx.round === 0) return { skip: { text: `${FENCED_PREFIX}${view.reason}.` } };
        // Later on (a run resumed after a restart, where no round boundary came first): it stops, unless
        // its own tool changed the goal (completed or paused it), when it gives its last answer.
        if (changedHere(goal, ctx.prompt.id)) return undefined;
        return { skip: { text: `${STOPPED_PREFIX}${view.reason}.` } };
      },
      afterToolCall: async (ctx) => {
        if (!mayHaveGoal(ctx)) return undefined;
        const { call, result } = ctx;
        if (result.type !== 'success' && result.type !== 'error') return undefined;
        const driver = driverFor(ctx.services);
        const current = await driver.records.ofConversation(ctx.conversationId);
        if (!current || !checkTools(current.value).has(call.toolId)) return undefined;
        if (viewOf(current.value, ctx.prompt).kind !== 'live') return undefined;
        const ok = result.type === 'success' && !saysFailed(result.output);
        const summary = asText(result.type === 'success' ? result.output : result.error);
        await driver.change(ctx.conversationId, (goal) => {
          if (goal.id !== current.value.id || (goal.state !== 'active' && goal.state !== 'paused'))
            return undefined;
          const next = applyCheck(
            goal,
            { toolCallId: call.id, toolId: call.toolId, ok, summary },
            ctx.prompt.id,
            runtime.iso(),
          );
          return next === goal ? undefined : next;
        });
        return undefined;
      },
      betweenRounds: async (ctx) => {
        if (!mayHaveGoal(ctx)) return undefined;
        const current = await driverFor(ctx.services).records.ofConversation(ctx.conversationId);
        const view = viewOf(current?.value, ctx.prompt);
        // A continuation stops when a person paused or stopped its goal, or another turn superseded it; the
        // prompt whose tool completed or paused the goal gives its last answer.
        if (view.kind === 'stale' && !changedHere(current?.value, ctx.prompt.id)) {
          return { stop: `The goal's continuation stops: ${view.reason}.` };
        }
        if (view.kind !== 'live' || view.goal.state !== 'active') return undefined;
        const goal = view.goal;
        const usage = ctx.prompt.usage;
        const used = {
          modelCalls: goal.used.modelCalls + usage.modelCalls,
          totalTokens: goal.used.totalTokens + usage.totalTokens,
          cost: goal.used.cost + (usage.cost ?? 0),
          prompts: goal.used.prompts,
          // This prompt's time so far counts too (its start as the store recorded it).
          wallMs: goal.used.wallMs + Math.max(0, Date.now() - Date.parse(ctx.prompt.createdAt) || 0),
        };
        const over = budgetReached(goal.budgets, used);
        return over ? { stop: over } : undefined;
      },
    },
    start: async ({ platform, signal, reportError }) => {
      const driver = driverOf(platform, runtime);
      const unsubscribe = platform.events.subscribe({ local: true }, (event) => {
        driver.onEvent(event)?.catch(reportError);
      });
      const entry: { unsubscribe: () => void; timer?: ReturnType<typeof setInterval> } = { unsubscribe };
      running.set(platform, entry);
      // One sweep at a time in this process: a slow one is not overtaken by the next tick.
      let sweeping: Promise<void> | undefined;
      const sweep = () => {
        sweeping ??= driver
          .sweep(signal)
          .catch(reportError)
          .finally(() => {
            sweeping = undefined;
          });
        return sweeping;
      };
      void sweep();
      if (runtime.sweepEveryMs !== false) {
        entry.timer = setInterval(sweep, runtime.sweepEveryMs);
        entry.timer.unref?.();
      }
    },
    stop: ({ platform }) => {
      const entry = running.get(platform);
      if (!entry) return;
      entry.unsubscribe();
      if (entry.timer) clearInterval(entry.timer);
      running.delete(platform);
    },
    conversationDeleted: async ({ conversationId, services }) => {
      const driver = driverFor(services);
      const pointer = await driver.records.pointer(conversationId);
      if (!pointer) return;
      for (const key of [...(pointer.value.older ?? []), pointer.value.key]) {
        await driver.records.unmarkLive(key);
        await driver.records.delete(key);
      }
      await driver.records.deletePointer(conversationId);
    },
  });
  runtime.plugin = plugin;
  return plugin;
}
