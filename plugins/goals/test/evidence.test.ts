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
