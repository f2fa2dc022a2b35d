import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import { DefinitionError } from '../errors.ts';
import { lazyRequire } from '../lazy-require.ts';
import type { Prompt } from '../model/prompt.ts';
import type { AnyOutputVariant } from '../outputs/define-output.ts';
import type { Platform } from '../platform/platform.ts';
import {
  type AnyTool,
  type BoundCreateTool,
  bindCreateTool,
  type ToolInput,
  type ToolInputExtensions,
} from '../tools/create-tool.ts';
import type { PermissionPolicy, PluginGuardrails, PluginHooks } from './hooks.ts';
import type { PluginState } from './plugin-state.ts';

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
  /** `createTool` bound to this plugin's state, for tools made in `prepare()`. */
  tool: BoundCreateTool<TState>;
  /** Push the context items (system instructions) for this round. */
  context: ContextItem[];
  services: DependencyContainer;
  signal: AbortSignal;
};

/** What a plugin's `toolInput` hook receives: a tool's input without plugin extensions. */
export type ToolInputBase = Omit<ToolInput<unknown>, keyof ToolInputExtensions>;

/**
 * A plugin state that changes shape between versions of the plugin. Stored state remembers the version it
 * was written with; state of an older version is migrated when a conversation is next used, validated by
 * `schema`, and written back.
 */
export type VersionedState<TState> = {
  /** The state as this version of the plugin reads and writes it. Must accept `undefined` (a default). */
  schema: z.ZodType<TState>;
  /** The version of `schema`: a positive integer, raised whenever stored state needs migrating. */
  version: number;
  /**
   * Brings `stored`, written at `fromVersion`, to `version`; the result is validated by `schema`. Called
   * with every older version the plugin ever wrote, so chain the steps yourself. Version 0 is state stored
   * by the plugin before it declared versions (as a plain schema). Synchronous and without side effects: it
   * may run again if writing the result back fails.
   */
  migrate: (stored: unknown, fromVersion: number) => unknown;
};

/** What a plugin's `stop()` receives: the platform that stops it (a plugin may run in several). */
export type PluginStopContext = {
  platform: Platform;
  services: DependencyContainer;
};

/** What a plugin's `start()` receives. */
export type PluginStartContext = PluginStopContext & {
  /** Aborted when the platform closes, just before the plugins' `stop()` hooks run. */
  signal: AbortSignal;
  /**
   * Reports a failure of the plugin's background work (a scheduled job that threw) without stopping it:
   * it reaches `PlatformOptions.onPluginError` as a `PluginError` naming the plugin.
   */
  reportError: (error: unknown) => void;
};

export type PluginDefinition<TState> = {
  /** Unique across the app; also the key of the plugin's state in each conversation. */
  id: string;
  /** The plugin's own package version, used in messages. */
  version?: string;
  /**
   * The semver range of @tessera/core the plugin works with, e.g. `'^0.1.0'`; `createPlatform` refuses a
   * core outside it, naming the plugin, its range and core's version.
   */
  core?: string;
  /** Ids of plugins that must be in the same platform; they are started before this one and stopped after it. */
  requires?: readonly string[];
  /**
   * The plugin's per-conversation state: a zod schema (unversioned), or `{ schema, version, migrate }` when
   * its shape changes between versions of the plugin. The schema must accept `undefined` (give it a
   * `.default(...)`).
   */
  state?: z.ZodType<TState> | VersionedState<TState>;
  /** Output variants this plugin adds to the record. */
  outputs?: readonly AnyOutputVariant[];
  /**
   * Tools offered in every round (checked for duplicates at start-up); `prepare` can add more. Either an
   * array, or a function given `tool`, a `createTool` whose `state` has the plugin's state type.
   */
  tools?: readonly AnyTool[] | ((helpers: { tool: BoundCreateTool<TState> }) => readonly AnyTool[]);
  /** Registers the plugin's services in the app's container. */
  services?: (container: DependencyContainer) => void;
  /** Adds the plugin's side-channel helpers (e.g. `displayWidget`) to every tool's input. */
  toolInput?: (base: ToolInputBase) => Partial<ToolInputExtensions>;
  /** Runs before every model call: push this round's tools and context from the plugin's state. */
  prepare?: (context: PrepareContext<TState>) => void | Promise<void>;
  /** Hooks into the loop (before and after model and tool calls, between rounds), run in plugin order. */
  hooks?: PluginHooks<TState>;
  /** Input and output guardrails: checks that end the prompt (`stopReason.code: 'guardrail'`). */
  guardrails?: PluginGuardrails<TState>;
  /** A permission policy: allow, deny or ask per tool id and input, over the tools' `requireApproval`. */
  permissions?: PermissionPolicy<TState>;
  /**
   * Runs when a conversation is deleted, before its record goes: remove what the plugin keeps for it outside
   * its state (stored files, schedules). A throw stops the deletion, which can then be retried, so make it
   * safe to run twice.
   */
  conversationDeleted?: (context: ConversationDeletedContext) => void | Promise<void>;
  /**
   * Starts the plugin's background work (schedulers, watchers): called once by `platform.open()`, after the
   * plugins it `requires`. A throw fails `open()` and stops the plugins already started.
   */
  start?: (context: PluginStartContext) => void | Promise<void>;
  /**
   * Stops what `start()` started for this platform: called by `platform.close()`, before the plugins it
   * `requires`. A throw is reported (`PlatformOptions.onPluginError`); the other plugins still stop.
   */
  stop?: (context: PluginStopContext) => void | Promise<void>;
};

export type ConversationDeletedContext = {
  conversationId: string;
  userId: string;
  services: DependencyContainer;
};

export type Plugin<TState = unknown> = Readonly<
  Omit<PluginDefinition<TState>, 'state' | 'tools' | 'outputs' | 'requires'> & {
    /** The state schema (of a versioned state, its `schema`). */
    state: z.ZodType<TState>;
    /** The version of the state this plugin writes: 0 for a plain schema. */
    stateVersion: number;
    /** Brings stored state of an older version to `stateVersion` (versioned state only). */
    migrateState?: (stored: unknown, fromVersion: number) => unknown;
    outputs: readonly AnyOutputVariant[];
    tools: readonly AnyTool[];
    requires: readonly string[];
  }
>;

// biome-ignore lint/suspicious/noExplicitAny: a plugin of any state
export type AnyPlugin = Plugin<any>;

export const PLUGIN_ID = /^[a-z][a-z0-9_.-]{0,63}$/;

/** Marks what `definePlugin` returns, in every copy of this package: `Symbol.for` gives them all one symbol. */
const PLUGIN_BRAND = Symbol.for('tessera.plugin');

/**
 * Whether `value` is a plugin that `definePlugin` returned, of this or of another copy of @tessera/core (an
 * app can end up with two, where `instanceof`-like checks fail). A copy of a plugin (`{ ...plugin }`) is not:
 * only `definePlugin` checks a definition.
 *
 * @example
 * ```ts
 * const { default: exported } = await import('@acme/tessera-crm');
 * if (!isPlugin(exported)) throw new Error('@acme/tessera-crm exports no plugin');
 * ```
 */
export function isPlugin(value: unknown): value is AnyPlugin {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true
  );
}

/** `id`, with the plugin's version when it has one: for messages. */
export const pluginLabel = (plugin: { id: string; version?: string }): string =>
  plugin.version ? `${plugin.id}@${plugin.version}` : plugin.id;

const isVersioned = <T>(state: z.ZodType<T> | VersionedState<T>): state is VersionedState<T> =>
  typeof (state as { safeParse?: unknown }).safeParse !== 'function';

/** The schema, version and migration of a plugin's state definition, checked. */
function stateOf<TState>(id: string, definition: PluginDefinition<TState>['state']) {
  const state = definition ?? (z.object({}).default({}) as unknown as z.ZodType<TState>);
  if (!isVersioned(state)) return { schema: state, version: 0 };
  const { schema, version, migrate } = state;
  if (typeof (schema as { safeParse?: unknown } | undefined)?.safeParse !== 'function') {
    throw new DefinitionError(
      `Plugin '${id}': state is neither a zod schema nor { schema, version, migrate }.`,
    );
  }
  if (!Number.isInteger(version) || version < 1) {
    throw new DefinitionError(
      `Plugin '${id}': state.version must be a positive integer (0 is state stored before versions), not ${String(version)}.`,
    );
  }
  if (typeof migrate !== 'function') {
    throw new DefinitionError(`Plugin '${id}': a versioned state needs migrate(stored, fromVersion).`);
  }
  return { schema, version, migrate };
}

function checkRequires(id: string, requires: unknown): readonly string[] {
  if (requires === undefined) return [];
  if (!Array.isArray(requires) || requires.some((r) => typeof r !== 'string' || !PLUGIN_ID.test(r))) {
    throw new DefinitionError(`Plugin '${id}': requires must be an array of plugin ids.`);
  }
  if (requires.includes(id)) throw new DefinitionError(`Plugin '${id}' requires itself.`);
  return Object.freeze([...new Set(requires as string[])]);
}

const HOOKS = [
  'beforeFirstModelCall',
  'historyView',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
  'betweenRounds',
];

/** Every hook, guardrail and policy a plugin gives must be a function, and named as core knows them. */
function checkHooks(id: string, definition: PluginDefinition<unknown>): void {
  const groups: [string, unknown, readonly string[]][] = [
    ['hooks', definition.hooks, HOOKS],
    ['guardrails', definition.guardrails, ['input', 'output']],
  ];
  for (const [group, value, names] of groups) {
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null) {
      throw new DefinitionError(`Plugin '${id}': ${group} must be an object of functions.`);
    }
    for (const [name, hook] of Object.entries(value)) {
      if (!names.includes(name)) {
        throw new DefinitionError(`Plugin '${id}': ${group}.${name} is not one of ${names.join(', ')}.`);
      }
      if (hook !== undefined && typeof hook !== 'function') {
        throw new DefinitionError(`Plugin '${id}': ${group}.${name} must be a function.`);
      }
    }
  }
  if (definition.permissions !== undefined && typeof definition.permissions !== 'function') {
    throw new DefinitionError(`Plugin '${id}': permissions must be a function.`);
  }
}

/** Whether `range` is a semver range (semver's one function module, loaded only when a plugin has a range). */
const isSemverRange = (range: unknown): boolean =>
  (lazyRequire('semver/ranges/valid.js') as typeof import('semver/ranges/valid.js'))(range as string) !==
  null;

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
  if (definition.core !== undefined && !isSemverRange(definition.core)) {
    throw new DefinitionError(
      `Plugin '${id}': core '${String(definition.core)}' is not a semver range (e.g. '^0.1.0').`,
    );
  }
  for (const hook of ['start', 'stop'] as const) {
    if (definition[hook] !== undefined && typeof definition[hook] !== 'function') {
      throw new DefinitionError(`Plugin '${id}': ${hook} must be a function.`);
    }
  }
  checkHooks(id, definition as PluginDefinition<unknown>);
  const requires = checkRequires(id, definition.requires);
  const { schema, version, migrate } = stateOf(id, definition.state);
  if (!schema.safeParse(undefined).success) {
    throw new DefinitionError(
      `Plugin '${id}': its state schema must accept a missing state; add a default, e.g. z.object({...}).default({...}).`,
    );
  }
  const tools =
    typeof definition.tools === 'function'
      ? definition.tools({ tool: bindCreateTool(schema) })
      : (definition.tools ?? []);
  if (!Array.isArray(tools)) {
    throw new DefinitionError(`Plugin '${id}': tools must be an array, or a function that returns one.`);
  }
  const seen = new Set<string>();
  for (const tool of tools as readonly AnyTool[]) {
    if (seen.has(tool.id)) throw new DefinitionError(`Plugin '${id}' lists tool '${tool.id}' twice.`);
    seen.add(tool.id);
    if (tool.state && tool.state !== schema) throw foreignStateError(tool.id, id);
  }
  const plugin = {
    ...definition,
    state: schema,
    stateVersion: version,
    ...(migrate && { migrateState: migrate }),
    outputs: definition.outputs ?? [],
    tools: Object.freeze([...tools]),
    requires,
  };
  // Not enumerable: a spread copy of the plugin does not carry it.
  Object.defineProperty(plugin, PLUGIN_BRAND, { value: true });
  return Object.freeze(plugin);
}

/** A tool typed with another state than the plugin that offers it would get the wrong state at run time. */
export const foreignStateError = (toolId: string, pluginId: string): DefinitionError =>
  new DefinitionError(
    `Tool '${toolId}' declares a state schema that is not the one of plugin '${pluginId}', which offers it: ` +
      `pass the plugin's own schema object, or create the tool with the plugin's bound helper ` +
      `(tools: ({ tool }) => [tool({ ... })], or tool in prepare()), which needs no state.`,
  );
