import { DefinitionError, type DependencyContainer, type InjectionToken, TesseraError } from '@tessera/core';
import { AGENT_TOOL_PREFIX, type Agent } from './agent.ts';

/** How many child prompts one user's prompt may start, all depths together, unless `maxRunsPerPrompt` says. */
export const DEFAULT_MAX_RUNS_PER_PROMPT = 20;

/** The agents of one `agentsPlugin()`, by name, with its depth limit and its bound on runs per prompt. */
export class AgentRegistry {
  readonly #agents: ReadonlyMap<string, Agent>;
  readonly maxDepth: number;
  readonly maxRunsPerPrompt: number;

  constructor(agents: readonly Agent[], maxDepth: number, maxRunsPerPrompt = DEFAULT_MAX_RUNS_PER_PROMPT) {
    this.#agents = new Map(agents.map((agent) => [agent.name, agent]));
    this.maxDepth = maxDepth;
    this.maxRunsPerPrompt = maxRunsPerPrompt;
  }

  get(name: string): Agent | undefined {
    return this.#agents.get(name);
  }

  /** The agent whose tool is `toolId` (`agent.<name>`), if any. */
  byToolId(toolId: string): Agent | undefined {
    return toolId.startsWith(AGENT_TOOL_PREFIX)
      ? this.#agents.get(toolId.slice(AGENT_TOOL_PREFIX.length))
      : undefined;
  }

  /** Agent `name`, or an error naming the agents there are. */
  require(name: string): Agent {
    const agent = this.#agents.get(name);
    if (agent) return agent;
    throw new TesseraError(
      'invalid_input',
      `There is no agent '${name}'; the agents are: ${[...this.#agents.keys()].join(', ') || 'none'}.`,
    );
  }

  get all(): readonly Agent[] {
    return [...this.#agents.values()];
  }
}

export const AgentRegistryToken: InjectionToken<AgentRegistry> = Symbol.for('tessera.agents.registry');

/** The registry `agentsPlugin()` registered, or a clear error when the platform has no such plugin. */
export function registryOf(services: DependencyContainer): AgentRegistry {
  if (!services.isRegistered(AgentRegistryToken, true)) {
    throw new DefinitionError(
      "The agents plugin is not among the platform's plugins: add agentsPlugin({ agents }) to createPlatform().",
    );
  }
  return services.resolve(AgentRegistryToken);
}
