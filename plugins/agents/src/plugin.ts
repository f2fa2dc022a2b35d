import {
  type AnyTool,
  boundText,
  type CallSuspension,
  createTool,
  DefinitionError,
  definePlugin,
  type Platform,
  PlatformToken,
  type Plugin,
  type Prompt,
  suspendCall,
  ToolCallError,
} from '@tessera/core';
import { z } from 'zod';
import { type Agent, type AgentOptions, agentToolId, defineAgent, MAX_TASK_CHARS } from './agent.ts';
import { agentRunOutput } from './agent-run-output.ts';
import { deleteChildren } from './cleanup.ts';
import { AgentRegistry, AgentRegistryToken, DEFAULT_MAX_RUNS_PER_PROMPT } from './registry.ts';
import { ParentResumer } from './resume.ts';
import {
  type AgentRun,
  type AgentToolResult,
  childPromptId,
  type RunAgentOptions,
  runAgent,
  runOrWait,
} from './run.ts';

export const AGENTS_PLUGIN_ID = 'agents';

/** How deep sub-agents nest unless `maxDepth` says otherwise: a child's child's child. */
export const DEFAULT_MAX_DEPTH = 3;

export { DEFAULT_MAX_RUNS_PER_PROMPT };

/** Longest reason an agent's suspended call gives (what the parent's record and approval lists show). */
export const MAX_SUSPEND_REASON_CHARS = 1_000;

export type AgentsPluginOptions = {
  /** The agents, made with `defineAgent` or given as its options. Names are unique. */
  agents: readonly (Agent | AgentOptions)[];
  /**
   * How deep sub-agents nest: 1 lets the user's prompt call agents and no agent call another. An agent's
   * tools that are other agents are taken away at this depth.
   * @default 3
   */
  maxDepth?: number;
  /**
   * How many child prompts one user's prompt may start, all depths together (its agents, theirs, ...),
   * counted in the store: past it an agent's tool starts nothing and returns an error the model reads.
   * @default 20
   */
  maxRunsPerPrompt?: number;
  /**
   * How often, in ms, an open platform looks again for parents whose child ended without resuming them (in a
   * process without the plugin started, or one that stopped in between); it always looks once on `open()`.
   * Each look reads every prompt waiting for approval, of every user. 0: only on `open()`.
   * @default 0
   */
  sweepEveryMs?: number;
};

/** A child prompt's agent and depth, read from its metadata; undefined for any other prompt. */
function childOf(
  registry: AgentRegistry,
  prompt: Prompt,
): { name: string; agent: Agent | undefined; depth: number } | undefined {
  const name = prompt.metadata?.agent;
  if (typeof name !== 'string') return undefined;
  const depth = prompt.metadata?.depth;
  return {
    name,
    agent: registry.get(name),
    depth: typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? depth : registry.maxDepth,
  };
}

/** The user's prompt a tree of agents runs for: a child's `root`, or the prompt itself for a user's prompt. */
export function rootOf(prompt: Prompt): string {
  const root = prompt.metadata?.root;
  return typeof prompt.metadata?.agent === 'string' && typeof root === 'string' ? root : prompt.id;
}

/** The depth of the prompt that calls an agent: 0 for a prompt no agent runs. */
export function depthOf(prompt: Prompt): number {
  const depth = prompt.metadata?.depth;
  return typeof prompt.metadata?.agent === 'string' && typeof depth === 'number' && depth > 0 ? depth : 0;
}

/** The tool ids a child at `depth` may use: its agent's, without other agents once the depth is reached. */
function allowedTools(registry: AgentRegistry, agent: Agent, depth: number): ReadonlySet<string> {
  return new Set(agent.tools.filter((id) => !registry.byToolId(id) || depth < registry.maxDepth));
}

/** How many child prompts' calls of the round in progress are remembered (see `callPosition`). */
const MAX_TRACKED_PROMPTS = 1_000;

const toolCallsOf = (prompt: Prompt) => prompt.output.filter((o) => o.type === 'tool');

/** Whether the child may make no more tool calls: its last round, or its tool calls used up. */
const budgetSpent = (agent: Agent, prompt: Prompt) =>
  prompt.usage.modelCalls + 1 >= agent.maxRounds || toolCallsOf(prompt).length >= agent.maxToolCalls;

function instructionsOf(agent: Agent, forked: boolean, spent: boolean): string {
  const lines = [
    agent.instructions,
    '',
    `You are the sub-agent '${agent.name}': another agent gave you the task in the user message${forked ? ', after the conversation so far' : ''}.`,
    'Work on it on your own; nobody will answer questions. Your final message is your answer, and all that the other agent reads: make it complete and self-contained.',
    `You may make at most ${agent.maxRounds} model calls and ${agent.maxToolCalls} tool calls.`,
  ];
  if (spent) lines.push('Your budget is spent: answer now with what you have, without calling tools.');
  return lines.join('\n');
}

/**
 * What the parent model reads when the child did not complete: an error, naming the child's record. A child
 * cancelled ends the call `cancelled` (`ToolCallError`), one that failed `tool_failed`.
 */
function failure(run: AgentRun): Error {
  const how = run.state === 'cancelled' ? 'was cancelled' : run.state;
  const why = run.stopReason ? `: ${run.stopReason.message}` : '';
  const partial = run.answer ? ` Its last answer: ${run.answer}` : '';
  const message = `Agent '${run.agent}' ${how}${why} (conversation ${run.conversationId}, prompt ${run.promptId}).${partial}`;
  return run.state === 'cancelled' ? new ToolCallError('cancelled', message) : new Error(message);
}

/**
 * The agents plugin: offers each agent to the model as a tool, `agent.<name>`, which runs it as a child
 * prompt in a conversation of its own (or a fork of the parent's) and returns its answer; in the child,
 * gives the agent's instructions and only its tools, and keeps it to its budgets.
 *
 * @throws {DefinitionError} for an invalid agent, two agents of one name, an agent that may use an agent
 * that is not defined, or an invalid `maxDepth`.
 */
export function agentsPlugin(options: AgentsPluginOptions): Plugin<Record<string, never>> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 10) {
    throw new DefinitionError(
      `Plugin 'agents': maxDepth must be a whole number from 1 to 10, not ${maxDepth}.`,
    );
  }
  if (!Array.isArray(options.agents) || options.agents.length === 0) {
    throw new DefinitionError(`Plugin 'agents': give at least one agent (agents: [defineAgent({...})]).`);
  }
  const agents = options.agents.map((agent) => defineAgent(agent));
  const names = new Set<string>();
  for (const agent of agents) {
    if (names.has(agent.name))
      throw new DefinitionError(`Plugin 'agents': two agents are named '${agent.name}'.`);
    names.add(agent.name);
  }
  const maxRunsPerPrompt = options.maxRunsPerPrompt ?? DEFAULT_MAX_RUNS_PER_PROMPT;
  if (!Number.isInteger(maxRunsPerPrompt) || maxRunsPerPrompt < 1 || maxRunsPerPrompt > 10_000) {
    throw new DefinitionError(
      `Plugin 'agents': maxRunsPerPrompt must be a whole number from 1 to 10,000, not ${maxRunsPerPrompt}.`,
    );
  }
  const sweepEveryMs = options.sweepEveryMs ?? 0;
  if (!Number.isInteger(sweepEveryMs) || sweepEveryMs < 0) {
    throw new DefinitionError(
      `Plugin 'agents': sweepEveryMs must be a whole number of ms, 0 or more, not ${sweepEveryMs}.`,
    );
  }
  const registry = new AgentRegistry(agents, maxDepth, maxRunsPerPrompt);
  /** What resumes parents in each platform that started the plugin (`open()`). */
  const resumers = new Map<Platform, ParentResumer>();
  for (const agent of agents) {
    for (const id of agent.tools) {
      if (id.startsWith('agent.') && !registry.byToolId(id)) {
        throw new DefinitionError(
          `Agent '${agent.name}' may use '${id}', but no agent of that name is defined.`,
        );
      }
    }
  }

  /**
   * The calls `beforeToolCall` saw, by child prompt: the calls of a round are recorded only after they are
   * decided, so a call's place among the prompt's calls is the recorded ones, then those of its round seen
   * before it. Bounded: the oldest prompts are forgotten (their calls are recorded by then).
   */
  const seen = new Map<string, Set<string>>();
  const callPosition = (prompt: Prompt, callId: string): number => {
    const recorded = toolCallsOf(prompt).map((call) => call.id);
    const at = recorded.indexOf(callId);
    if (at >= 0) return at;
    let ids = seen.get(prompt.id);
    if (!ids) {
      ids = new Set();
      seen.set(prompt.id, ids);
      if (seen.size > MAX_TRACKED_PROMPTS) seen.delete(seen.keys().next().value!);
    }
    ids.add(callId);
    const done = new Set(recorded);
    const batch = [...ids].filter((id) => !done.has(id));
    return recorded.length + batch.indexOf(callId);
  };

  const tools: AnyTool[] = agents.map((agent) =>
    createTool({
      id: agentToolId(agent.name),
      description: `${agent.description}\n\nA sub-agent: give it a complete, self-contained task; it works on its own and returns its answer.`,
      input: z.object({
        task: z
          .string()
          .min(1)
          .max(MAX_TASK_CHARS)
          .describe('The task, with everything the agent needs to know: it does not read this conversation.'),
      }),
      readOnly: agent.readOnly,
      // Run again, it finds the child it started (its id derives from the call's): a call cut off by a
      // crash is run again by recover() rather than interrupted.
      idempotent: true,
      timeoutMs: agent.timeoutMs,
      invoke: async (call): Promise<AgentToolResult | CallSuspension> => {
        const platform = call.services.resolve(PlatformToken);
        const parent = await platform.getPrompt(call.promptId, call.userId);
        const options: RunAgentOptions = {
          agent,
          userId: call.userId,
          task: call.input.task,
          parentDepth: depthOf(parent),
          parent: {
            conversationId: call.conversationId,
            promptId: call.promptId,
            toolCallId: call.toolCallId,
          },
          root: rootOf(parent),
          promptId: childPromptId(call.toolCallId),
          signal: call.signal,
          emitter: call,
        };
        // Suspended, the call is resumed when the child ends by the plugin's start() subscription: a
        // platform that was not opened has none, so its calls wait for the child in memory as before.
        let run: AgentRun;
        if (resumers.has(platform)) {
          const outcome = await runOrWait(platform, registry, options);
          if (!('run' in outcome)) {
            return suspendCall(
              boundText(
                `Agent '${agent.name}' waits for your decision in its conversation: ${outcome.waitsFor}`,
                MAX_SUSPEND_REASON_CHARS,
              ),
            );
          }
          run = outcome.run;
        } else {
          run = await runAgent(platform, registry, options);
        }
        if (run.state !== 'completed') throw failure(run);
        // The model reads the answer and the summary; the usage is on the agent-run output, for apps.
        const { usage: _, ...read } = run;
        return read;
      },
    }),
  );

  return definePlugin({
    id: AGENTS_PLUGIN_ID,
    outputs: [agentRunOutput],
    tools,
    services: (container) => container.register(AgentRegistryToken, { useValue: registry }),
    conversationDeleted: deleteChildren,
    start: ({ platform, signal, reportError }) => {
      const resumer = new ParentResumer(platform, registry, signal, reportError);
      resumers.set(platform, resumer);
      resumer.start(sweepEveryMs);
    },
    stop: async ({ platform }) => {
      const resumer = resumers.get(platform);
      resumers.delete(platform);
      await resumer?.stop();
    },
    hooks: {
      beforeModelCall: ({ prompt, request }) => {
        const child = childOf(registry, prompt);
        if (!child) return undefined;
        const { agent, depth } = child;
        if (!agent) {
          return {
            skip: { text: `The agent '${child.name}' is no longer defined in this app: nothing was done.` },
          };
        }
        const spent = budgetSpent(agent, prompt);
        const allowed = allowedTools(registry, agent, depth);
        return {
          instructions: instructionsOf(agent, agent.history === 'fork', spent),
          tools: spent ? [] : request.tools.filter((tool) => allowed.has(tool.name)),
        };
      },
      beforeToolCall: ({ prompt, call }) => {
        const agent = childOf(registry, prompt)?.agent;
        if (!agent || callPosition(prompt, call.id) < agent.maxToolCalls) return undefined;
        return {
          skip: {
            error: `Agent '${agent.name}' may make at most ${agent.maxToolCalls} tool calls: this one did not run. Answer with what you have.`,
          },
        };
      },
      betweenRounds: ({ prompt }) => {
        const agent = childOf(registry, prompt)?.agent;
        if (!agent || prompt.usage.modelCalls < agent.maxRounds) return undefined;
        return { stop: `agent '${agent.name}' used its ${agent.maxRounds} model calls` };
      },
    },
    permissions: ({ prompt, call }) => {
      const child = childOf(registry, prompt);
      if (!child) return undefined;
      if (child.agent && allowedTools(registry, child.agent, child.depth).has(call.toolId)) return undefined;
      return { decision: 'deny', reason: `Agent '${child.name}' may not use ${call.toolId}.` };
    },
  });
}
