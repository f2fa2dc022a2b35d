import { newId } from '@tessera/core';
import { nextOccurrence } from './schedule.ts';
import { iso } from './time.ts';
import type { QueuedFire, RunOutcome, Trigger, TriggerRun } from './trigger.ts';

/**
 * The state changes of a trigger as it fires, as pure functions: the scheduler writes each result with a
 * compare-and-set, so whichever scheduler writes first owns the fire.
 */

export type FirePolicy = {
  /** A fire this late (ms) counts as missed (the scheduler was down) and follows the trigger's policy. */
  lateGraceMs: number;
  /** Runs kept in a trigger's history. */
  historyLimit: number;
};

type Ends = Pick<Trigger, 'schedule' | 'endAt' | 'maxRuns'>;

/** The next fire strictly after `after` that the trigger's end (date, number of runs) still allows. */
export function nextFireAfter(trigger: Ends, after: number, runsSoFar: number): string | undefined {
  if (trigger.maxRuns !== undefined && runsSoFar >= trigger.maxRuns) return undefined;
  const next = nextOccurrence(trigger.schedule, after);
  if (next === undefined || (trigger.endAt && next > Date.parse(trigger.endAt))) return undefined;
  return iso(next);
}

/** Sets what follows from the rest: the status, and no empty optional fields left behind. */
export function settle(trigger: Trigger, now: number): Trigger {
  const { nextFireAt, queued, ...rest } = trigger;
  const status = trigger.status === 'paused' ? 'paused' : nextFireAt || queued ? 'active' : 'ended';
  return {
    ...rest,
    ...(nextFireAt && { nextFireAt }),
    ...(queued && { queued }),
    status,
    updatedAt: iso(now),
  };
}

const withRun = (runs: readonly TriggerRun[], run: TriggerRun, limit: number) => [...runs, run].slice(-limit);

/**
 * Claims the due fire: advances `nextFireAt` past `now` (so a long outage never causes a burst) and
 * queues the fire, merging it into one already queued. A fire later than the grace period under the
 * `skip` policy is recorded as missed instead.
 */
export function claimDue(trigger: Trigger, now: number, policy: FirePolicy): Trigger {
  const scheduledFor = trigger.nextFireAt!;
  const late = now - Date.parse(scheduledFor) > policy.lateGraceMs;
  if (late && trigger.missedFires === 'skip') {
    const missed: TriggerRun = {
      id: newId('run'),
      scheduledFor,
      outcome: 'missed',
      message: 'Skipped: no scheduler was running at that time.',
    };
    const runsSoFar = trigger.runCount + (trigger.queued ? 1 : 0);
    return settle(
      {
        ...trigger,
        nextFireAt: nextFireAfter(trigger, now, runsSoFar),
        runs: withRun(trigger.runs, missed, policy.historyLimit),
        lastOutcome: 'missed',
      },
      now,
    );
  }
  const queued: QueuedFire = trigger.queued
    ? { ...trigger.queued, coalesced: trigger.queued.coalesced + 1 }
    : { scheduledFor, queuedAt: iso(now), coalesced: 0 };
  return settle({ ...trigger, nextFireAt: nextFireAfter(trigger, now, trigger.runCount + 1), queued }, now);
}

/**
 * Takes the queued fire for starting: it becomes a run, `started`, with the id its prompt will have. The id is
 * chosen here, in the same write that claims the fire, so a scheduler that finds the run without its prompt
 * (the process that claimed it stopped first) can start it with that id, and never twice.
 */
export function takeQueued(
  trigger: Trigger,
  now: number,
  run: { id: string; promptId: string },
  policy: FirePolicy,
): Trigger {
  const { scheduledFor, coalesced } = trigger.queued!;
  const started: TriggerRun = {
    id: run.id,
    promptId: run.promptId,
    scheduledFor,
    startedAt: iso(now),
    outcome: 'started',
    ...(coalesced > 0 && { coalesced }),
  };
  return settle(
    {
      ...trigger,
      queued: undefined,
      runCount: trigger.runCount + 1,
      lastFireAt: iso(now),
      lastOutcome: 'started',
      runs: withRun(trigger.runs, started, policy.historyLimit),
    },
    now,
  );
}

/** Puts a run whose prompt could not start (the conversation became busy) back in the queue. */
export function requeue(trigger: Trigger, runId: string, now: number): Trigger | undefined {
  const run = trigger.runs.find((r) => r.id === runId);
  if (!run) return undefined;
  const own = run.coalesced ?? 0;
  const queued: QueuedFire = trigger.queued
    ? { ...trigger.queued, scheduledFor: run.scheduledFor, coalesced: trigger.queued.coalesced + own + 1 }
    : { scheduledFor: run.scheduledFor, queuedAt: run.startedAt ?? iso(now), coalesced: own };
  const runs = trigger.runs.filter((r) => r.id !== runId);
  return settle(
    {
      ...trigger,
      queued,
      runs,
      runCount: trigger.runCount - 1,
      lastOutcome: runs.at(-1)?.outcome,
    },
    now,
  );
}

/** Records what became of a run: its prompt id, and how that prompt ended. */
export function updateRun(
  trigger: Trigger,
  runId: string,
  change: { promptId?: string; outcome?: RunOutcome; message?: string },
  now: number,
): Trigger | undefined {
  const index = trigger.runs.findIndex((r) => r.id === runId);
  if (index < 0) return undefined;
  const run = trigger.runs[index]!;
  // A final outcome that arrived first is not overwritten by a late `started`.
  const outcome = change.outcome && run.outcome === 'started' ? change.outcome : run.outcome;
  const updated: TriggerRun = {
    ...run,
    ...(change.promptId && { promptId: change.promptId }),
    ...(change.message && { message: change.message }),
    outcome,
  };
  const runs = trigger.runs.with(index, updated);
  const latest = index === runs.length - 1;
  return settle({ ...trigger, runs, ...(latest && { lastOutcome: outcome }) }, now);
}

/** Ends a trigger that can no longer run (its conversation is gone), saying why in its history. */
export function endTrigger(trigger: Trigger, message: string, now: number, policy: FirePolicy): Trigger {
  const run: TriggerRun = {
    id: newId('run'),
    scheduledFor: trigger.queued?.scheduledFor ?? trigger.nextFireAt ?? iso(now),
    outcome: 'not_started',
    message,
  };
  return settle(
    {
      ...trigger,
      status: 'ended',
      nextFireAt: undefined,
      queued: undefined,
      lastOutcome: 'not_started',
      runs: withRun(trigger.runs, run, policy.historyLimit),
    },
    now,
  );
}
