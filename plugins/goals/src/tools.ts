import { type AnyTool, createTool, type Platform, PlatformToken, type ToolInput } from '@tessera/core';
import { z } from 'zod';
import { endGoal } from './driver.ts';
import { allMet, markRecorded, missingCriteria, unrecorded, withProgress } from './goal-logic.ts';
import { MAX_PLAN, MAX_REASON } from './inputs.ts';
import { checkpointOf } from './output.ts';
import { runtimeOf } from './runtime.ts';
import { driverOf } from './service.ts';
import type { StoredGoal } from './types.ts';

/** The most a goal may wait with `goal.wait`. */
const MAX_WAIT_MINUTES = 30 * 24 * 60;

class GoalToolError extends Error {}

/**
 * Changes the conversation's active goal from a tool (compare-and-set), records a checkpoint of what changed
 * as the tool's output, and returns what the model reads.
 */
async function changeGoal(
  call: ToolInput<unknown>,
  change: (goal: StoredGoal, at: string) => StoredGoal,
): Promise<StoredGoal> {
  const runtime = runtimeOf(call.services);
  const driver = driverOf(call.services.resolve(PlatformToken), runtime);
  const result = await driver.change(call.conversationId, (goal) => {
    if (goal.userId !== call.userId || goal.state !== 'active') {
      throw new GoalToolError('This conversation has no active goal.');
    }
    return markRecorded(change(goal, runtime.iso()));
  });
  if (!result) throw new GoalToolError('This conversation has no goal.');
  return result.record.value;
}

async function emitCheckpoint(call: ToolInput<unknown>, before: number, goal: StoredGoal): Promise<void> {
  const fresh = goal.internal.entries - before;
  const entries = fresh > 0 ? goal.progress.slice(-Math.min(fresh, goal.progress.length)) : [];
  await call.emit(checkpointOf(goal, entries));
}

const updatePlan = createTool({
  id: 'goal.update_plan',
  description:
    "Records the goal's current plan (replacing the last one) and, optionally, what was done since the last update. Not work: it does not count as progress.",
  input: z.object({
    plan: z.string().trim().min(1).max(MAX_PLAN).describe('The plan from here, as short steps.'),
    progress: z.string().trim().min(1).max(MAX_REASON).optional().describe('What was done, with evidence.'),
  }),
  invoke: async (call) => {
    let before = 0;
    const goal = await changeGoal(call, (goal, at) => {
      before = goal.internal.entries - unrecorded(goal).length;
      const entries = [
        { at, promptId: call.promptId, kind: 'plan' as const, text: call.input.plan },
        ...(call.input.progress
          ? [{ at, promptId: call.promptId, kind: 'progress' as const, text: call.input.progress }]
          : []),
      ];
      return withProgress({ ...goal, plan: call.input.plan }, ...entries);
    });
    await emitCheckpoint(call, before, goal);
    return 'Plan recorded.';
  },
});

const complete = createTool({
  id: 'goal.complete',
  description:
    'Completes the goal, but only when every criterion already has evidence (a passing check, or a person’s confirmation); otherwise it fails and names the criteria still missing evidence.',
  input: z.object({ summary: z.string().trim().min(1).max(MAX_REASON).describe('What was achieved.') }),
  invoke: async (call) => {
    let before = 0;
    const goal = await changeGoal(call, (goal, at) => {
      before = goal.internal.entries - unrecorded(goal).length;
      if (!allMet(goal)) {
        const missing = missingCriteria(goal)
          .map(
            (c) =>
              `${c.id} “${c.description}” (${c.verify.kind === 'check' ? `run ${c.verify.toolId} and have it pass` : 'a person must confirm it'})`,
          )
          .join('; ');
        throw new GoalToolError(`The goal is not complete: no evidence yet for ${missing}.`);
      }
      return endGoal(goal, 'completed', `Completed: ${call.input.summary}`, at, call.promptId);
    });
    await emitCheckpoint(call, before, goal);
    return 'The goal is completed.';
  },
});

const blocked = createTool({
  id: 'goal.blocked',
  description:
    'Pauses the goal because something only a person can resolve blocks it (access, a decision, missing information). Say what is needed.',
  input: z.object({
    reason: z.string().trim().min(1).max(MAX_REASON).describe('What blocks the goal and what is needed.'),
  }),
  invoke: async (call) => {
    let before = 0;
    const goal = await changeGoal(call, (goal, at) => {
      before = goal.internal.entries - unrecorded(goal).length;
      const reason = `Blocked: ${call.input.reason}`;
      return withProgress(
        { ...goal, state: 'paused', pause: { kind: 'blocker', reason, promptId: call.promptId } },
        { at, promptId: call.promptId, kind: 'paused', text: reason },
      );
    });
    await emitCheckpoint(call, before, goal);
    return 'The goal is paused until a person resumes it. Tell the user what is needed, then stop.';
  },
});

const waitInput = z.object({
  minutes: z.number().int().min(1).max(MAX_WAIT_MINUTES).optional().describe('Wait this many minutes.'),
  until: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Or wait until this time (ISO 8601 with offset).'),
  reason: z.string().trim().min(1).max(MAX_REASON).describe('What the goal waits for.'),
});

/** A trigger that starts a prompt in the conversation at `wakeAt` (the triggers plugin's service). */
async function scheduleWake(call: ToolInput<unknown>, goal: StoredGoal, wakeAt: Date): Promise<string> {
  const { triggerService } = await import('@tessera/plugin-triggers');
  // Minute precision, rounded up, in UTC: the triggers' 'once' schedule takes a local date-time.
  const minute = new Date(Math.ceil(wakeAt.getTime() / 60_000) * 60_000);
  const trigger = await triggerService(call.services).create(
    {
      name: `Wake goal ${goal.id}`,
      instruction: `Resume the goal of this conversation (${goal.id}): check whether what it waited for has happened, then go on.`,
      schedule: { kind: 'once', at: minute.toISOString().slice(0, 16), timeZone: 'UTC' },
    },
    { userId: call.userId, conversationId: call.conversationId },
  );
  return trigger.id;
}

const wait = createTool({
  id: 'goal.wait',
  description:
    'Pauses the goal until a later time, when an outside condition may hold (a build, a reply, a date); the goal wakes by itself then. Give minutes or until, and the reason.',
  input: waitInput,
  invoke: async (call) => {
    const platform: Platform = call.services.resolve(PlatformToken);
    if (!platform.plugins.some((plugin) => plugin.id === 'triggers')) {
      throw new GoalToolError(
        'This app cannot wake a goal later (the triggers plugin is not installed): use goal.blocked to hand the wait to a person.',
      );
    }
    const runtime = runtimeOf(call.services);
    const now = runtime.now().getTime();
    const { minutes, until } = call.input;
    if ((minutes === undefined) === (until === undefined))
      throw new GoalToolError('Give exactly one of minutes and until.');
    const wakeMs = minutes !== undefined ? now + minutes * 60_000 : Date.parse(until as string);
    if (!(wakeMs > now) || wakeMs > now + MAX_WAIT_MINUTES * 60_000) {
      throw new GoalToolError('The wake-up time must be in the future, within 30 days.');
    }
    const driver = driverOf(platform, runtime);
    const current = await driver.records.ofConversation(call.conversationId);
    if (current?.value.state !== 'active' || current.value.userId !== call.userId) {
      throw new GoalToolError('This conversation has no active goal.');
    }
    const wakeAt = new Date(wakeMs);
    const triggerId = await scheduleWake(call, current.value, wakeAt);
    let before = 0;
    const goal = await changeGoal(call, (goal, at) => {
      before = goal.internal.entries - unrecorded(goal).length;
      const reason = `Waiting until ${wakeAt.toISOString()}: ${call.input.reason}`;
      return withProgress(
        {
          ...goal,
          state: 'paused',
          pause: { kind: 'waiting', reason, promptId: call.promptId, wakeAt: wakeAt.toISOString() },
          internal: { ...goal.internal, wakeTriggerId: triggerId },
        },
        { at, promptId: call.promptId, kind: 'paused', text: reason },
      );
    });
    await emitCheckpoint(call, before, goal);
    return `The goal waits until ${wakeAt.toISOString()} and wakes by itself then. Stop here.`;
  },
});

/** The tools offered while the conversation's goal is active. Not work: they never count as progress. */
export const goalTools: readonly AnyTool[] = [updatePlan, complete, blocked, wait];
