import { definePlugin } from '@tessera/core';
import { doomLoopPlugin } from '@tessera/plugin-doom-loop';
import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { continuationId, type goalService } from '../src/index.ts';
import { settled, setup, until } from './helpers.ts';

const tests = { kind: 'check' as const, toolId: 'check.tests' };

describe('the platform drives a goal', () => {
  it('a model that answers nothing stops at the stall limit instead of being prompted forever', async () => {
    const t = await setup({ script: Array.from({ length: 3 }, () => reply('Paused. No action.')) });
    const created = await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
      stallLimit: 3,
    });
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal.pause).toMatchObject({ kind: 'stall', promptId: continuationId(created.id, 3) });
    expect(goal.pause?.reason).toContain('No progress in 3 prompts');
    expect(goal.stalls).toBe(3);
    expect(t.model.requests).toHaveLength(3);
    expect((await t.prompts()).map((p) => p.id)).toEqual([1, 2, 3].map((n) => continuationId(created.id, n)));
    expect(goal.progress.filter((e) => e.kind === 'stall')).toHaveLength(3);
    // Resuming resets the count: three more empty prompts before it pauses again, not one.
    t.model.push(reply('Still nothing.'), reply('Still nothing.'), reply('Still nothing.'));
    const resumed = await t.goals.resume(t.conversation.id, t.userId);
    expect(resumed).toMatchObject({ state: 'active', stalls: 0, turn: 4 });
    const again = await settled(t.goal, t.prompts, ['paused']);
    expect(again).toMatchObject({ turn: 6, stalls: 3, pause: { kind: 'stall' } });
    expect(t.model.requests).toHaveLength(6);
    await t.platform.close();
  });

  it('work resets the stall count: a prompt that does work is progress', async () => {
    const t = await setup({
      script: [
        reply('Thinking.'),
        callTool('work.do'),
        reply('Worked.'),
        reply('Thinking again.'),
        reply('Still thinking.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
      stallLimit: 2,
    });
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal.pause?.kind).toBe('stall');
    expect(goal.turn).toBe(4); // 1 stall, 2 work, 3 and 4 stalls
    await t.platform.close();
  });

  it('a paused goal gets no continuation, even one already started or queued before the pause', async () => {
    const t = await setup({
      script: [
        // turn 1 works; the user pauses while its tool runs: its next round is stopped
        callTool('work.do'),
      ],
    });
    t.checks.duringWork = () => t.goals.pause(t.conversation.id, t.userId, 'Hold on.');
    const created = await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
    });
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal.pause).toMatchObject({ kind: 'user', reason: 'Hold on.' });
    const [first] = await t.prompts();
    expect(first).toMatchObject({
      id: continuationId(created.id, 1),
      stopReason: { code: 'stopped_by_plugin' },
    });
    expect(t.model.requests).toHaveLength(1);

    // A continuation of the current turn that a process started just before the pause (or found queued in
    // the store) runs without calling the model.
    const stale = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      promptId: 'prm_stale_continuation',
      input: 'Continue',
      metadata: { goal: { id: created.id, turn: goal.turn } },
    });
    const ended = await stale.done;
    expect(ended.state).toBe('completed');
    expect(ended.output.find((o) => o.type === 'text')).toMatchObject({
      text: expect.stringContaining('Goal continuation not run'),
    });
    expect(t.model.requests).toHaveLength(1);
    expect(await t.goal()).toMatchObject({ state: 'paused', turn: goal.turn });

    // Resumed: the next turn runs (the model declares a blocker in it, which pauses the goal again).
    t.model.push(callTool('goal.blocked', { reason: 'I need the staging password.' }), reply('Blocked.'));
    const resumed = await t.goals.resume(t.conversation.id, t.userId);
    const blocked = await settled(t.goal, t.prompts, ['paused']);
    expect(blocked.pause).toMatchObject({
      kind: 'blocker',
      reason: 'Blocked: I need the staging password.',
      promptId: continuationId(created.id, resumed.turn),
    });
    expect(t.model.requests).toHaveLength(3);
    await t.platform.close();
  });

  it('a continuation that was started when the pause came is fenced before its first model call', async () => {
    // The user pauses the goal once turn 2's prompt has started, before the model is called for it (a hook
    // of another plugin awaits the pause, so it lands exactly there).
    let goals: ReturnType<typeof goalService> | undefined;
    const pauser = definePlugin({
      id: 'pauser',
      hooks: {
        beforeFirstModelCall: async ({ prompt, conversationId, userId }) => {
          if (prompt.id.endsWith('_t2')) await goals?.pause(conversationId, userId, 'Stop after turn 1.');
        },
      },
    });
    const t = await setup({ plugins: [pauser], script: [callTool('work.do'), reply('Turn 1 done.')] });
    goals = t.goals;
    const created = await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
    });
    const prompts = await until(async () => {
      const all = await t.prompts();
      return all.length === 2 && all.every((p) => p.state === 'completed') && all;
    });
    expect(prompts[1]!.id).toBe(continuationId(created.id, 2));
    expect(prompts[1]!.output.find((o) => o.type === 'text')).toMatchObject({
      text: expect.stringContaining('Goal continuation not run'),
    });
    expect(t.model.requests).toHaveLength(2);
    const goal = await t.goal();
    expect(goal).toMatchObject({
      state: 'paused',
      turn: 2,
      pause: { kind: 'user', reason: 'Stop after turn 1.' },
    });
    await t.platform.close();
  });

  it('a goal budget ends it with a clear reason; resuming with a larger one continues', async () => {
    const t = await setup({ script: Array.from({ length: 12 }, () => callTool('work.do')) });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
      budgets: { modelCalls: 3 },
    });
    const goal = await settled(t.goal, t.prompts, ['budget_exhausted']);
    expect(goal.endReason).toBe("The goal's budget of model calls is used up: 3 of 3.");
    expect(goal.used.modelCalls).toBe(3);
    expect(t.model.requests).toHaveLength(3);
    // Not with the same budget, nor a smaller one.
    await expect(t.goals.resume(t.conversation.id, t.userId)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(
      t.goals.resume(t.conversation.id, t.userId, { budgets: { modelCalls: 3 } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(t.goals.pause(t.conversation.id, t.userId)).rejects.toMatchObject({ code: 'conflict' });
    const resumed = await t.goals.resume(t.conversation.id, t.userId, { budgets: { modelCalls: 5 } });
    expect(resumed).toMatchObject({ state: 'active', budgets: { modelCalls: 5 } });
    const again = await settled(t.goal, t.prompts, ['budget_exhausted']);
    expect(again.used.modelCalls).toBe(5);
    expect(t.model.requests).toHaveLength(5);
    await t.platform.close();
  });

  it("a user's message sent mid-goal is answered before the next continuation", async () => {
    const t = await setup({
      script: [
        callTool('work.do'),
        reply('Turn 1 done.'),
        (request) => {
          expect(JSON.stringify(request.messages)).toContain('What are you doing?');
          return reply('Working on the goal.');
        },
        () => {
          t.checks.pass = true;
          return callTool('check.tests');
        },
        reply('Tests pass.'),
      ],
    });
    t.checks.duringWork = () => t.message('What are you doing?', 'queue');
    const created = await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
    });
    const goal = await settled(t.goal, t.prompts, ['completed']);
    const prompts = await t.prompts();
    expect(prompts.map((p) => p.input)).toEqual([
      expect.stringContaining('Continue working on the goal (turn 1)'),
      'What are you doing?',
      expect.stringContaining('Continue working on the goal'),
    ]);
    expect(prompts[0]!.id).toBe(continuationId(created.id, 1));
    expect(goal.criteria[0]!.evidence?.promptId).toBe(prompts[2]!.id);
    await t.platform.close();
  });

  it('a call waiting for approval pauses the goal, naming it; the decision resumes it', async () => {
    const t = await setup({
      script: [
        callTool('ops.deploy'),
        reply('Deployed.'),
        () => {
          t.checks.pass = true;
          return callTool('check.tests');
        },
        reply('Done.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Deploy',
      criteria: [{ description: 'Tests pass after the deploy', verify: tests }],
    });
    const paused = await settled(t.goal, t.prompts, ['paused']);
    const [waiting] = await t.prompts();
    const call = t.pendingCall(waiting!);
    expect(paused.pause).toMatchObject({ kind: 'approval', promptId: waiting!.id });
    expect(paused.pause?.reason).toContain('ops.deploy');
    expect(paused.pause?.reason).toContain(call.id);
    await t.approve(call.id);
    const goal = await settled(t.goal, t.prompts, ['completed']);
    expect(goal.progress.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['paused', 'resumed', 'evidence', 'completed']),
    );
    await t.platform.close();
  });

  it('a doom-loop pause pauses the goal with kind doom_loop', async () => {
    const t = await setup({
      plugins: [doomLoopPlugin({ repeats: 2 })],
      script: [callTool('work.do', { step: 'same' }), callTool('work.do', { step: 'same' }), reply('x')],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: tests }],
    });
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal.pause?.kind).toBe('doom_loop');
    await t.platform.close();
  });
});

describe('a prompt cancelled while the goal waits for it', () => {
  it('leaves the goal paused, saying so', async () => {
    const t = await setup({ script: [callTool('ops.deploy')] });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Deploy',
      criteria: [{ description: 'Deployed' }],
    });
    await settled(t.goal, t.prompts, ['paused']);
    const [waiting] = await t.prompts();
    await t.platform.cancel(waiting!.id, { userId: t.userId });
    const goal = await until(async () => {
      const goal = await t.goal();
      return goal.pause?.kind === 'user' && goal;
    });
    expect(goal).toMatchObject({
      state: 'paused',
      pause: { reason: `Prompt ${waiting!.id} was cancelled while it waited.` },
    });
    expect(await t.prompts()).toHaveLength(1);
    await t.platform.close();
  });
});
