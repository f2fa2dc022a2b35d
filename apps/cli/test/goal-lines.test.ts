import { describe, expect, it } from 'vitest';
import type { TesseraClient } from '../src/client.ts';
import { type Goal, goalLines, listGoals, reachedBudgets, resumeBudgetOptions } from '../src/goals.ts';
import { parseGoalBudgets } from '../src/program.ts';
import type { Io } from '../src/render.ts';

const goal: Goal = {
  id: 'gol_1',
  conversationId: 'conv_1',
  objective: 'Get the tests green.',
  criteria: [
    {
      id: 'c1',
      description: 'Every test passes.',
      verify: { kind: 'check', toolId: 'tests.run' },
      evidence: { at: '2026-11-27T06:20:14.512Z', by: 'check', summary: '128 passed' },
    },
    {
      id: 'c2',
      description: 'Ada agrees.',
      verify: { kind: 'human' },
    },
    {
      id: 'c3',
      description: 'The linter is clean.',
      verify: { kind: 'check', toolId: 'lint.run' },
      lastCheck: { at: '2026-11-27T06:21:00.000Z', passed: false, summary: '2 warnings' },
    },
  ],
  budgets: { modelCalls: 40, cost: 1 },
  used: { modelCalls: 12, totalTokens: 48_210, cost: 0.25, prompts: 2, wallMs: 95_400 },
  stallLimit: 3,
  stalls: 1,
  state: 'active',
  plan: 'Run the tests, fix them.',
  progress: Array.from({ length: 10 }, (_, i) => ({
    at: `2026-11-27T06:${10 + i}:00.000Z`,
    kind: 'progress',
    text: `step ${i}`,
  })),
  createdAt: '2026-11-27T06:00:00.000Z',
  updatedAt: '2026-11-27T06:21:00.000Z',
};

describe('goalLines', () => {
  it('shows the objective, each criterion met or not with its evidence, the plan, budgets and the latest progress', () => {
    const text = goalLines(goal, 'tessera');
    expect(text).toContain('Goal gol_1  active  (1/3 criteria met)\nObjective: Get the tests green.\n');
    expect(text).toContain('  ✓ c1  Every test passes.  [check tests.run]\n');
    expect(text).toContain('      evidence (the check, 2026-11-27T06:20:14.512Z): 128 passed\n');
    expect(text).toContain('  ✗ c2  Ada agrees.  [you confirm]\n');
    expect(text).toContain('  ✗ c3  The linter is clean.  [check lint.run]\n');
    expect(text).toContain('      last check failed (2026-11-27T06:21:00.000Z): 2 warnings\n');
    expect(text).toContain('Plan: Run the tests, fix them.\n');
    expect(text).toContain('Budget: model calls 12/40 (28 left), cost 0.25/1.00 (0.75 left)\n');
    expect(text).toContain('Used: tokens 48,210, prompts 2, time 95 s\n');
    expect(text).toContain('Stalls: 1/3\n');
    // The latest 8 of 10 entries, oldest first.
    expect(text).toContain('Progress (latest 8 of 10):\n  2026-11-27T06:12:00.000Z  progress  step 2\n');
    expect(text).not.toContain('step 1\n');
    // What the user can do: pause, stop, confirm the criterion they verify.
    expect(text).toContain('   pause: tessera goal pause conv_1\n');
    expect(text).toContain('   confirm c2: tessera goal confirm conv_1 c2 --note "…"\n');
    expect(text).not.toContain('confirm c3');
  });

  it('says why a goal is paused or ended, and how to go on', () => {
    const paused = goalLines(
      { ...goal, state: 'paused', pause: { kind: 'approval', reason: 'A call waits for you.' } },
      'tessera',
    );
    expect(paused).toContain('Paused (approval: A call waits for you.)\n');
    expect(paused).toContain('   decide: tessera pending\n   resume: tessera goal resume conv_1\n');
    const out = { ...goal, state: 'budget_exhausted' as const, endReason: 'It used its 40 model calls.' };
    const exhausted = goalLines({ ...out, used: { ...goal.used, modelCalls: 40 } }, 'tessera');
    expect(exhausted).toContain('Out of budget: It used its 40 model calls.\n');
    expect(exhausted).toContain('   resume: tessera goal resume conv_1 --budget modelCalls=80\n');
    expect(exhausted).not.toContain('goal confirm');
    const done = goalLines({ ...goal, state: 'completed', endReason: 'Every criterion has evidence.' }, 'x');
    expect(done).toContain('Completed: Every criterion has evidence.\n');
    expect(done).not.toMatch(/pause:|resume:|stop:/);
  });
});

describe('budgets', () => {
  it('finds the budgets reached, and resumes with each doubled (above what was used)', () => {
    const used = { ...goal.used, modelCalls: 41, cost: 1.005 };
    expect(reachedBudgets({ budgets: goal.budgets, used })).toEqual(['modelCalls', 'cost']);
    expect(resumeBudgetOptions({ budgets: goal.budgets, used })).toBe(
      '--budget modelCalls=82 --budget cost=2.01',
    );
    expect(resumeBudgetOptions(goal)).toBe('');
  });

  it('reads --budget name=limit for a goal’s budgets only', () => {
    expect(parseGoalBudgets(['modelCalls=20', 'cost=1.5'])).toEqual({ modelCalls: 20, cost: 1.5 });
    expect(parseGoalBudgets([])).toBeUndefined();
    expect(() => parseGoalBudgets(['maxRounds=5'])).toThrow(
      "A goal has no budget 'maxRounds': its budgets are modelCalls, totalTokens, cost, prompts, wallMs.",
    );
    expect(() => parseGoalBudgets(['modelCalls'])).toThrow('--budget takes name=limit');
  });
});

describe('tessera goals --state', () => {
  it('reads on while the filtered pages hold fewer than asked, and stops at the number asked', async () => {
    const pages: Record<string, { items: Goal[]; nextCursor?: string }> = {
      '': { items: [], nextCursor: 'p2' }, // a page of other states: none kept, more follow
      p2: { items: [goal, { ...goal, id: 'gol_2' }], nextCursor: 'p3' },
      p3: { items: [{ ...goal, id: 'gol_3' }] },
    };
    const asked: string[] = [];
    const client = {
      request: async (_method: string, path: string) => {
        asked.push(path);
        return pages[new URL(path, 'http://x').searchParams.get('cursor') ?? ''];
      },
    } as unknown as TesseraClient;
    let written = '';
    const io: Io = {
      out: (text: string) => {
        written += text;
      },
      err: () => {},
      interactive: false,
      color: false,
      command: 'tessera',
    };
    await listGoals(client, io, { json: true }, { limit: 3, state: 'active' });
    expect((JSON.parse(written) as Goal[]).map((g) => g.id)).toEqual(['gol_1', 'gol_2', 'gol_3']);
    expect(asked).toEqual([
      '/api/goals?limit=200&state=active',
      '/api/goals?limit=200&state=active&cursor=p2',
      '/api/goals?limit=200&state=active&cursor=p3',
    ]);
    written = '';
    asked.length = 0;
    await listGoals(client, io, { json: true }, { limit: 1, state: 'active' });
    expect((JSON.parse(written) as Goal[]).map((g) => g.id)).toEqual(['gol_1']);
    expect(asked).toHaveLength(2);
  });
});
