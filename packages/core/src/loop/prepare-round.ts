import { DefinitionError, PluginError, TesseraError } from '../errors.ts';
import type { Prompt } from '../model/prompt.ts';
import {
  type AnyPlugin,
  type ContextItem,
  foreignStateError,
  type OfferedTool,
} from '../plugins/define-plugin.ts';
import type { ModelToolDefinition } from '../provider/provider.ts';
import { type AnyTool, bindCreateTool } from '../tools/create-tool.ts';
import type { ConversationStates } from './plugin-state.ts';
import { cached, type Offer, type Round, type RoundCaches } from './round-caches.ts';
import type { Runtime } from './runtime.ts';

/** Runs every plugin's `prepare()` in registration order and collects this round's tools and context. */
export async function prepareRound(
  runtime: Runtime,
  states: ConversationStates,
  scope: { prompt: Prompt; history: readonly Prompt[]; round: number; signal: AbortSignal },
): Promise<Round> {
  const { caches } = runtime;
  if (caches.staticRound) return caches.staticRound;
  const tools: AnyTool[] = [];
  const by: AnyPlugin[] = [];
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
          tool: cached(caches.helpers, plugin, () => bindCreateTool(plugin.state)),
          context: pushedContext,
          services: runtime.services,
          signal: scope.signal,
        });
      } catch (error) {
        throw TesseraError.is(error) ? error : new PluginError(plugin.id, error);
      }
    }
    for (const tool of pushedTools) {
      tools.push(tool);
      by.push(plugin);
    }
    for (const item of pushedContext) {
      if (item.text.trim() !== '') items.push({ item, rank: items.length });
    }
  }

  const offer = isLastOffer(caches.lastOffer, tools, by) ? caches.lastOffer : newOffer(caches, tools, by);
  if (items.length > 1) items.sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0) || a.rank - b.rank);
  const round: Round = {
    tools: offer.map,
    definitions: offer.definitions as ModelToolDefinition[],
    instructions: items.length === 1 ? items[0]!.item.text : items.map(({ item }) => item.text).join('\n\n'),
  };
  if (!runtime.plugins.some((plugin) => plugin.prepare)) caches.staticRound = Object.freeze(round);
  return round;
}

/**
 * Whether a round offers the very same tools as the last (by identity, in the same order, from the same
 * plugins), as most rounds do: it then reuses the last map and definitions, for a few pointer checks a tool.
 */
function isLastOffer(last: Offer | undefined, tools: AnyTool[], by: AnyPlugin[]): last is Offer {
  return (
    last?.tools.length === tools.length &&
    tools.every((tool, i) => last.tools[i] === tool && last.by[i] === by[i])
  );
}

/** A new offer, the round's tools by id (the same id from two tools is refused), and the last one from now on. */
function newOffer(caches: RoundCaches, tools: AnyTool[], by: AnyPlugin[]): Offer {
  const map = new Map<string, OfferedTool>();
  const definitions: ModelToolDefinition[] = [];
  tools.forEach((tool, i) => {
    const plugin = by[i]!;
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
    // A tool as the model sees it, built once per tool.
    definitions.push(
      cached(caches.definitions, tool, () => ({
        name: tool.id,
        description: tool.description,
        parameters: tool.jsonSchema,
      })),
    );
  });
  caches.lastOffer = { tools, by, map, definitions: Object.freeze(definitions) };
  return caches.lastOffer;
}
