import { describe, expect, it } from 'vitest';
import { claimDue, requeue, takeQueued } from '../src/firing.ts';
import type { Trigger } from '../src/index.ts';

const policy = { lateGraceMs: 60_000, historyLimit: 20 };
const at = (time: string) => Date.parse(`2026-11-22T${time}:00Z`);

const hourly: Trigger = {
  id: 'trg_1',
  userId: 'ana',
  conversationId: 'conv_1',
  name: 'Hourly',
  instruction: 'Check.',
  schedule: { kind: 'interval', everyMinutes: 60, startAt: '2026-11-22T10:00:00.000Z', timeZone: 'UTC' },
  missedFires: 'skip',
  status: 'active',
  nextFireAt: '2026-11-22T10:00:00.000Z',
  runCount: 0,
  runs: [],
  createdAt: '2026-11-22T09:00:00.000Z',
  updatedAt: '2026-11-22T09:00:00.000Z',
};

describe('the state of a firing trigger', () => {
  it('claiming advances the next fire and merges fires that pile up into the queued one', () => {
    const first = claimDue(hourly, at('10:00'), policy);
    expect(first).toMatchObject({
      nextFireAt: '2026-11-22T11:00:00.000Z',
      queued: { scheduledFor: '2026-11-22T10:00:00.000Z', coalesced: 0 },
    });
    const second = claimDue(first, at('11:00'), policy);
    expect(second).toMatchObject({
      nextFireAt: '2026-11-22T12:00:00.000Z',
      queued: { scheduledFor: '2026-11-22T10:00:00.000Z', coalesced: 1 },
    });
  });

  it('a run that could not start goes back to the queue, merged with a newer fire', () => {
    const taken = takeQueued(
      claimDue(hourly, at('10:00'), policy),
      at('10:00'),
      { id: 'run_1', promptId: 'prm_1' },
      policy,
    );
    expect(taken).toMatchObject({ runCount: 1, runs: [{ id: 'run_1', outcome: 'started' }] });
    expect(taken.queued).toBeUndefined();

    const newer = claimDue(taken, at('11:00'), policy);
    const back = requeue(newer, 'run_1', at('11:00'));
    expect(back).toMatchObject({
      runCount: 0,
      runs: [],
      queued: { scheduledFor: '2026-11-22T10:00:00.000Z', coalesced: 1 },
    });
  });

  it('a fire missed by much more than the grace period is recorded, not run, under skip', () => {
    const late = claimDue(hourly, at('13:30'), policy);
    expect(late.queued).toBeUndefined();
    expect(late.nextFireAt).toBe('2026-11-22T14:00:00.000Z');
    expect(late.runs).toEqual([expect.objectContaining({ outcome: 'missed' })]);
    expect(claimDue({ ...hourly, missedFires: 'once' }, at('13:30'), policy).queued).toMatchObject({
      scheduledFor: '2026-11-22T10:00:00.000Z',
    });
  });
});
