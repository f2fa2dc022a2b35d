import { type AnyTool, type ContextItem, NotFoundError } from '@tessera/core';
import { McpConnection } from './connection.ts';
import type { McpSettings } from './options.ts';
import { promptTool } from './prompt-tool.ts';
import { resourceTools } from './resource-tools.ts';
import type { McpServerStatus, McpServers } from './status.ts';

/** A list made once per key: the same objects while nothing changed, so rounds reuse their tool lists. */
class Memo<T> {
  #key: string | undefined;
  #value: T | undefined;
  get(key: string, make: () => T): T {
    if (key !== this.#key) {
      this.#key = key;
      this.#value = make();
    }
    return this.#value!;
  }
}

/** Every MCP server of the app: what the plugin starts, stops and offers, and the `McpServers` service. */
export class McpServerSet implements McpServers {
  readonly #connections: readonly McpConnection[];
  readonly #resourceTools = new Memo<AnyTool[]>();
  readonly #promptTool = new Memo<AnyTool[]>();

  constructor(settings: McpSettings) {
    this.#connections = Object.entries(settings.servers).map(
      ([name, server]) => new McpConnection(name, server, settings),
    );
  }

  /** `report` hears of background failures that leave the model offered an old list. */
  start(report: (error: unknown) => void): Promise<void> {
    return Promise.all(this.#connections.map((connection) => connection.start(report))).then(() => {});
  }

  stop(): Promise<void> {
    return Promise.all(this.#connections.map((connection) => connection.stop())).then(() => {});
  }

  list(): McpServerStatus[] {
    return this.#connections.map((connection) => connection.status());
  }

  async reconnect(name: string): Promise<void> {
    const connection = this.#connections.find((c) => c.name === name);
    if (!connection) throw new NotFoundError(`There is no MCP server '${name}'.`);
    await connection.reconnect();
  }

  /**
   * This round's tools and context: each server's tools and instructions, and the resource and prompt tools
   * when a server has resources or prompts. Waits (a little) for lists a server said changed.
   */
  async offer(tools: AnyTool[], context: ContextItem[], signal: AbortSignal): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.settled(signal)));
    const withResources: McpConnection[] = [];
    const withPrompts: McpConnection[] = [];
    for (const connection of this.#connections) {
      if (!connection.offered) continue;
      tools.push(...connection.tools.current.tools);
      if (connection.instructions) context.push(connection.instructions);
      if (connection.hasResources) withResources.push(connection);
      if (connection.prompts.length > 0) withPrompts.push(connection);
    }
    const resourceKey = withResources.map((c) => c.name).join(',');
    if (resourceKey) tools.push(...this.#resourceTools.get(resourceKey, () => resourceTools(withResources)));
    const promptKey = JSON.stringify(withPrompts.map((c) => [c.name, c.prompts]));
    if (withPrompts.length > 0)
      tools.push(...this.#promptTool.get(promptKey, () => [promptTool(withPrompts)]));
  }
}
