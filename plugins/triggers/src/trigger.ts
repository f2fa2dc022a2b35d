import { z } from 'zod';
import { Schedule } from './schedule.ts';

/** What happens to fires missed while no scheduler ran: `skip` them, or fire `once` now. Never a burst. */
export const MissedFirePolicy = z.enum(['skip', 'once']);
export type MissedFirePolicy = z.infer<typeof MissedFirePolicy>;

/** `missed`: skipped after downtime; `not_started`: the prompt could not be started (see `message`). */
export const RunOutcome = z.enum(['started', 'completed', 'failed', 'cancelled', 'missed', 'not_started']);
export type RunOutcome = z.infer<typeof RunOutcome>;

/** One fire of a trigger: when it was due, when its prompt started, and how that prompt ended. */
export const TriggerRun = z.object({
  id: z.string(),
  scheduledFor: z.iso.datetime(),
  startedAt: z.iso.datetime().optional(),
  promptId: z.string().optional(),
  outcome: RunOutcome,
  message: z.string().optional(),
  /** Further fires that came due while this one was queued, merged into it. */
  coalesced: z.number().int().positive().optional(),
});
export type TriggerRun = z.infer<typeof TriggerRun>;

/** A claimed fire waiting for its conversation to be free. There is at most one: later fires merge in. */
export const QueuedFire = z.object({
  scheduledFor: z.iso.datetime(),
  queuedAt: z.iso.datetime(),
  coalesced: z.number().int().nonnegative(),
});
export type QueuedFire = z.infer<typeof QueuedFire>;

export const TriggerStatus = z.enum(['active', 'paused', 'ended']);
export type TriggerStatus = z.infer<typeof TriggerStatus>;

/** A trigger as stored in the platform's record store. */
export const Trigger = z.object({
  id: z.string(),
  userId: z.string(),
  conversationId: z.string(),
  name: z.string(),
  /** What the agent should do when it fires. */
  instruction: z.string(),
  schedule: Schedule,
  missedFires: MissedFirePolicy,
  /** No fire after this instant. */
  endAt: z.iso.datetime().optional(),
  /** No more than this many runs. */
  maxRuns: z.number().int().positive().optional(),
  status: TriggerStatus,
  /** The next fire to claim; absent once the schedule has none left (or while paused). */
  nextFireAt: z.iso.datetime().optional(),
  queued: QueuedFire.optional(),
  /** Prompts started so far. */
  runCount: z.number().int().nonnegative(),
  lastFireAt: z.iso.datetime().optional(),
  lastOutcome: RunOutcome.optional(),
  /** The most recent runs, oldest first (bounded). */
  runs: z.array(TriggerRun),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Trigger = z.infer<typeof Trigger>;
