import { DefinitionError, PluginError, TesseraError } from '../errors.ts';
import type { Prompt } from '../model/prompt.ts';
import {
  type AnyPlugin,
  type ContextItem,
  foreignStateError,
  type OfferedTool,
} from '../plugins/define-plugin.ts';
import type { ModelToolDefinition } from '../provider/provider.ts';
import { type AnyTool, type BoundCreateTool, bindCreateTool } from '../tools/create-tool.ts';
import type { ConversationStates } from './plugin-state.ts';
import type { Round, RoundCaches } from './round-caches.ts';
import type { Runtime } from './runtime.ts';

/** A tool as the model sees it, built once per tool. */
function definitionOf(caches: RoundCaches, tool: AnyTool): ModelToolDefinition {
  let definition = caches.definitions.get(tool);
  if (!definition) {
    definition = { name: tool.id, description: tool.description, parameters: tool.jsonSchema };
    caches.definitions.set(tool, definition);
  }
  return definition;
}

/** Adds a tool to a round's map, refusing the same id from two tools. */
function offer(map: Map<string, OfferedTool>, tool: AnyTool, plugin: AnyPlugin): void {
  const existing = map.get(tool.id);
  if (existing?.tool === tool) return;
  if (existing) {
    throw new DefinitionError(
      `Tool id '${tool.id}' is offered twice in one round: by plugin '${existing.plugin.id}' and by plugin '${plugin.id}'.`,
    );
  }
  // Static tools were checked by definePlugin; this catches tools pushed in prepare().
  if (tool.state && tool.state !== plugin.state) throw foreignStateError(tool.id, plugin.id);
  map.set(tool.id, { tool, plugin });
}

/** The plugin's bound `tool` helper for `prepare()`, made once per plugin. */
function toolHelperOf(caches: RoundCaches, plugin: AnyPlugin): BoundCreateTool<unknown> {
  let helper = caches.helpers.get(plugin);
  if (!helper) {
    helper = bindCreateTool(plugin.state);
    caches.helpers.set(plugin, helper);
  }
  return helper;
}

/** Runs every plugin's `prepare()` in registration order and collects this round's tools and context. */
export async function prepareRound(
  runtime: Runtime,
  states: ConversationStates,
  scope: { prompt: Prompt; history: readonly Prompt[]; round: number; signal: AbortSignal },
): Promise<Round> {
  const { caches } = runtime;
  if (caches.staticRound) return caches.staticRound;
  const last = caches.lastOffer;
  const offered: AnyTool[] = [];
  const by: AnyPlugin[] = [];
  /** Built as soon as this round's offer departs from the last one (until then, nothing to build). */
  let map: Map<string, OfferedTool> | undefined;
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
          tool: toolHelperOf(caches, plugin),
          context: pushedContext,
          services: runtime.services,
          signal: scope.signal,
        });
      } catch (error) {
        throw TesseraError.is(error) ? error : new PluginError(plugin.id, error);
      }
    }
    for (const tool of pushedTools) {
      const index = offered.push(tool) - 1;
      by.push(plugin);
      if (!map) {
        if (last?.tools[index] === tool && last.by[index] === plugin) continue;
        map = new Map();
        for (let i = 0; i < index; i++) offer(map, offered[i]!, by[i]!); // as checked in the last round
      }
      offer(map, tool, plugin);
    }
    for (const item of pushedContext) {
      if (item.text.trim() !== '') items.push({ item, rank: items.length });
    }
  }

  let current = last;
  if (map || !current || current.tools.length !== offered.length) {
    if (!map) {
      map = new Map();
      for (let i = 0; i < offered.length; i++) offer(map, offered[i]!, by[i]!);
    }
    const definitions: ModelToolDefinition[] = [];
    for (const { tool } of map.values()) definitions.push(definitionOf(caches, tool));
    current = { tools: offered, by, map, definitions: Object.freeze(definitions) };
    caches.lastOffer = current;
  }
  if (items.length > 1) items.sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0) || a.rank - b.rank);
  const round: Round = {
    tools: current.map,
    definitions: current.definitions as ModelToolDefinition[],
    instructions: items.length === 1 ? items[0]!.item.text : items.map(({ item }) => item.text).join('\n\n'),
  };
  if (!runtime.plugins.some((plugin) => plugin.prepare)) caches.staticRound = Object.freeze(round);
  return round;
}
