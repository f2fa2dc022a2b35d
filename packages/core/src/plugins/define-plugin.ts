import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import { DefinitionError } from '../errors.ts';
import type { Prompt } from '../model/outputs.ts';
import type { AnyOutputVariant } from '../outputs/define-output.ts';
import type { AnyTool, PluginState, ToolInput, ToolInputExtensions } from '../tools/create-tool.ts';

/**
 * A piece of system context. Lower `order` comes first; give text that rarely changes a low order so the
 * start of the instructions stays the same from round to round and prompt caches stay warm.
 */
export type ContextItem = { text: string; order?: number };

export const CONTEXT_ORDER = { stable: -100, normal: 0, volatile: 100 } as const;

export type PrepareContext<TState> = {
  userId: string;
  conversationId: string;
  /** The prompt being run, with its outputs so far. */
  prompt: Prompt;
  /** The conversation's earlier prompts, oldest first. */
  history: readonly Prompt[];
  /** 0 for the first model call of this prompt, then 1, 2, ... */
  round: number;
  state: PluginState<TState>;
  /** Push the tools to offer the model in this round. */
  tools: AnyTool[];
  /** Push the context items (system instructions) for this round. */
  context: ContextItem[];
  services: DependencyContainer;
  signal: AbortSignal;
};

/** What a plugin's `toolInput` hook receives: a tool's input without plugin extensions. */
export type ToolInputBase = Omit<ToolInput<unknown>, keyof ToolInputExtensions>;

export type PluginDefinition<TState> = {
  /** Unique across the app; also the key of the plugin's state in each conversation. */
  id: string;
  /** The plugin's per-conversation state. Must accept `undefined` (give it a `.default(...)`). */
  state?: z.ZodType<TState>;
  /** Output variants this plugin adds to the record. */
  outputs?: readonly AnyOutputVariant[];
  /** Tools offered in every round (checked for duplicates at start-up); `prepare` can add more. */
  tools?: readonly AnyTool[];
  /** Registers the plugin's services in the app's container. */
  services?: (container: DependencyContainer) => void;
  /** Adds the plugin's side-channel helpers (e.g. `displayWidget`) to every tool's input. */
  toolInput?: (base: ToolInputBase) => Partial<ToolInputExtensions>;
  /** Runs before every model call: push this round's tools and context from the plugin's state. */
  prepare?: (context: PrepareContext<TState>) => void | Promise<void>;
  /**
   * Runs when a conversation is deleted, before its record goes: remove what the plugin keeps for it outside
   * its state (stored files, schedules). A throw stops the deletion, which can then be retried, so make it
   * safe to run twice.
   */
  conversationDeleted?: (context: ConversationDeletedContext) => void | Promise<void>;
};

export type ConversationDeletedContext = {
  conversationId: string;
  userId: string;
  services: DependencyContainer;
};

export type Plugin<TState = unknown> = Readonly<
  PluginDefinition<TState> & {
    state: z.ZodType<TState>;
    outputs: readonly AnyOutputVariant[];
    tools: readonly AnyTool[];
  }
>;

// biome-ignore lint/suspicious/noExplicitAny: a plugin of any state
export type AnyPlugin = Plugin<any>;

const PLUGIN_ID = /^[a-z][a-z0-9_.-]{0,63}$/;

/** Defines a plugin. Mistakes in the definition are reported here, naming the plugin. */
export function definePlugin<TState = Record<string, never>>(
  definition: PluginDefinition<TState>,
): Plugin<TState> {
  const { id } = definition;
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
    throw new DefinitionError(
      `Plugin id '${String(id)}' is not valid: use 1-64 lowercase letters, digits, '_', '-' or '.', starting with a letter.`,
    );
  }
  const state = definition.state ?? (z.object({}).default({}) as unknown as z.ZodType<TState>);
  if (!state.safeParse(undefined).success) {
    throw new DefinitionError(
      `Plugin '${id}': its state schema must accept a missing state; add a default, e.g. z.object({...}).default({...}).`,
    );
  }
  const tools = definition.tools ?? [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.id)) throw new DefinitionError(`Plugin '${id}' lists tool '${tool.id}' twice.`);
    seen.add(tool.id);
  }
  return Object.freeze({ ...definition, state, outputs: definition.outputs ?? [], tools });
}
