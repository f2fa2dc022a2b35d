import { budgetOption } from './budgets.ts';
import type { TesseraClient } from './client.ts';
import { EXIT, type Format } from './follow.ts';
import type { Io } from './render.ts';

/** A goal as the server sends it (GET /api/conversations/{id}/goal): what these commands read of it. */
export type Goal = {
  id: string;
  conversationId: string;
  objective: string;
  criteria: {
    id: string;
    description: string;
    verify: { kind: 'check'; toolId: string } | { kind: 'human' };
    evidence?: { at: string; by: 'check' | 'human'; summary: string; decidedBy?: string };
    lastCheck?: { at: string; passed: boolean; summary: string };
  }[];
  budgets: Partial<Record<BudgetName, number>>;
  used: Record<BudgetName, number>;
  stallLimit: number;
  stalls: number;
  state: 'active' | 'paused' | 'completed' | 'stopped' | 'budget_exhausted';
  pause?: { kind: string; reason: string; promptId?: string; wakeAt?: string };
  endReason?: string;
  plan?: string;
  progress: { at: string; promptId?: string; kind: string; text: string }[];
  createdAt: string;
  updatedAt: string;
};

export const GOAL_BUDGETS = ['modelCalls', 'totalTokens', 'cost', 'prompts', 'wallMs'] as const;
type BudgetName = (typeof GOAL_BUDGETS)[number];

export type CriterionOption = { description: string; verify?: { kind: 'check'; toolId: string } };
export type CreateGoalOptions = {
  objective: string;
  criteria: CriterionOption[];
  budgets?: Record<string, number>;
  stallLimit?: number;
  start: boolean;
};

const goalPath = (conversationId: string) => `/api/conversations/${encodeURIComponent(conversationId)}/goal`;

/** The last progress entries `goal` shows (the server keeps 50; --json has them all). */
const SHOWN_PROGRESS = 8;

const STATE_WORDS: Record<Goal['state'], string> = {
  active: 'active',
  paused: 'paused',
  completed: 'completed',
  stopped: 'stopped',
  budget_exhausted: 'out of budget',
};

const number = new Intl.NumberFormat('en');
const amount = (name: BudgetName, value: number) =>
  name === 'cost'
    ? value.toFixed(2)
    : name === 'wallMs'
      ? `${number.format(Math.round(value / 1000))} s`
      : number.format(value);
const BUDGET_WORDS: Record<BudgetName, string> = {
  modelCalls: 'model calls',
  totalTokens: 'tokens',
  cost: 'cost',
  prompts: 'prompts',
  wallMs: 'time',
};

/** The budgets a goal has reached: each at or over its limit. */
export function reachedBudgets(goal: Pick<Goal, 'budgets' | 'used'>): BudgetName[] {
  return GOAL_BUDGETS.filter((name) => {
    const limit = goal.budgets[name];
    return limit !== undefined && goal.used[name] >= limit;
  });
}

/**
 * The `--budget` options that resume a goal out of budget: each budget it reached doubled (or twice what was
 * used, when more), always above what was used, as the server requires.
 */
export function resumeBudgetOptions(goal: Pick<Goal, 'budgets' | 'used'>): string {
  return reachedBudgets(goal)
    .map((name) => budgetOption({ name, limit: goal.budgets[name] ?? 0, used: goal.used[name] }))
    .join(' ');
}

/** The lines `tessera goal <conversation>` prints: the goal, then what the user can do with it. */
export function goalLines(goal: Goal, command: string): string {
  const lines: string[] = [];
  const met = goal.criteria.filter((criterion) => criterion.evidence).length;
  lines.push(`Goal ${goal.id}  ${STATE_WORDS[goal.state]}  (${met}/${goal.criteria.length} criteria met)`);
  lines.push(`Objective: ${goal.objective}`);
  const why = goal.pause ? `${goal.pause.kind}: ${goal.pause.reason}` : goal.endReason;
  if (goal.state === 'paused' && goal.pause?.wakeAt) lines.push(`Paused (${why}) until ${goal.pause.wakeAt}`);
  else if (goal.state === 'paused') lines.push(`Paused (${why})`);
  else if (goal.state !== 'active' && why) lines.push(`${capitalize(STATE_WORDS[goal.state])}: ${why}`);

  lines.push('Criteria:');
  for (const criterion of goal.criteria) {
    const how = criterion.verify.kind === 'check' ? `check ${criterion.verify.toolId}` : 'you confirm';
    lines.push(`  ${criterion.evidence ? '✓' : '✗'} ${criterion.id}  ${criterion.description}  [${how}]`);
    if (criterion.evidence) {
      const by =
        criterion.evidence.by === 'human' ? (criterion.evidence.decidedBy ?? 'a person') : 'the check';
      lines.push(`      evidence (${by}, ${criterion.evidence.at}): ${criterion.evidence.summary}`);
    } else if (criterion.lastCheck) {
      const result = criterion.lastCheck.passed ? 'passed' : 'failed';
      lines.push(`      last check ${result} (${criterion.lastCheck.at}): ${criterion.lastCheck.summary}`);
    }
  }
  if (goal.plan) lines.push(`Plan: ${goal.plan}`);

  const budgets = GOAL_BUDGETS.filter((name) => goal.budgets[name] !== undefined).map((name) => {
    const limit = goal.budgets[name]!;
    const left = Math.max(0, limit - goal.used[name]);
    return `${BUDGET_WORDS[name]} ${amount(name, goal.used[name])}/${amount(name, limit)} (${amount(name, left)} left)`;
  });
  lines.push(`Budget: ${budgets.length > 0 ? budgets.join(', ') : 'none set'}`);
  const unbounded = GOAL_BUDGETS.filter((name) => goal.budgets[name] === undefined && goal.used[name] > 0);
  if (unbounded.length > 0)
    lines.push(
      `Used: ${unbounded.map((name) => `${BUDGET_WORDS[name]} ${amount(name, goal.used[name])}`).join(', ')}`,
    );
  lines.push(`Stalls: ${goal.stalls}/${goal.stallLimit}`);

  const recent = goal.progress.slice(-SHOWN_PROGRESS);
  if (recent.length > 0) {
    lines.push(`Progress (latest ${recent.length} of ${goal.progress.length}):`);
    for (const entry of recent) lines.push(`  ${entry.at}  ${entry.kind}  ${entry.text}`);
  }

  const c = goal.conversationId;
  const next: string[] = [];
  if (goal.state === 'active')
    next.push(`pause: ${command} goal pause ${c}`, `stop:  ${command} goal stop ${c}`);
  if (goal.state === 'paused') {
    if (goal.pause?.kind === 'approval') next.push(`decide: ${command} pending`);
    next.push(`resume: ${command} goal resume ${c}`, `stop:   ${command} goal stop ${c}`);
  }
  if (goal.state === 'budget_exhausted')
    next.push(`resume: ${command} goal resume ${c} ${resumeBudgetOptions(goal)}`.trimEnd());
  if (goal.state === 'active' || goal.state === 'paused') {
    for (const criterion of goal.criteria)
      if (!criterion.evidence && criterion.verify.kind === 'human')
        next.push(`confirm ${criterion.id}: ${command} goal confirm ${c} ${criterion.id} --note "…"`);
  }
  for (const line of next) lines.push(`   ${line}`);
  return `${lines.join('\n')}\n`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function print(io: Io, format: Format, goal: Goal): number {
  io.out(format.json ? `${JSON.stringify(goal)}\n` : goalLines(goal, io.command));
  return EXIT.ok;
}

/** `tessera goal <conversation>`: the conversation's goal (its latest, live or ended). */
export async function showGoal(client: TesseraClient, io: Io, format: Format, conversationId: string) {
  return print(io, format, await client.request<Goal>('GET', goalPath(conversationId)));
}

/** `tessera goal create`: sets the goal; unless --no-start, its first prompt starts on the server. */
export async function createGoal(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  options: CreateGoalOptions,
): Promise<number> {
  if (options.criteria.length === 0)
    throw new Error('A goal needs at least one --criterion: how to tell it is done.');
  const goal = await client.request<Goal>('POST', goalPath(conversationId), {
    objective: options.objective,
    criteria: options.criteria,
    ...(options.budgets && { budgets: options.budgets }),
    ...(options.stallLimit !== undefined && { stallLimit: options.stallLimit }),
    ...(!options.start && { start: false }),
  });
  print(io, format, goal);
  if (!format.json)
    io.err(
      `${options.start ? 'The agent works on it now' : 'Set, not started'}; follow it with: ${io.command} show ${conversationId}, and ${io.command} goal ${conversationId}\n`,
    );
  return EXIT.ok;
}

/** `tessera goal pause|resume|stop`: the goal after the action. */
export async function goalAction(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  action: 'pause' | 'resume' | 'stop',
  options: { reason?: string; budgets?: Record<string, number> },
): Promise<number> {
  const body =
    action === 'resume'
      ? { ...(options.budgets && { budgets: options.budgets }) }
      : { ...(options.reason !== undefined && { reason: options.reason }) };
  return print(io, format, await client.request<Goal>('POST', `${goalPath(conversationId)}/${action}`, body));
}

/** `tessera goal confirm`: your evidence for a criterion (the goal completes once each has evidence). */
export async function confirmCriterion(
  client: TesseraClient,
  io: Io,
  format: Format,
  conversationId: string,
  criterionId: string,
  note: string | undefined,
): Promise<number> {
  const goal = await client.request<Goal>(
    'POST',
    `${goalPath(conversationId)}/criteria/${encodeURIComponent(criterionId)}/confirm`,
    note !== undefined ? { note } : {},
  );
  return print(io, format, goal);
}

/** The pages `tessera goals --state` reads at most (200 goals each). */
const MAX_PAGES = 10;

/** `tessera goals`: your goals, newest first. */
export async function listGoals(
  client: TesseraClient,
  io: Io,
  format: Format,
  options: { limit: number; state?: Goal['state'] },
): Promise<number> {
  const items: Goal[] = [];
  // With a state, the server filters each page it reads: a page may hold fewer than asked (even none) while
  // more follow, so pages are read (at most MAX_PAGES of them) until there are enough.
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES && items.length < options.limit; pages++) {
    const query = new URLSearchParams({ limit: String(options.state ? 200 : options.limit) });
    if (options.state) query.set('state', options.state);
    if (cursor) query.set('cursor', cursor);
    const page = await client.request<{ items: Goal[]; nextCursor?: string }>('GET', `/api/goals?${query}`);
    items.push(...page.items.slice(0, options.limit - items.length));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const page = { items };
  if (format.json) {
    io.out(`${JSON.stringify(page.items)}\n`);
    return EXIT.ok;
  }
  if (page.items.length === 0)
    io.out(
      options.state
        ? `No goals ${STATE_WORDS[options.state]}.\n`
        : `No goals yet: ${io.command} goal create <conversationId> --objective "…" --criterion "…"\n`,
    );
  for (const goal of page.items) {
    const met = goal.criteria.filter((criterion) => criterion.evidence).length;
    const objective = goal.objective.length > 80 ? `${goal.objective.slice(0, 79)}…` : goal.objective;
    io.out(
      `${goal.conversationId}  ${STATE_WORDS[goal.state]}  ${met}/${goal.criteria.length}  ${objective.replaceAll('\n', ' ')}\n`,
    );
  }
  return EXIT.ok;
}
