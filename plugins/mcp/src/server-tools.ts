import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { type AnyTool, createTool, errorMessage, type ToolInput } from '@tessera/core';
import { toolPolicy } from './approval.ts';
import { jsonSchemaInput } from './json-schema-input.ts';
import type { ServerSettings } from './options.ts';
import { toolIds } from './tool-names.ts';

/** One of a server's tools as the status shows it. */
export type ToolInfo = {
  /** The id the model calls it by: `server.tool`. */
  id: string;
  /** The server's name for it. */
  name: string;
  title?: string;
  readOnly: boolean;
  requiresApproval: boolean;
};

/** A server's tool that is not offered, and why. */
export type SkippedTool = { name: string; reason: string };

/** Calls one tool of the server: what a Tessera tool's `invoke` hands over. */
export type CallTool = (
  name: string,
  id: string,
  input: ToolInput<Record<string, unknown>>,
) => Promise<string>;

type Built = { key: string; tool: AnyTool; info: ToolInfo };

export type ToolSet = {
  tools: readonly AnyTool[];
  infos: readonly ToolInfo[];
  skipped: readonly SkippedTool[];
};

/**
 * A server's tools as Tessera tools, rebuilt when the server's list changes. A tool whose definition did not
 * change keeps its object, so rounds that offer the same tools reuse their tool list, and an Ajv validator
 * compiled for it is kept.
 */
export class ServerTools {
  readonly #server: string;
  readonly #settings: ServerSettings;
  readonly #call: CallTool;
  #built = new Map<string, Built>();
  #set: ToolSet = { tools: [], infos: [], skipped: [] };

  constructor(server: string, settings: ServerSettings, call: CallTool) {
    this.#server = server;
    this.#settings = settings;
    this.#call = call;
  }

  get current(): ToolSet {
    return this.#set;
  }

  /** Takes the server's list (`tools/list`, every page). */
  update(listed: readonly McpTool[]): ToolSet {
    const skipped: SkippedTool[] = [];
    const offered = listed.filter((tool) => {
      if (this.#settings.tools[tool.name]?.enabled === false) {
        skipped.push({ name: tool.name, reason: "disabled in the app's settings" });
        return false;
      }
      if (tool.execution?.taskSupport === 'required') {
        skipped.push({
          name: tool.name,
          reason: 'it runs only as an MCP task, which Tessera does not use yet',
        });
        return false;
      }
      return true;
    });
    const ids = toolIds(
      this.#server,
      offered.map((tool) => tool.name),
    );
    const built = new Map<string, Built>();
    for (const tool of offered) {
      const id = ids.get(tool.name)!;
      const key = JSON.stringify([id, tool.title, tool.description, tool.inputSchema, tool.annotations]);
      const previous = this.#built.get(tool.name);
      if (previous?.key === key) {
        built.set(tool.name, previous);
        continue;
      }
      try {
        built.set(tool.name, { key, ...this.#build(tool, id) });
      } catch (error) {
        skipped.push({ name: tool.name, reason: errorMessage(error) });
      }
    }
    this.#built = built;
    const entries = [...built.values()];
    this.#set = { tools: entries.map((b) => b.tool), infos: entries.map((b) => b.info), skipped };
    return this.#set;
  }

  #build(tool: McpTool, id: string): Omit<Built, 'key'> {
    const names = { server: this.#server, tool: tool.name, id };
    const { readOnly, approval } = toolPolicy(tool.annotations, names, this.#settings);
    const description =
      tool.description?.trim() ||
      tool.title ||
      tool.annotations?.title ||
      `The tool '${tool.name}' of ${this.#server}.`;
    const built = createTool({
      id,
      description,
      input: jsonSchemaInput(tool.inputSchema),
      jsonSchema: tool.inputSchema,
      readOnly,
      ...(approval.required && { requireApproval: approval }),
      ...(this.#settings.timeoutMs !== undefined && { timeoutMs: this.#settings.timeoutMs }),
      invoke: (input) => this.#call(tool.name, id, input),
    });
    const title = tool.title ?? tool.annotations?.title;
    return {
      tool: built,
      info: { id, name: tool.name, ...(title && { title }), readOnly, requiresApproval: approval.required },
    };
  }
}
