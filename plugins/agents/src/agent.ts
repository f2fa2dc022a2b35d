import { DefinitionError, ModelClass } from '@tessera/core';
import { z } from 'zod';

/** An agent's name: what its tool is called after (`agent.<name>`) and what `metadata.agent` records. */
export const AGENT_NAME = /^[a-z][a-z0-9_-]{0,47}$/;

/** The prefix of every agent's tool id: the tool of agent `researcher` is `agent.researcher`. */
export const AGENT_TOOL_PREFIX = 'agent.';

/** The tool id of agent `name`. */
export const agentToolId = (name: string): string => `${AGENT_TOOL_PREFIX}${name}`;

/** Longest task a parent may give (the tool's `task` argument, and the code API's). */
export const MAX_TASK_CHARS = 20_000;

const TOOL_ID = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The definition of an agent as `defineAgent` takes it (and a config file gives it). */
export const AgentOptions = z
  .object({
    /** 1-48 lowercase letters, digits, `_` or `-`, starting with a letter; unique in the plugin. */
    name: z
      .string()
      .regex(AGENT_NAME, "use 1-48 lowercase letters, digits, '_' or '-', starting with a letter"),
    /** What the agent does, for the parent model: the description of its tool. */
    description: z.string().trim().min(1).max(1_000),
    /** The child prompt's instructions: they replace the app's (see the README). */
    instructions: z.string().trim().min(1).max(20_000),
    /**
     * The ids of the tools the agent may use: a subset of what the app offers. `agent.<name>` lets it
     * delegate to that agent in turn (while the depth allows).
     * @default [] (it answers from its task alone)
     */
    tools: z
      .array(z.string().regex(TOOL_ID, "a tool id: 1-64 letters, digits, '_', '-' or '.'"))
      .max(200)
      .default([]),
    /** The class of model the child runs on. @default 'normal' */
    model: ModelClass.default('normal'),
    /**
     * `task`: the child sees only its task, in a conversation of its own. `fork`: the child's conversation
     * is a fork of the parent's at the parent's prompt, so it reads the history before it, then its task.
     * @default 'task'
     */
    history: z.enum(['task', 'fork']).default('task'),
    /**
     * The agent only reads: its tool is read-only (so core runs several of its calls in one batch at once),
     * and every tool it may use must be read-only too (checked when it is delegated to).
     * @default false
     */
    readOnly: z.boolean().default(false),
    /** Model calls the child may make; its last one is offered no tools. @default 10 */
    maxRounds: z.number().int().min(1).max(200).default(10),
    /** Tool calls the child may make; calls past it are skipped, and the model is told. @default 20 */
    maxToolCalls: z.number().int().min(0).max(1_000).default(20),
    /**
     * How long the parent's call may wait for the child, approvals it waits for included; then the child is
     * cancelled and the call ends with a timeout. @default 600000 (10 minutes)
     */
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(24 * 3_600_000)
      .default(600_000),
  })
  .strict();

export type AgentOptions = z.input<typeof AgentOptions>;

/** An agent, checked, with its defaults: what `defineAgent` returns. */
export type Agent = Readonly<Omit<z.output<typeof AgentOptions>, 'tools'>> & {
  readonly tools: readonly string[];
};

/**
 * Defines an agent: a name, a description for the parent model, instructions, the tools it may use, its
 * model class, history and budgets. Mistakes are reported here, naming the agent and every problem.
 *
 * @throws {DefinitionError} for a definition the schema refuses.
 * @example
 * ```ts
 * const researcher = defineAgent({
 *   name: 'researcher',
 *   description: 'Finds facts in the notes and reports them with their sources.',
 *   instructions: 'You research. Use notes.search; answer with the facts and where you found them.',
 *   tools: ['notes.search'],
 *   readOnly: true,
 * });
 * ```
 */
export function defineAgent(options: AgentOptions): Agent {
  const parsed = AgentOptions.safeParse(options);
  if (!parsed.success) {
    const name = typeof options?.name === 'string' ? options.name : String(options?.name);
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(definition)'}: ${issue.message}`,
    );
    throw new DefinitionError(`Agent '${name}' is not valid: ${problems.join('; ')}.`);
  }
  const agent = parsed.data;
  return Object.freeze({ ...agent, tools: Object.freeze([...new Set(agent.tools)]) });
}
