import { boundText, type Platform, type PromptState, TesseraError } from '@tessera/core';
import { MAX_TASK_CHARS } from './agent.ts';
import { depthOf, rootOf } from './plugin.ts';
import { registryOf } from './registry.ts';
import { type AgentRun, freshChildId, type ParentCall, runAgent } from './run.ts';

/** What `delegate` takes. */
export type DelegateOptions = {
  /** The agent's name (one of `agentsPlugin({ agents })`). */
  agent: string;
  /** The user the child prompt runs for: its conversation is theirs, and so are its approvals. */
  userId: string;
  task: string;
  /**
   * The prompt the run is for, when there is one: a `history: 'fork'` agent forks its conversation there,
   * and the child's metadata links to it (its depth counts from it).
   */
  parent?: ParentCall;
  /**
   * The child prompt's id, chosen beforehand so that a retry never starts a second child (the run of the
   * existing one is waited for instead). 1-100 of A-Z, a-z, 0-9, `_` and `-`.
   * @default a fresh id (`agent_…`)
   */
  promptId?: string;
  /** Aborting it cancels the child. The agent's `timeoutMs` applies as well. */
  signal?: AbortSignal;
};

/** What `chain` and `consolidate` take beside their agents. */
export type GroupOptions = Omit<DelegateOptions, 'agent' | 'promptId'>;

/** What `chain` resolves with. */
export type ChainResult = {
  /** Each step's run, in order; the chain stops at the first that did not complete. */
  runs: AgentRun[];
  /** The last run's state: `completed` when every step completed. */
  state: PromptState;
  /** The last step's answer. */
  answer: string;
};

/** What `consolidate` resolves with. */
export type ConsolidateResult = {
  /** The runs of the agents, in the order given (each completed or not). */
  runs: AgentRun[];
  /** The consolidator's run, which read every answer. */
  consolidated: AgentRun;
};

/** The agents named, checked before any runs: each exists, and one that forks its parent's history has one. */
function checkAgents(platform: Platform, names: readonly string[], parent: ParentCall | undefined): void {
  const registry = registryOf(platform.services);
  if (names.length === 0) throw new TesseraError('invalid_input', 'Name at least one agent.');
  for (const name of names) {
    const agent = registry.require(name);
    if (agent.history === 'fork' && !parent) {
      throw new TesseraError(
        'invalid_input',
        `Agent '${name}' reads its parent's history (history: 'fork'): give the parent conversation and prompt.`,
      );
    }
  }
}

/** The signal of a run: the caller's, and the agent's own timeout. */
const runSignal = (timeoutMs: number, signal?: AbortSignal): AbortSignal =>
  signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);

/**
 * Runs an agent as a child prompt of the user and resolves with its run once it ended (through any
 * approvals it waits for): its state, answer and summary, and where its record is. A child that failed or
 * was cancelled resolves too (read `state`); mistakes (no such agent, a bad task, too deep) reject.
 *
 * @example
 * ```ts
 * const run = await delegate(platform, { agent: 'researcher', userId: 'ada', task: 'What changed in v2?' });
 * if (run.state === 'completed') console.log(run.answer);
 * ```
 */
export async function delegate(platform: Platform, options: DelegateOptions): Promise<AgentRun> {
  const registry = registryOf(platform.services);
  const agent = registry.require(options.agent);
  const { userId, parent } = options;
  const parentPrompt = parent ? await platform.getPrompt(parent.promptId, userId) : undefined;
  return runAgent(platform, registry, {
    agent,
    userId,
    task: options.task,
    parentDepth: parentPrompt ? depthOf(parentPrompt) : 0,
    ...(parent && { parent }),
    // Runs for a prompt count towards its tree's maxRunsPerPrompt; a run without one is its own root.
    ...(parentPrompt && { root: rootOf(parentPrompt) }),
    promptId: options.promptId ?? freshChildId(),
    signal: runSignal(agent.timeoutMs, options.signal),
  });
}

/**
 * Runs agents one after the other, each given the task and the previous one's answer, and resolves with
 * every run; it stops at the first that does not complete.
 *
 * @example
 * ```ts
 * const { answer } = await chain(platform, { agents: ['researcher', 'writer'], userId: 'ada', task: 'A note on v2' });
 * ```
 */
export async function chain(
  platform: Platform,
  options: GroupOptions & { agents: readonly string[] },
): Promise<ChainResult> {
  checkAgents(platform, options.agents, options.parent);
  const { agents, ...rest } = options;
  const runs: AgentRun[] = [];
  for (const name of agents) {
    const previous = runs.at(-1);
    const task = previous
      ? boundText(
          `${options.task}\n\n---\nThe previous step, agent '${previous.agent}', answered:\n\n${previous.answer}`,
          MAX_TASK_CHARS,
        )
      : options.task;
    const run = await delegate(platform, { ...rest, agent: name, task });
    runs.push(run);
    if (run.state !== 'completed') break;
  }
  const last = runs.at(-1)!;
  return { runs, state: last.state, answer: last.answer };
}

/**
 * Runs agents in parallel on one task, then the consolidator, given the task and every answer (those that
 * did not complete say so), and resolves with all the runs.
 *
 * @example
 * ```ts
 * const { consolidated } = await consolidate(platform, {
 *   agents: ['optimist', 'pessimist'],
 *   consolidator: 'judge',
 *   userId: 'ada',
 *   task: 'Should we ship on Friday?',
 * });
 * ```
 */
export async function consolidate(
  platform: Platform,
  options: GroupOptions & { agents: readonly string[]; consolidator: string },
): Promise<ConsolidateResult> {
  checkAgents(platform, options.agents, options.parent);
  checkAgents(platform, [options.consolidator], options.parent);
  const { agents, consolidator, ...rest } = options;
  const runs = await Promise.all(agents.map((agent) => delegate(platform, { ...rest, agent })));
  const share = Math.max(500, Math.floor((MAX_TASK_CHARS - options.task.length) / runs.length) - 200);
  const answers = runs.map(
    (run, i) =>
      `## ${i + 1}. Agent '${run.agent}' (${run.state})\n\n${boundText(run.answer || run.summary, share)}`,
  );
  const task = boundText(
    `${options.task}\n\n---\nThe answers of ${runs.length} agents to this task:\n\n${answers.join('\n\n')}\n\n---\nConsolidate them into one answer.`,
    MAX_TASK_CHARS,
  );
  const consolidated = await delegate(platform, { ...rest, agent: consolidator, task });
  return { runs, consolidated };
}
