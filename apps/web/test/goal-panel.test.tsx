import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Output, Prompt } from '../src/api.ts';
import { GoalBar } from '../src/goals/GoalBar.tsx';
import { GoalCheckpointView } from '../src/goals/GoalCheckpointView.tsx';
import { GoalPanel, GoalView } from '../src/goals/GoalPanel.tsx';
import { raisedBudgets } from '../src/goals/goal-format.ts';
import type { CriterionInput, Goal, GoalApi } from '../src/goals/goal-types.ts';
import { useGoal } from '../src/goals/use-goal.ts';
import { goalVersionOf } from '../src/goals/use-goal-panel.tsx';
import { OutputView } from '../src/outputs/OutputView.tsx';

type PanelApi = GoalApi & { tools: (id: string) => Promise<{ id: string }[]> };

/** The panel as the conversation mounts it: the goal loaded by useGoal at each version. */
function Panel({ api, version }: { api: PanelApi; version: number }) {
  const handle = useGoal(api, 'cnv_1', version);
  return <GoalPanel api={api} conversationId="cnv_1" handle={handle} />;
}

afterEach(cleanup);

const at = '2026-01-01T10:00:00.000Z';
const goalOf = (over: Partial<Goal> = {}): Goal => ({
  id: 'gol_1',
  conversationId: 'cnv_1',
  userId: 'ada',
  objective: 'Clean the records of 2024',
  criteria: [
    {
      id: 'c1',
      description: 'The old records are deleted',
      verify: { kind: 'check', toolId: 'demo.count_records' },
      evidence: { at, by: 'check', summary: '0 records left from 2024' },
    },
    { id: 'c2', description: 'Ada agrees it is clean', verify: { kind: 'human' } },
  ],
  budgets: { modelCalls: 20, cost: 1 },
  used: { modelCalls: 5, totalTokens: 1200, cost: 0.25, prompts: 2, wallMs: 30_000 },
  stallLimit: 3,
  stalls: 0,
  state: 'active',
  plan: '1. list the records\n2. delete them',
  progress: [
    { at, kind: 'plan', text: 'first entry' },
    { at, kind: 'progress', text: 'second entry' },
    { at, kind: 'evidence', text: 'third entry' },
  ],
  turn: 2,
  version: 4,
  createdAt: at,
  updatedAt: at,
  ...over,
});

const actions = () => ({
  pause: vi.fn(async () => {}),
  resume: vi.fn(async (_budgets?: unknown) => {}),
  stop: vi.fn(async () => {}),
  confirm: vi.fn(async (_id: string, _note?: string) => {}),
  revise: vi.fn(async (_draft: unknown) => {}),
});

describe('the goal view', () => {
  it('resumes a goal its user paused', async () => {
    const act = actions();
    render(
      <GoalView
        goal={goalOf({ state: 'paused', pause: { kind: 'user', reason: 'Paused by ada' } })}
        actions={act}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Paused by youPaused by ada');
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(act.resume).toHaveBeenCalledWith());
  });

  it('shows an active goal: objective, criteria with evidence, plan, meters, the log newest first, its actions', () => {
    const act = actions();
    render(<GoalView goal={goalOf()} actions={act} />);
    expect(screen.getByText('Clean the records of 2024')).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText('1 of 2 criteria met')).toBeTruthy();
    const criteria = within(screen.getByRole('list', { name: 'Criteria' })).getAllByRole('listitem');
    expect(criteria[0]?.textContent).toContain('Met: The old records are deleted');
    expect(criteria[0]?.textContent).toContain('Checked by tool demo.count_records');
    expect(criteria[0]?.textContent).toContain('0 records left from 2024');
    expect(criteria[1]?.textContent).toContain('Not met: Ada agrees it is clean');
    expect(criteria[1]?.textContent).toContain('Confirmed by a person');
    // A person's criterion, unmet: Confirm; a tool's: none.
    expect(
      within(criteria[1]!).getByRole('button', { name: 'Confirm: Ada agrees it is clean' }),
    ).toBeTruthy();
    expect(within(criteria[0]!).queryByRole('button')).toBeNull();
    expect(screen.getByText(/1\. list the records/)).toBeTruthy();
    // The budgets with a limit, as meters: used of limit, and what is left.
    const modelCalls = screen.getByRole('meter', { name: 'Model calls used' });
    expect([modelCalls.getAttribute('value'), modelCalls.getAttribute('max')]).toEqual(['5', '20']);
    expect(screen.getByText('5 of 20 · 15 left')).toBeTruthy();
    expect(screen.getByText('$0.250 of $1.00 · $0.750 left')).toBeTruthy();
    expect(screen.queryByRole('meter', { name: 'Tokens used' })).toBeNull();
    const log = within(screen.getByRole('list', { name: 'Progress, newest first' })).getAllByRole('listitem');
    expect(log.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'third entry',
      'second entry',
      'first entry',
    ]);
    const buttons = screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual(['Confirm', 'Pause', 'Revise', 'Stop']);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(act.pause).toHaveBeenCalledOnce();
  });

  it('says a pause for approval, and points at the call to decide', () => {
    const onShowCall = vi.fn();
    render(
      <GoalView
        goal={goalOf({
          state: 'paused',
          pause: { kind: 'approval', reason: 'demo.delete_records needs your approval', promptId: 'prm_9' },
        })}
        actions={actions()}
        onShowCall={onShowCall}
      />,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Waiting for your approval');
    expect(status.textContent).toContain('demo.delete_records needs your approval');
    fireEvent.click(within(status).getByRole('button', { name: 'Show the call to decide' }));
    expect(onShowCall).toHaveBeenCalledWith('prm_9');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Show the call to decide',
      'Confirm',
      'Revise',
      'Stop',
    ]);
  });

  it('stops only once confirmed', async () => {
    const act = actions();
    render(<GoalView goal={goalOf()} actions={act} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(act.stop).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop the goal' }));
    await waitFor(() => expect(act.stop).toHaveBeenCalledOnce());
  });

  it('confirms a person’s criterion with a note, and shows the server’s refusal', async () => {
    const act = actions();
    act.confirm.mockRejectedValueOnce(new Error('The goal is not live.'));
    render(<GoalView goal={goalOf()} actions={act} />);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Ada agrees it is clean' }));
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: 'Looked at it' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm it is met' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The goal is not live.');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm it is met' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Confirm it is met' })).toBeNull());
    expect(act.confirm.mock.calls).toEqual([
      ['c2', 'Looked at it'],
      ['c2', 'Looked at it'],
    ]);
  });

  it('resumes a goal out of budget with larger budgets, the reached ones doubled and editable', async () => {
    const act = actions();
    const goal = goalOf({
      state: 'budget_exhausted',
      endReason: 'It used its 20 model calls.',
      used: { modelCalls: 20, totalTokens: 1200, cost: 0.25, prompts: 4, wallMs: 30_000 },
    });
    expect(raisedBudgets(goal)).toEqual({ modelCalls: 40, cost: 1 });
    render(<GoalView goal={goal} actions={act} />);
    expect(screen.getByRole('status').textContent).toContain('It used its 20 model calls.');
    expect(screen.getByText('20 of 20 · none left')).toBeTruthy();
    // Out of budget is not live: no pause, stop, revise or confirm.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Resume with a larger budget']);
    fireEvent.click(screen.getByRole('button', { name: 'Resume with a larger budget' }));
    const form = screen.getByRole('form', { name: 'Resume with a larger budget' });
    const calls = within(form).getByLabelText(/Model calls/) as HTMLInputElement;
    expect(calls.value).toBe('40');
    fireEvent.change(calls, { target: { value: '50' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(act.resume).toHaveBeenCalledWith({ modelCalls: 50, cost: 1 }));
  });

  it('says how an ended goal ended and offers a new goal', () => {
    const onNewGoal = vi.fn();
    render(
      <GoalView
        goal={goalOf({ state: 'completed', endReason: 'Every criterion has its evidence.' })}
        actions={actions()}
        onNewGoal={onNewGoal}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('CompletedEvery criterion has its evidence.');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['New goal']);
    fireEvent.click(screen.getByRole('button', { name: 'New goal' }));
    expect(onNewGoal).toHaveBeenCalledOnce();
  });

  it('revises the objective, criteria and budgets in a form filled with the goal', async () => {
    const act = actions();
    render(<GoalView goal={goalOf()} actions={act} tools={['demo.count_records', 'demo.echo']} />);
    fireEvent.click(screen.getByRole('button', { name: 'Revise' }));
    const form = screen.getByRole('form', { name: 'Revise the goal' });
    expect((within(form).getByLabelText('Objective') as HTMLTextAreaElement).value).toBe(
      'Clean the records of 2024',
    );
    expect((within(form).getByLabelText('How criterion 1 is verified') as HTMLSelectElement).value).toBe(
      'demo.count_records',
    );
    fireEvent.change(within(form).getByLabelText('Objective'), { target: { value: 'Clean 2023 too' } });
    fireEvent.change(within(form).getByLabelText('Time (minutes)'), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(act.revise).toHaveBeenCalledOnce());
    expect(act.revise.mock.calls[0]?.[0]).toEqual({
      objective: 'Clean 2023 too',
      criteria: [
        {
          description: 'The old records are deleted',
          verify: { kind: 'check', toolId: 'demo.count_records' },
        },
        { description: 'Ada agrees it is clean', verify: { kind: 'human' } },
      ],
      budgets: { modelCalls: 20, cost: 1, wallMs: 120_000 },
      stallLimit: 3,
    });
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
  });
});

/** A fake of the goal routes: no goal at first; created, then changed by the calls. */
function fakeApi(initial?: Goal) {
  let goal = initial;
  const set = (next: Goal) => {
    goal = next;
    return next;
  };
  const api: PanelApi = {
    goal: vi.fn(async () => goal),
    createGoal: vi.fn(async (_id, input) =>
      set(
        goalOf({
          objective: input.objective,
          criteria: input.criteria.map((c: CriterionInput, i: number) => ({
            id: `c${i + 1}`,
            description: c.description,
            verify: c.verify ?? { kind: 'human' },
          })),
          budgets: input.budgets ?? {},
          progress: [],
          plan: undefined,
        }),
      ),
    ),
    reviseGoal: vi.fn(),
    pauseGoal: vi.fn(async () =>
      set({ ...goal!, state: 'paused', pause: { kind: 'user', reason: 'Paused by ada' } }),
    ),
    resumeGoal: vi.fn(),
    stopGoal: vi.fn(),
    confirmCriterion: vi.fn(),
    tools: vi.fn(async () => [{ id: 'demo.count_records' }, { id: 'demo.delete_records' }]),
  };
  return { api, change: (next: Goal) => set(next) };
}

describe('the goal panel', () => {
  it('offers to set a goal, creates one from the form, and shows it', async () => {
    const { api } = fakeApi();
    vi.mocked(api.tools).mockResolvedValue([
      { id: 'demo.count_records' },
      { id: 'goal.update_plan' },
      { id: 'demo.delete_records' },
    ]);
    render(<Panel api={api} version={0} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set a goal' }));
    const form = screen.getByRole('form', { name: 'New goal' });
    await within(form).findByRole('option', { name: 'Checked by tool demo.count_records' });
    // The goal's own tools are no checks.
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Confirmed by a person',
      'Checked by tool demo.count_records',
      'Checked by tool demo.delete_records',
    ]);
    fireEvent.change(within(form).getByLabelText('Objective'), { target: { value: 'Clean up' } });
    fireEvent.change(within(form).getByLabelText('Criterion 1'), { target: { value: 'No records left' } });
    fireEvent.change(within(form).getByLabelText('How criterion 1 is verified'), {
      target: { value: 'demo.count_records' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a criterion' }));
    fireEvent.change(within(form).getByLabelText('Criterion 2'), { target: { value: 'Ada is happy' } });
    fireEvent.change(within(form).getByLabelText('Model calls'), { target: { value: '30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Start the goal' }));
    await screen.findByText('0 of 2 criteria met');
    expect(api.createGoal).toHaveBeenCalledWith('cnv_1', {
      objective: 'Clean up',
      criteria: [
        { description: 'No records left', verify: { kind: 'check', toolId: 'demo.count_records' } },
        { description: 'Ada is happy', verify: { kind: 'human' } },
      ],
      budgets: { modelCalls: 30 },
      stallLimit: 3,
    });
    expect(screen.getByRole('meter', { name: 'Model calls used' })).toBeTruthy();
  });

  it('asks for an objective and a criterion before sending', async () => {
    const { api } = fakeApi();
    render(<Panel api={api} version={0} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set a goal' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start the goal' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Say what the goal is.');
    fireEvent.change(screen.getByLabelText('Objective'), { target: { value: 'Clean up' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start the goal' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/at least one criterion/);
    expect(api.createGoal).not.toHaveBeenCalled();
  });

  it('reloads the goal at each version (a prompt ended, a checkpoint came) and after an action', async () => {
    const { api, change } = fakeApi(goalOf());
    const { rerender } = render(<Panel api={api} version={0} />);
    await screen.findByText('1 of 2 criteria met');
    change(goalOf({ progress: [...goalOf().progress, { at, kind: 'progress', text: 'fourth entry' }] }));
    rerender(<Panel api={api} version={1} />);
    await screen.findByText('fourth entry');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect((await screen.findByRole('status')).textContent).toContain('Paused by ada');
    expect(api.pauseGoal).toHaveBeenCalledWith('cnv_1');
  });

  it('shows a failure to load as an alert', async () => {
    const { api } = fakeApi();
    vi.mocked(api.goal).mockRejectedValueOnce(new Error('Cannot reach the Tessera server.'));
    render(<Panel api={api} version={0} />);
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot reach the Tessera server.');
  });
});

describe('the goal bar above the record (the panel closed)', () => {
  it('says a pause for approval, with buttons to the call and to the panel', () => {
    const onShowPanel = vi.fn();
    const onShowCall = vi.fn();
    render(
      <GoalBar
        goal={goalOf({
          state: 'paused',
          pause: { kind: 'approval', reason: 'demo.delete_records needs your approval', promptId: 'prm_9' },
        })}
        panelId="side-panel"
        onShowPanel={onShowPanel}
        onShowCall={onShowCall}
      />,
    );
    const bar = screen.getByRole('region', { name: 'Goal summary' });
    expect(bar.querySelector('.goal-bar-text')?.textContent).toBe('Waiting for your approval');
    fireEvent.click(within(bar).getByRole('button', { name: 'Show the call' }));
    expect(onShowCall).toHaveBeenCalledWith('prm_9');
    const open = within(bar).getByRole('button', { name: 'Open the goal' });
    expect(open.getAttribute('aria-controls')).toBe('side-panel');
    fireEvent.click(open);
    expect(onShowPanel).toHaveBeenCalledOnce();
  });

  it('says why another pause paused', () => {
    render(
      <GoalBar
        goal={goalOf({ state: 'paused', pause: { kind: 'stall', reason: '3 prompts without progress.' } })}
        panelId="p"
        onShowPanel={vi.fn()}
        onShowCall={vi.fn()}
      />,
    );
    expect(screen.getByRole('region').querySelector('.goal-bar-text')?.textContent).toBe(
      'Paused: no progress — 3 prompts without progress.',
    );
    expect(screen.queryByRole('button', { name: 'Show the call' })).toBeNull();
  });

  it('says how many criteria are met while active, and how it ended once ended', () => {
    const { rerender } = render(
      <GoalBar goal={goalOf()} panelId="p" onShowPanel={vi.fn()} onShowCall={vi.fn()} />,
    );
    expect(screen.getByRole('region').textContent).toContain('1 of 2 criteria met');
    expect(screen.queryByRole('button', { name: 'Show the call' })).toBeNull();
    rerender(
      <GoalBar
        goal={goalOf({ state: 'completed', endReason: 'Every criterion has its evidence.' })}
        panelId="p"
        onShowPanel={vi.fn()}
        onShowCall={vi.fn()}
      />,
    );
    expect(screen.getByRole('region').textContent).toContain('CompletedEvery criterion has its evidence.');
  });
});

/** A conversation's goal's objective, as useGoal has it. */
function Shown({ api, id }: { api: GoalApi; id: string }) {
  const { goal, loaded } = useGoal(api, id, 0);
  return <p>{loaded ? (goal?.objective ?? 'none') : 'loading'}</p>;
}

describe('useGoal', () => {
  it('forgets a conversation’s goal when another opens, and ignores its late answer', async () => {
    let answerFirst: (goal: Goal) => void = () => {};
    const api = {
      goal: vi.fn((id: string) =>
        id === 'cnv_1'
          ? new Promise<Goal>((resolve) => {
              answerFirst = resolve;
            })
          : Promise.resolve(goalOf({ conversationId: 'cnv_2', objective: 'The second goal' })),
      ),
    } as unknown as GoalApi;
    const { rerender } = render(<Shown api={api} id="cnv_1" />);
    rerender(<Shown api={api} id="cnv_2" />);
    await screen.findByText('The second goal');
    await act(async () => answerFirst(goalOf({ objective: 'The first goal' })));
    expect(screen.getByText('The second goal')).toBeTruthy();
  });
});

describe('when the goal is read again', () => {
  const prompt = (state: string, types: string[] = []) =>
    ({ state, output: types.map((type) => ({ type })) }) as unknown as Prompt;
  it('changes when a prompt starts, waits (an approval or a pause: the goal pauses), ends, or a checkpoint comes', () => {
    const versions = [
      [prompt('completed', ['goal-checkpoint', 'text'])],
      [prompt('completed', ['goal-checkpoint', 'text']), prompt('running')],
      [prompt('completed', ['goal-checkpoint', 'text']), prompt('running', ['goal-checkpoint'])],
      [prompt('completed', ['goal-checkpoint', 'text']), prompt('waiting_for_approval', ['goal-checkpoint'])],
      [prompt('completed', ['goal-checkpoint', 'text']), prompt('running', ['goal-checkpoint'])],
      [prompt('completed', ['goal-checkpoint', 'text']), prompt('completed', ['goal-checkpoint'])],
    ].map(goalVersionOf);
    expect(new Set(versions).size).toBe(versions.length - 1); // running twice, the same checkpoints: the same
    expect(versions[2]).toBe(versions[4]);
    // A text streaming in changes nothing.
    expect(goalVersionOf([prompt('running', ['text', 'text'])])).toBe(
      goalVersionOf([prompt('running', ['text'])]),
    );
  });
});

describe('the goal checkpoint in the record', () => {
  it('is one line (state, criteria met, latest entry) that opens to the criteria and the prompt’s entries', () => {
    const output = {
      id: 'o1',
      createdAt: at,
      type: 'goal-checkpoint',
      goalId: 'gol_1',
      state: 'active',
      objective: 'Clean the records of 2024',
      criteria: [
        { id: 'c1', description: 'The old records are deleted', met: true },
        { id: 'c2', description: 'Ada agrees', met: false },
      ],
      progress: [
        { at, kind: 'progress', text: 'Listed 12 records' },
        { at, kind: 'evidence', text: 'The count is 0' },
      ],
      used: { modelCalls: 3, totalTokens: 10, cost: 0, prompts: 1, wallMs: 10 },
      budgets: {},
    } as unknown as Output;
    const { container } = render(<GoalCheckpointView output={output} />);
    const details = container.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('GoalActive1/2 metThe count is 0');
    expect(
      within(details).getByRole('list', { name: 'Criteria at this checkpoint', hidden: true }),
    ).toBeTruthy();
    expect(details.textContent).toContain('Listed 12 records');
  });

  it('is how the record draws a goal-checkpoint output', () => {
    const { container } = render(
      <OutputView
        output={
          {
            id: 'o3',
            createdAt: at,
            type: 'goal-checkpoint',
            state: 'completed',
            objective: 'x',
            criteria: [],
            progress: [],
          } as unknown as Output
        }
        fileUrl={() => ''}
        onDecide={vi.fn(async () => {})}
      />,
    );
    expect(container.querySelector('details.goal-checkpoint summary')?.textContent).toBe(
      'GoalCompleted0/0 met',
    );
    expect(container.querySelector('.unknown-output')).toBeNull();
  });

  it('leads with the reason when it paused or ended', () => {
    const output = {
      id: 'o2',
      createdAt: at,
      type: 'goal-checkpoint',
      state: 'paused',
      objective: 'x',
      criteria: [],
      progress: [],
      reason: 'demo.delete_records needs your approval',
    } as unknown as Output;
    const { container } = render(<GoalCheckpointView output={output} />);
    expect(container.querySelector('summary')?.textContent).toBe(
      'GoalPaused0/0 metdemo.delete_records needs your approval',
    );
  });
});
