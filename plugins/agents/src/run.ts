import { createHash } from 'node:crypto';
import {
  boundText,
  ConflictError,
  type Conversation,
  DefinitionError,
  isFinalState,
  NotFoundError,
  newId,
  type Platform,
  type Prompt,
  type PromptParent,
  type PromptState,
  type PromptUsage,
  type StopReason,
  TesseraError,
  type ToolEmitter,
  VersionConflictError,
} from '@tessera/core';
import { type Agent, agentToolId, MAX_TASK_CHARS } from './agent.ts';
import type { AgentRunOutput } from './agent-run-output.ts';
import type { AgentRegistry } from './registry.ts';

/** Longest answer of a child the parent reads (the child's record keeps it whole). */
export const MAX_ANSWER_CHARS = 8_000;

/** Longest summary of a run. */
export const MAX_SUMMARY_CHARS = 400;

/** Where a child was called from: the parent's conversation, prompt and call. */
/** The call a child runs for: core's `PromptParent`, the `metadata.parent` any reader of the record nests by. */
export type ParentCall = PromptParent;

/** What `metadata` a child prompt carries: how the plugin recognises it, and how the record links up. */
export type AgentMetadata = {
  /** The agent's name. */
  agent: string;
  /** 1 for a child of a user's prompt (or of code), 2 for its own children, ... */
  depth: number;
  parent?: ParentCall;
  /**
   * The user's prompt the whole tree of agents runs for (its root, depth 0): the runs started under it are
   * counted against `maxRunsPerPrompt`. Absent for a child code started without a parent (it is its own root).
   */
  root?: string;
};

/** A sub-agent's run as the parent (or the code that delegated) gets it. */
export type AgentRun = {
  agent: string;
  /** The child prompt's final state (`completed`, `failed` or `cancelled`). */
  state: PromptState;
  /** The child's final answer (the text after its last tool call), cut to `MAX_ANSWER_CHARS`. */
  answer: string;
  /** Set when `answer` was cut: the child's record has all of it. */
  truncated?: true;
  /** A short account: state, rounds, tool calls and which tools, why it stopped. */
  summary: string;
  /** Model calls (rounds) the child made. */
  rounds: number;
  /** Tool calls the child made. */
  toolCalls: number;
  /** Why the child stopped, when not with a plain answer. */
  stopReason?: StopReason;
  /** The child conversation and prompt: its whole record. */
  conversationId: string;
  promptId: string;
  /** What the child's model calls used, its own sub-agents' included: not added to the parent prompt's. */
  usage: PromptUsage;
};

/** What an agent's tool returns, what the parent model reads: the run without its usage. */
export type AgentToolResult = Omit<AgentRun, 'usage'>;

/** The child prompt's id for a parent call: the same call (a retry) always gives the same id. */
export function childPromptId(toolCallId: string): string {
  if (/^[A-Za-z0-9_-]{1,90}$/.test(toolCallId)) return `agent_${toolCallId}`;
  return `agent_${createHash('sha256').update(toolCallId).digest('hex').slice(0, 40)}`;
}

/** The child's answer: the text it gave after its last tool call. */
function finalAnswer(prompt: Prompt): string {
  const texts: string[] = [];
  for (const output of prompt.output) {
    if (output.type === 'tool') texts.length = 0;
    else if (output.type === 'text') texts.push(output.text);
  }
  return texts.join('').trim();
}

/** What the parent reads of a child that ended: its answer and a summary, bounded. */
export function runOf(agent: string, prompt: Prompt): AgentRun {
  const calls = prompt.output.filter((o) => o.type === 'tool');
  const tools = [...new Set(calls.map((call) => call.toolId))];
  const full = finalAnswer(prompt);
  const answer = boundText(full, MAX_ANSWER_CHARS);
  const rounds = prompt.usage.modelCalls;
  const parts = [
    `Agent '${agent}' ${prompt.state} after ${rounds} model call${rounds === 1 ? '' : 's'} and ${calls.length} tool call${calls.length === 1 ? '' : 's'}`,
  ];
  if (tools.length > 0) parts.push(` (${tools.join(', ')})`);
  if (prompt.stopReason) parts.push(`; ${prompt.stopReason.code}: ${prompt.stopReason.message}`);
  return {
    agent,
    state: prompt.state,
    answer,
    ...(answer.length < full.length && { truncated: true as const }),
    summary: boundText(`${parts.join('')}.`, MAX_SUMMARY_CHARS),
    rounds,
    toolCalls: calls.length,
    ...(prompt.stopReason && { stopReason: prompt.stopReason }),
    conversationId: prompt.conversationId,
    promptId: prompt.id,
    usage: treeUsage(prompt),
  };
}

/**
 * What a child used, its own sub-agents included: its prompt's usage plus the usage its `agent-run` outputs
 * carry (each already its own tree's), so a parent's report adds up the whole tree from its children alone.
 */
function treeUsage(prompt: Prompt): PromptUsage {
  const total = { ...prompt.usage };
  for (const output of prompt.output) {
    if ((output.type as string) !== 'agent-run') continue;
    const usage = (output as { usage?: PromptUsage }).usage;
    if (!usage) continue;
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.cachedInputTokens += usage.cachedInputTokens;
    total.reasoningTokens += usage.reasoningTokens;
    total.totalTokens += usage.totalTokens;
    total.modelCalls += usage.modelCalls;
    if (usage.cost !== undefined) total.cost = (total.cost ?? 0) + usage.cost;
  }
  return total;
}

const END_EVENTS = new Set(['prompt.completed', 'prompt.failed', 'prompt.cancelled']);
/** Events after which a prompt waits for a decision: an approval, or a pause. */
const WAIT_EVENTS = new Set(['prompt.approval-requested', 'prompt.pause-requested']);

/**
 * Waits for a prompt to stop: to end (completed, failed or cancelled), or with `orWaits` to wait for a
 * decision (`waiting_for_approval`), in this process or, through the relay, in another one; without
 * `orWaits` it waits through every approval and pause. Resolves with the prompt as stored then (with
 * `orWaits`, it may be running again: someone decided meanwhile). Rejects when `signal` aborts.
 */
async function untilStops(
  platform: Platform,
  prompt: { id: string; conversationId: string; userId: string },
  signal: AbortSignal,
  orWaits: boolean,
): Promise<Prompt> {
  const stops = (state: PromptState) => isFinalState(state) || (orWaits && state === 'waiting_for_approval');
  const following = platform.events.follow(`conversation:${prompt.conversationId}`);
  try {
    await following.ready;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      // Subscribed before the state is read: an end between the two is not missed.
      const unsubscribe = platform.events.subscribe({ promptId: prompt.id }, (event) => {
        if (END_EVENTS.has(event.type) || (orWaits && WAIT_EVENTS.has(event.type))) finish();
      });
      const onAbort = () => finish(signal.reason ?? new Error('Aborted.'));
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      platform.getPrompt(prompt.id, prompt.userId).then(
        (current) => {
          if (stops(current.state)) finish();
        },
        (error: unknown) => finish(error),
      );
    });
  } finally {
    following();
  }
  return platform.getPrompt(prompt.id, prompt.userId);
}

/** What a child that waits is waiting for: its pending call's tool and reason, or its pause. Bounded. */
export function waitsFor(prompt: Prompt): string {
  for (const output of prompt.output) {
    if (output.type === 'tool' && output.result?.type === 'pending') {
      return boundText(`${output.toolId}: ${output.result.reason}`, MAX_SUMMARY_CHARS);
    }
  }
  for (const output of prompt.output) {
    if (output.type === 'pause' && !output.decision) {
      return boundText(`a pause: ${output.reason}`, MAX_SUMMARY_CHARS);
    }
  }
  return 'a decision';
}

/** Cancels a child that has not ended; one that ended meanwhile (a `ConflictError`) is left as it is. */
async function cancelChild(platform: Platform, promptId: string, userId: string): Promise<void> {
  try {
    await platform.cancel(promptId, { userId });
  } catch (error) {
    if (!ConflictError.is(error) && !NotFoundError.is(error)) throw error;
  }
}

/** The child prompt if it exists (a retry of the same call), else undefined. */
async function existing(platform: Platform, promptId: string, userId: string): Promise<Prompt | undefined> {
  try {
    return await platform.getPrompt(promptId, userId);
  } catch (error) {
    if (NotFoundError.is(error)) return undefined;
    throw error;
  }
}

/** What `runAgent` needs: the agent, who runs it, for whom, with which task. */
export type RunAgentOptions = {
  agent: Agent;
  userId: string;
  task: string;
  /** The parent's depth: 0 for a user's prompt or code. */
  parentDepth: number;
  parent?: ParentCall;
  /** The child prompt's id: chosen before, so a retry never starts a second child. */
  promptId: string;
  signal: AbortSignal;
  /** The emitter of the parent's call, to record the `agent-run` output there. */
  emitter?: ToolEmitter;
  /** The root prompt (see `AgentMetadata.root`): given, a new child is counted against `maxRunsPerPrompt`. */
  root?: string;
};

/** A child that waits for a decision (an approval or a pause) in its conversation. */
export type AgentWaiting = {
  agent: string;
  /** The child as stored, `waiting_for_approval`. */
  child: Prompt;
  /** What it waits for: its pending call's tool and reason, or its pause (see `waitsFor`). */
  waitsFor: string;
};

const titleOf = (agent: string, task: string) =>
  boundText(`${agent}: ${task.replace(/\s+/g, ' ').trim()}`, 120).replace(/\n/g, ' ');

/**
 * Runs an agent as a child prompt and waits for it to end: creates (or forks) the child conversation,
 * starts the prompt with the id given (a child that exists already is waited for, not started again),
 * waits through its approvals, and cancels it when `signal` aborts.
 */
export async function runAgent(
  platform: Platform,
  registry: AgentRegistry,
  options: RunAgentOptions,
): Promise<AgentRun> {
  const outcome = await runUntilStops(platform, registry, options, false);
  if ('run' in outcome) return outcome.run;
  throw new Error(`Agent '${options.agent.name}' stopped without ending.`); // not reached: waits go on
}

/**
 * As `runAgent`, but returns as soon as the child waits for a decision (an approval or a pause) as well as
 * when it ends: a child that waits already is not waited for. The `agent-run` output says which.
 */
export async function runOrWait(
  platform: Platform,
  registry: AgentRegistry,
  options: RunAgentOptions,
): Promise<{ run: AgentRun } | AgentWaiting> {
  return runUntilStops(platform, registry, options, true);
}

async function runUntilStops(
  platform: Platform,
  registry: AgentRegistry,
  options: RunAgentOptions,
  orWaits: boolean,
): Promise<{ run: AgentRun } | AgentWaiting> {
  const { agent, userId, task, promptId, signal } = options;
  const depth = options.parentDepth + 1;
  if (depth > registry.maxDepth) {
    throw new TesseraError(
      'invalid_input',
      `Agent '${agent.name}' cannot run at depth ${depth}: sub-agents nest at most ${registry.maxDepth} deep.`,
    );
  }
  if (typeof task !== 'string' || task.trim() === '' || task.length > MAX_TASK_CHARS) {
    throw new TesseraError(
      'invalid_input',
      `A task for agent '${agent.name}' must be 1-${MAX_TASK_CHARS} characters.`,
    );
  }
  signal.throwIfAborted();
  let child = await existing(platform, promptId, userId);
  if (child && child.metadata?.agent !== agent.name) {
    throw new ConflictError(`Prompt ${promptId} exists, and is not a run of agent '${agent.name}'.`);
  }
  if (!child) {
    if (options.root !== undefined) await countRun(platform, registry, userId, options.root, agent);
    child = await startChild(platform, registry, { ...options, depth });
  }
  await record(options.emitter, agent, child, { task, depth, state: child.state });
  let stopped: Prompt = child;
  try {
    while (!isFinalState(stopped.state)) {
      if (orWaits && stopped.state === 'waiting_for_approval') break;
      stopped = await untilStops(platform, stopped, signal, orWaits);
    }
  } catch (error) {
    if (signal.aborted) {
      await cancelChild(platform, child.id, userId);
      const now = await existing(platform, child.id, userId);
      await record(options.emitter, agent, child, {
        task,
        depth,
        state: now?.state ?? 'cancelled',
        summary: `Agent '${agent.name}' was cancelled: the call that started it stopped.`,
      }).catch(() => {});
    }
    throw error;
  }
  if (!isFinalState(stopped.state)) {
    const what = waitsFor(stopped);
    await record(options.emitter, agent, stopped, {
      task,
      depth,
      state: stopped.state,
      summary: boundText(
        `Agent '${agent.name}' waits for a decision in its conversation: ${what}`,
        MAX_SUMMARY_CHARS,
      ),
      usage: treeUsage(stopped),
    });
    return { agent: agent.name, child: stopped, waitsFor: what };
  }
  const run = runOf(agent.name, stopped);
  await record(options.emitter, agent, stopped, {
    task,
    depth,
    state: stopped.state,
    summary: run.summary,
    usage: run.usage,
  });
  return { run };
}

/** The records namespace of the plugin: `runs:<root prompt id>` counts the children started under it. */
export const RECORDS_NAMESPACE = 'agents';

/**
 * The record that counts the runs under a user's root prompt. Keyed by the user too: a prompt's metadata
 * (`root`) is what its starter gave, so one user naming another's prompt counts only under their own key.
 */
export const runsRecordId = (userId: string, root: string): string =>
  `runs:${encodeURIComponent(userId)}:${root}`;

/**
 * Counts one more child under `root`, in the store (a versioned write: processes and calls that start
 * children at once each count, none lost), or refuses when `maxRunsPerPrompt` children were started already.
 * A count is not given back when the start fails after it: the bound errs on the side of fewer runs.
 */
async function countRun(
  platform: Platform,
  registry: AgentRegistry,
  userId: string,
  root: string,
  agent: Agent,
) {
  const max = registry.maxRunsPerPrompt;
  const id = runsRecordId(userId, root);
  for (let attempt = 0; ; attempt++) {
    const stored = await platform.store.records.get<{ runs: number }>(RECORDS_NAMESPACE, id);
    const runs = stored?.value.runs ?? 0;
    if (runs >= max) {
      // A conflict with what the prompt did already (409 for code that delegates); the model reads it.
      throw new ConflictError(
        `Agent '${agent.name}' was not started: the user's prompt started ${runs} sub-agent runs already (all depths together), the most it may (maxRunsPerPrompt: ${max}). Answer with what you have.`,
      );
    }
    try {
      await platform.store.records.put(
        RECORDS_NAMESPACE,
        id,
        { runs: runs + 1 },
        { expectedVersion: stored?.version ?? 0 },
      );
      return;
    } catch (error) {
      // Another child was counted first: read the count again. Each conflict is another child counted, and
      // at most `max` are, so this ends.
      if (!VersionConflictError.is(error) || attempt > max) throw error;
    }
  }
}

/** Creates the child conversation and starts the child prompt; a child started meanwhile is taken instead. */
async function startChild(
  platform: Platform,
  registry: AgentRegistry,
  options: RunAgentOptions & { depth: number },
): Promise<Prompt> {
  const { agent, userId, task, parent, promptId, signal, depth, root } = options;
  const title = titleOf(agent.name, task);
  let conversation: Conversation;
  if (agent.history === 'fork') {
    if (!parent) {
      throw new TesseraError(
        'invalid_input',
        `Agent '${agent.name}' reads its parent's history (history: 'fork'): give the parent conversation and prompt.`,
      );
    }
    conversation = await platform.conversations.fork(parent.conversationId, userId, {
      promptId: parent.promptId,
      title,
    });
  } else {
    conversation = await platform.conversations.create({ userId, title });
  }
  const metadata: AgentMetadata = {
    agent: agent.name,
    depth,
    ...(parent && { parent }),
    root: root ?? promptId,
  };
  try {
    if (agent.readOnly) await checkReadOnly(platform, registry, agent, conversation.id, userId, metadata);
    const started = await platform.start({
      conversationId: conversation.id,
      userId,
      input: task,
      model: agent.model,
      metadata,
      promptId,
      signal,
    });
    // The child's end is read from the store and its events (untilStops); a run that fails to store its end
    // (the store failing, the process stopping) must not be an unhandled rejection.
    started.done.catch(() => {});
    return started.prompt;
  } catch (error) {
    await platform.conversations.delete(conversation.id, userId).catch(() => {});
    // Another attempt of the same call started the child first: wait for that one.
    if (ConflictError.is(error)) {
      const other = await existing(platform, promptId, userId);
      if (other) return other;
    }
    throw error;
  }
}

/**
 * A read-only agent runs in parallel with other calls of its batch: every tool it may use must be read-only.
 * Checked on the tools the child's first round would be offered (tools made in `prepare()` included).
 */
async function checkReadOnly(
  platform: Platform,
  registry: AgentRegistry,
  agent: Agent,
  conversationId: string,
  userId: string,
  metadata: AgentMetadata,
): Promise<void> {
  const offered = await platform.offeredTools(conversationId, userId, { metadata });
  const writers = agent.tools.filter((id) => {
    const sub = registry.byToolId(id);
    if (sub) return !sub.readOnly;
    const tool = offered.get(id)?.tool;
    return tool !== undefined && !tool.readOnly;
  });
  if (writers.length > 0) {
    throw new DefinitionError(
      `Agent '${agent.name}' is read-only but may use tools that are not: ${writers.join(', ')}.`,
    );
  }
}

/** Records (or updates) the `agent-run` output of the parent's call. */
async function record(
  emitter: ToolEmitter | undefined,
  agent: Agent,
  child: Prompt,
  facts: { task: string; depth: number; state: PromptState; summary?: string; usage?: PromptUsage },
): Promise<void> {
  if (!emitter) return;
  const output: Omit<AgentRunOutput, 'id' | 'createdAt' | 'toolCallId'> = {
    type: 'agent-run',
    agent: agent.name,
    conversationId: child.conversationId,
    promptId: child.id,
    task: facts.task,
    depth: facts.depth,
    history: agent.history,
    state: facts.state,
    ...(facts.summary !== undefined && { summary: facts.summary }),
    ...(facts.usage !== undefined && { usage: facts.usage }),
  };
  const earlier = emitter.outputs().find((o) => o.type === 'agent-run' && o.promptId === child.id);
  if (earlier) await emitter.update(earlier.id, output);
  else await emitter.emit(output);
}

/** A fresh child prompt id, for code that delegates without a parent call. */
export const freshChildId = (): string => newId('agent');

/** The tool id of an agent, for messages. */
export const toolOf = (agent: Agent): string => agentToolId(agent.name);
