import { DefinitionError, errorMessage, TesseraError } from '../errors.ts';
import type { Prompt } from '../model/outputs.ts';
import type { AnyPlugin, ContextItem } from '../plugins/define-plugin.ts';
import type { ModelToolDefinition } from '../provider/provider.ts';
import type { AnyTool } from '../tools/create-tool.ts';
import type { ConversationStates } from './plugin-state.ts';
import type { Runtime } from './runtime.ts';

export type OfferedTool = { tool: AnyTool; plugin: AnyPlugin };

/** What the plugins contributed for one model call. */
export type Round = {
  tools: Map<string, OfferedTool>;
  definitions: ModelToolDefinition[];
  instructions: string;
};

export class PluginError extends TesseraError {
  constructor(pluginId: string, cause: unknown) {
    super('plugin_error', `Plugin '${pluginId}' failed in prepare(): ${errorMessage(cause)}`, { cause });
  }
}

const definitions = new WeakMap<AnyTool, ModelToolDefinition>();

/** A tool as the model sees it, built once per tool. */
function definitionOf(tool: AnyTool): ModelToolDefinition {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = { name: tool.id, description: tool.description, parameters: tool.jsonSchema };
    definitions.set(tool, definition);
  }
  return definition;
}

/** Runs every plugin's `prepare()` in registration order and collects this round's tools and context. */
export async function prepareRound(
  runtime: Runtime,
  states: ConversationStates,
  scope: { prompt: Prompt; history: readonly Prompt[]; round: number; signal: AbortSignal },
): Promise<Round> {
  const tools = new Map<string, OfferedTool>();
  const items: { item: ContextItem; rank: number }[] = [];
  if (runtime.options.instructions)
    items.push({ item: { text: runtime.options.instructions, order: -1000 }, rank: 0 });

  for (const plugin of runtime.plugins) {
    // A plugin without prepare() offers its static tools as they are: nothing to copy.
    const pushedTools: readonly AnyTool[] = plugin.prepare ? [...plugin.tools] : plugin.tools;
    const pushedContext: ContextItem[] = [];
    if (plugin.prepare) {
      try {
        await plugin.prepare({
          userId: scope.prompt.userId,
          conversationId: scope.prompt.conversationId,
          prompt: scope.prompt,
          history: scope.history,
          round: scope.round,
          state: states.for(plugin),
          tools: pushedTools as AnyTool[],
          context: pushedContext,
          services: runtime.services,
          signal: scope.signal,
        });
      } catch (error) {
        throw error instanceof TesseraError ? error : new PluginError(plugin.id, error);
      }
    }
    for (const tool of pushedTools) {
      const existing = tools.get(tool.id);
      if (existing?.tool === tool) continue;
      if (existing) {
        throw new DefinitionError(
          `Tool id '${tool.id}' is offered twice in one round: by plugin '${existing.plugin.id}' and by plugin '${plugin.id}'.`,
        );
      }
      if (tool.state && tool.state !== plugin.state) {
        throw new DefinitionError(
          `Tool '${tool.id}' declares the state schema of another plugin than '${plugin.id}', which offers it.`,
        );
      }
      tools.set(tool.id, { tool, plugin });
    }
    for (const item of pushedContext) {
      if (item.text.trim() !== '') items.push({ item, rank: items.length });
    }
  }

  if (items.length > 1) items.sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0) || a.rank - b.rank);
  const definitions: ModelToolDefinition[] = [];
  for (const { tool } of tools.values()) definitions.push(definitionOf(tool));
  return {
    tools,
    definitions,
    instructions: items.length === 1 ? items[0]!.item.text : items.map(({ item }) => item.text).join('\n\n'),
  };
}
