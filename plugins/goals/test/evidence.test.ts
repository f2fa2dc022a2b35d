import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { continuationId } from '../src/index.ts';
import { callsOf, settled, setup, until } from './helpers.ts';

describe('completion needs evidence', () => {
  it('completes only after the passing check: a failing check first is logged, not evidence', async () => {
    const t = await setup({
      script: [
        // turn 1: work, then the check fails; the model claims success, which completes nothing
        callTool('work.do', { step: 'first' }),
        callTool('check.tests'),
        callTool('goal.complete', { summary: 'All done!' }),
        reply('I think it is done.'),
        // turn 2: more work, the check passes, completes
        (request) => {
          expect(request.instructions).toContain('NOT MET (last check failed');
          return callTool('work.do', { step: 'fix' });
        },
        () => {
          t.checks.pass = true;
          return callTool('check.tests');
        },
        callTool('goal.complete', { summary: 'Tests pass.' }),
        reply('Done: the tests pass.'),
      ],
    });
    const created = await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Make the tests pass',
      criteria: [{ description: 'The test suite passes', verify: { kind: 'check', toolId: 'check.tests' } }],
    });
    expect(created).toMatchObject({ state: 'active', turn: 1, criteria: [{ id: 'c1' }] });
    await settled(t.goal, t.prompts, ['completed']);
    const goal = await until(async () => {
      const goal = await t.goal();
      return goal.used.prompts === 2 && goal;
    });
    const prompts = await t.prompts();
    expect(prompts.map((p) => p.id)).toEqual([continuationId(goal.id, 1), continuationId(goal.id, 2)]);
    // The model's word in turn 1 was refused, naming the criterion.
    const refused = prompts[0]!.output.find((o) => o.type === 'tool' && o.toolId === 'goal.complete');
    expect(refused).toMatchObject({ result: { type: 'error' } });
    expect(JSON.stringify(refused)).toContain('c1');
    expect(goal.criteria[0]!.evidence).toMatchObject({ by: 'check', promptId: prompts[1]!.id });
    expect(goal.progress.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['check_failed', 'evidence', 'completed']),
    );
    expect(goal.progress.findIndex((e) => e.kind === 'check_failed')).toBeLessThan(
      goal.progress.findIndex((e) => e.kind === 'evidence'),
    );
    expect(goal.used).toMatchObject({ modelCalls: 8, prompts: 2 });
    expect(callsOf(prompts)).toEqual([
      'work.do',
      'check.tests',
      'goal.complete',
      'work.do',
      'check.tests',
      'goal.complete',
    ]);
    // Checkpoints in the record: one at each prompt's start, one from each goal tool.
    const checkpoints = prompts.flatMap((p) => p.output.filter((o) => o.type === 'goal-checkpoint'));
    expect(checkpoints.at(-1)).toMatchObject({ state: 'completed', criteria: [{ id: 'c1', met: true }] });
    await t.platform.close();
  });
});

describe("the goal's summary in the instructions", () => {
  it('is bounded however large the goal, and says what is met, the plan and the budget', async () => {
    const t = await setup({
      script: [
        callTool('goal.update_plan', { plan: 'p'.repeat(8_000), progress: 'q'.repeat(2_000) }),
        reply('Planned.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'o'.repeat(4_000),
      criteria: Array.from({ length: 20 }, (_, i) => ({ description: `${i} ${'d'.repeat(995)}` })),
      budgets: { modelCalls: 999 },
    });
    await until(async () => (await t.prompts())[0]?.state === 'completed' || undefined);
    await t.goals.stop(t.conversation.id, t.userId);
    const instructions = t.model.requests[1]!.instructions;
    const summary = instructions.slice(instructions.indexOf('# Goal of this conversation'));
    expect(summary.length).toBeLessThanOrEqual(8_000);
    expect(summary).toContain('- c1 [NOT MET] 0 ddd');
    expect(summary).toContain('Plan: pppp');
    expect(summary).toContain('progress: qqqq');
    expect(summary).toContain('Budget used: modelCalls 0 of 999');
    expect(summary).toContain('Your word alone never completes the goal.');
    await t.platform.close();
  });
});
