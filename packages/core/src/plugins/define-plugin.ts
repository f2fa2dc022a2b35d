import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import { DefinitionError } from '../errors.ts';
import type { EventFilter, EventHandler, Following, RelayTopic, StreamOptions } from '../events/event-bus.ts';
import type { TesseraEvent } from '../events/events.ts';
import { lazyRequire } from '../lazy-require.ts';
import type { BudgetRaise } from '../model/budgets.ts';
import type { Conversation } from '../model/conversation.ts';
import type { NewOutput } from '../model/outputs.ts';
import type { PluginState } from '../model/plugin-state.ts';
import type { ModelClass, Prompt } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { AnyOutputVariant } from '../outputs/define-output.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import type { ModelProvider } from '../provider/provider.ts';
import type { Page, PageOptions, Store } from '../store/store.ts';
import {
  type AnyTool,
  type BoundCreateTool,
  bindCreateTool,
  type ToolInput,
  type ToolInputExtensions,
} from '../tools/create-tool.ts';
import type { PermissionPolicy, PluginGuardrails, PluginHooks } from './hooks.ts';

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
   * Runs when a conversation is forked, after the fork is stored: give the fork what the plugin keeps outside
   * its state for the prompts it shares (the files plugin lets it read their files). A fork starts with the
   * source's plugin state as it was. A throw undoes the fork (it is deleted) and fails `fork()`.
   */
  conversationForked?: (context: ConversationForkedContext) => void | Promise<void>;
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

export type ConversationForkedContext = {
  /** The new conversation. */
  conversationId: string;
  /** The conversation it was forked from. */
  sourceId: string;
  userId: string;
  /** The prompts the fork shares with its source, oldest first. */
  sharedPromptIds: readonly string[];
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

/** `id`, checked as a plugin's id (of a plugin or of a plugin factory). */
export function checkPluginId(id: unknown): string {
  if (typeof id === 'string' && PLUGIN_ID.test(id)) return id;
  throw new DefinitionError(
    `Plugin id '${String(id)}' is not valid: use 1-64 lowercase letters, digits, '_', '-' or '.', starting with a letter.`,
  );
}

/** The error for a mistake in the definition of plugin `id`. */
const invalid = (id: string, problem: string) => new DefinitionError(`Plugin '${id}': ${problem}`);

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
    throw invalid(id, 'state is neither a zod schema nor { schema, version, migrate }.');
  }
  if (!Number.isInteger(version) || version < 1) {
    throw invalid(
      id,
      `state.version must be a positive integer (0 is state stored before versions), not ${String(version)}.`,
    );
  }
  if (typeof migrate !== 'function')
    throw invalid(id, 'a versioned state needs migrate(stored, fromVersion).');
  return { schema, version, migrate };
}

function checkRequires(id: string, requires: unknown): readonly string[] {
  if (requires === undefined) return [];
  if (!Array.isArray(requires) || requires.some((r) => typeof r !== 'string' || !PLUGIN_ID.test(r))) {
    throw invalid(id, 'requires must be an array of plugin ids.');
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

/** Every hook, guardrail and lifecycle function a plugin gives must be a function, named as core knows them. */
function checkHooks(id: string, definition: PluginDefinition<unknown>): void {
  for (const key of ['start', 'stop', 'permissions'] as const) {
    if (definition[key] !== undefined && typeof definition[key] !== 'function') {
      throw invalid(id, `${key} must be a function.`);
    }
  }
  const groups: [string, unknown, readonly string[]][] = [
    ['hooks', definition.hooks, HOOKS],
    ['guardrails', definition.guardrails, ['input', 'output']],
  ];
  for (const [group, value, names] of groups) {
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null)
      throw invalid(id, `${group} must be an object of functions.`);
    for (const [name, hook] of Object.entries(value)) {
      if (!names.includes(name)) throw invalid(id, `${group}.${name} is not one of ${names.join(', ')}.`);
      if (hook !== undefined && typeof hook !== 'function')
        throw invalid(id, `${group}.${name} must be a function.`);
    }
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
  const id = checkPluginId(definition.id);
  if (definition.core !== undefined && !isSemverRange(definition.core)) {
    throw invalid(id, `core '${String(definition.core)}' is not a semver range (e.g. '^0.1.0').`);
  }
  checkHooks(id, definition as PluginDefinition<unknown>);
  const requires = checkRequires(id, definition.requires);
  const { schema, version, migrate } = stateOf(id, definition.state);
  if (!schema.safeParse(undefined).success) {
    throw invalid(
      id,
      'its state schema must accept a missing state; add a default, e.g. z.object({...}).default({...}).',
    );
  }
  const tools =
    typeof definition.tools === 'function'
      ? definition.tools({ tool: bindCreateTool(schema) })
      : (definition.tools ?? []);
  if (!Array.isArray(tools)) {
    throw invalid(id, 'tools must be an array, or a function that returns one.');
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

// The platform as plugins see it (their start() and stop() receive it): part of the plugin contract, so it
// lives here, beside the plugins it lists; platform/ implements it (createPlatform).

/** A tool offered in a round, with the plugin that offered it. */
export type OfferedTool = { tool: AnyTool; plugin: AnyPlugin };

/** What `start()` and `send()` start: a prompt in a conversation, with or without input from the user. */
export type SendOptions = {
  /** The conversation the prompt belongs to; it must belong to `userId`. */
  conversationId: string;
  /** The user the prompt runs for; only they can see it, approve its calls or cancel it. */
  userId: string;
  /** The user's message; leave it out for prompts the system starts (triggers, schedules). */
  input?: string;
  /**
   * Which class of model answers: `normal`, or `high` for harder work (mapped to a model name by
   * `PlatformOptions.models`).
   * @default 'normal'
   */
  model?: ModelClass;
  /**
   * Whether apps show the prompt in the conversation; recorded on the prompt for them (core shows and
   * hides nothing itself).
   * @default true
   */
  visible?: boolean;
  /** Free-form facts about the prompt, recorded on it for whoever reads it later, e.g. `{ trigger: 'trg_…' }`. */
  metadata?: Record<string, unknown>;
  /**
   * The new prompt's id. A caller that must start a prompt exactly once (a scheduler, a queue consumer)
   * chooses it before and may retry with it: a prompt with that id is never created twice (`ConflictError`).
   * 1-100 of A-Z, a-z, 0-9, `_` and `-`.
   * @default a fresh id (`prm_…`)
   */
  promptId?: string;
  /**
   * Outputs the prompt starts with, before the model runs (e.g. the files a user uploaded with the input);
   * validated against their registered variants.
   * @default []
   */
  outputs?: readonly NewOutput[];
  /**
   * The conversation's title if it has none yet (a chat app names a conversation after its first message),
   * stored with the prompt rather than by a rename after it: 1-200 characters, trimmed. A conversation that
   * has a title keeps it.
   */
  title?: string;
  /** Aborting it cancels the prompt, as `cancel()` does: the model call and running tools are aborted. */
  signal?: AbortSignal;
};

/** A prompt whose loop was started or resumed: `done` resolves when the loop stops (ended or paused). */
export type PromptRun = {
  /** The prompt as it was when its loop started (or resumed). */
  prompt: Prompt;
  /** Resolves with the prompt as stored once its loop stops: answered, failed, cancelled or paused for approval. */
  done: Promise<Prompt>;
};

/** What `start()` returns: the run, and its conversation as read to start it (without the new prompt's id). */
export type StartedPrompt = PromptRun & { conversation: Conversation };

/** A decision on a tool call that waits for approval. */
/**
 * A decision on a pending tool call: exactly one of `approve` (run it, or with `false` reject it), `answer`
 * (do not run it: this is its result) or `skip` (do not run it; the model goes on without it). Giving more
 * than one, or none, is a `TesseraError` `invalid_input`, and the call still waits.
 */
export type ToolCallDecision = ApproveCallDecision | AnswerCallDecision | SkipCallDecision;

type CallDecisionBase = {
  /** Who decides; only the prompt's own user can. */
  userId: string;
  /**
   * Why, in the user's words: recorded with the decision (`approval.comment`), and read by the model after a
   * rejection, an answer or a skip.
   */
  reason?: string;
};

/** Approve (`true`: the call runs) or reject (`false`: it does not; the model reads that it was refused). */
export type ApproveCallDecision = CallDecisionBase & {
  /** `true` runs the call; `false` rejects it. */
  approve: boolean;
  /**
   * Approving only: run the call with these arguments instead of the model's. Validated by the tool's
   * schema (`ApprovalInputError`, and the call still waits, when they do not match); recorded as
   * `editedInput` beside the model's `input`, and what the model is sent from then on.
   */
  input?: unknown;
  answer?: never;
  skip?: never;
};

/**
 * Answer the call instead of running it: the tool never runs, the call's result is `{ type: 'success',
 * output: answer }` (`approval.decision: 'answered'`), and the model is sent the answer with a note that the
 * user gave it. Any JSON value (`null` too); one that JSON cannot store, or longer than
 * `MAX_RESULT_RECORD_CHARS` as JSON, is `invalid_input` and the call still waits.
 */
export type AnswerCallDecision = CallDecisionBase & {
  answer: unknown;
  approve?: never;
  input?: never;
  skip?: never;
};

/**
 * Skip the call: the tool never runs, the call's result is an error `skipped` (`approval.decision:
 * 'skipped'`) telling the model the user chose to skip it and to go on without it.
 */
export type SkipCallDecision = CallDecisionBase & {
  skip: true;
  approve?: never;
  input?: never;
  answer?: never;
};

/** A decision on a pause (a plugin's `betweenRounds`, or a budget reached). */
export type PauseDecision = {
  /** Who decides; only the prompt's own user can. */
  userId: string;
  /** `continue` runs the next round; `stop` ends the prompt (`stopReason.code: 'stopped_by_user'`). */
  choice: 'continue' | 'stop';
  /**
   * At a budget pause (`source: 'budget'`), `continue` needs a larger limit for the budget reached, e.g.
   * `{ maxRounds: 50 }` (others may be raised too): positive finite numbers (whole, but for `maxCost`) larger
   * than what the prompt has used. They are kept on the pause (`raised`), so the prompt goes on from where it
   * stopped with them, in any process. Refused (`invalid_input`) at any other pause, with `stop`, or for an
   * unknown name.
   */
  budgets?: BudgetRaise;
};

/** A message for a conversation that may be busy. */
export type MessageOptions = {
  conversationId: string;
  userId: string;
  input: string;
  /**
   * `steer`: the running prompt's model reads it at its next round boundary (never between a call and its
   * result); `queue`: it runs as the next prompt once the current one ends, in order. On an idle
   * conversation either runs at once, as a prompt with the message's id.
   */
  mode: 'steer' | 'queue';
  /** As `start()`'s: the model class of the prompt the message runs as (a follow-up, or an idle conversation's). */
  model?: ModelClass;
  /** As `start()`'s: kept with the message and given to the prompt it runs as (e.g. the sender's `timeZone`). */
  metadata?: Record<string, unknown>;
};

/** What became of a message sent with `messages.send()`: `SentMessage.delivery`. */
export type MessageDelivery =
  /** It ran as a prompt of its own (with the message's id), started by this platform: `run.done` its end. */
  | { type: 'prompt'; run: PromptRun }
  /** Another process sharing the store ran it as the prompt `promptId` (the message's id). */
  | { type: 'prompt-elsewhere'; promptId: string }
  /** A steering message reached the running prompt `promptId`, as a `steering` output. */
  | { type: 'steering'; promptId: string }
  /** Its user removed it, or deleted the conversation, before it was delivered. */
  | { type: 'removed' }
  /** The platform closed first: the message still waits in the store, for the next platform to run. */
  | { type: 'closed' }
  /** 10,000 later messages are watched and this one no longer is: read the conversation to learn of it. */
  | { type: 'untracked' };

/** A message that waits (or, when the conversation was idle, the prompt it started: `run`). */
export type SentMessage = {
  message: QueuedMessage;
  run?: PromptRun;
  /**
   * Resolves (never rejects) once the message is delivered: a queued one when it runs as its own prompt
   * (at once on an idle conversation, else when the prompts before it end), a steering one when the
   * running prompt reads it; or when it is removed, or the platform closes first.
   *
   * @example
   * ```ts
   * const sent = await platform.messages.send({ conversationId, userId, input: 'Then B', mode: 'queue' });
   * const delivery = await sent.delivery;
   * if (delivery.type === 'prompt') console.log((await delivery.run.done).state);
   * ```
   */
  delivery: Promise<MessageDelivery>;
};

/** Messages sent to a busy conversation: steering and follow-ups, kept in the store until delivered. */
export interface PlatformMessages {
  /**
   * Adds a message to the conversation's waiting list (never refused as busy) and publishes
   * `message.queued`; starts it at once when nothing runs or waits in the conversation.
   * @throws {NotFoundError} when there is no such conversation of the user.
   * @throws {TesseraError} `invalid_input` for empty input or another mode; `not_supported` for a store
   * without `messages`.
   */
  send(message: MessageOptions): Promise<SentMessage>;
  /** The conversation's waiting messages, oldest first. */
  list(conversationId: string, userId: string): Promise<QueuedMessage[]>;
  /**
   * Takes a waiting message off the list (`message.removed`).
   * @throws {NotFoundError} when it is not waiting (delivered, removed, or another user's).
   */
  remove(messageId: string, by: { userId: string; conversationId: string }): Promise<void>;
}

/** A user's conversations: every method checks the conversation belongs to the user. */
export interface PlatformConversations {
  /**
   * Creates an empty conversation for a user.
   * @throws {TesseraError} `invalid_input` without a `userId`.
   */
  create(input: { userId: string; title?: string }): Promise<Conversation>;
  /**
   * A conversation of the user.
   * @throws {NotFoundError} when there is none with that id, or it is another user's.
   */
  get(conversationId: string, userId: string): Promise<Conversation>;
  /**
   * A page of the user's conversations, most recently updated first; pass `nextCursor` back as `cursor`
   * for the next page.
   */
  list(userId: string, page?: PageOptions): Promise<Page<Conversation>>;
  /**
   * The conversation's prompts, oldest first.
   * @throws {NotFoundError} when there is no such conversation of the user.
   */
  prompts(conversationId: string, userId: string): Promise<Prompt[]>;
  /**
   * Sets the conversation's title: 1-200 characters, trimmed. Resolves with the renamed conversation.
   * @throws {NotFoundError} when there is no such conversation of the user.
   * @throws {TesseraError} `invalid_input` for an empty or longer title.
   */
  rename(conversationId: string, userId: string, title: string): Promise<Conversation>;
  /**
   * Forks the conversation at one of its prompts: a new conversation of the user sharing the prompts before
   * `promptId` by reference, with none of its own yet, the source's plugin state as it is now, and `forkOf`
   * saying where it branched. Its title is `title` (1-200 characters, trimmed), else the source's, but for a
   * fork at the first prompt, which the first message names. The prompt may be running or waiting: the
   * prompts before it have ended, and only they are shared. The source is not changed. Start a prompt in the
   * fork with any model or plugins: the model reads only the fork's history.
   * @throws {NotFoundError} when there is no such conversation of the user, or it has no such prompt.
   * @throws {TesseraError} `invalid_input` for a bad title; `not_supported` for a store without `fork`.
   */
  fork(
    conversationId: string,
    userId: string,
    input: { promptId: string; title?: string },
  ): Promise<Conversation>;
  /**
   * The conversations of this conversation's lineage (its root and every fork of it, forks of forks
   * included), most recently updated first, a page at a time (50 unless given, at most 200).
   * @throws {NotFoundError} when there is no such conversation of the user.
   */
  branches(conversationId: string, userId: string, page?: PageOptions): Promise<Page<Conversation>>;
  /**
   * Deletes the conversation and its prompts. Its running prompts are cancelled first, then every plugin's
   * `conversationDeleted` hook runs; if one throws, nothing is deleted and the deletion can be retried.
   * The prompts a fork shares stay: a fork's history survives its source.
   * @throws {NotFoundError} when there is no such conversation of the user.
   */
  delete(conversationId: string, userId: string): Promise<void>;
}

/** The platform's events, as they happen: in this process, and from other processes when there is a relay. */
export interface PlatformEvents {
  /**
   * Calls `handler` for every event that matches `filter` (all events for `{}`) until the returned function
   * is called. Handlers run synchronously in publish order; one that throws or rejects goes to
   * `PlatformOptions.onSubscriberError` and never affects the loop.
   *
   * @example
   * ```ts
   * const unsubscribe = platform.events.subscribe({ conversationId }, (event) => {
   *   if (event.type === 'prompt.text-delta') process.stdout.write(event.delta);
   * });
   * ```
   */
  subscribe(filter: EventFilter, handler: EventHandler): () => void;
  /**
   * The events that match `filter` as an async iterator. A stream for one prompt (`{ promptId }`) ends when
   * that prompt's loop stops (completed, failed, cancelled, or paused for approval), or with
   * `options.throughPauses` only when the prompt ends (completed, failed or cancelled), following it
   * through every approval and pause; any stream ends when `options.signal` aborts or the loop over it
   * breaks. Events are numbered (`seq`) in publish order.
   *
   * @throws {EventStreamOverflowError} from the iterator when the reader fell `options.maxBuffered` events
   * behind (default 10,000); the platform itself is not affected.
   * @example
   * ```ts
   * const run = await platform.start({ conversationId, userId, input: 'Hello' });
   * for await (const event of platform.events.stream({ promptId: run.prompt.id })) {
   *   if (event.type === 'prompt.text-delta') process.stdout.write(event.delta);
   * }
   * ```
   */
  stream(filter: EventFilter, options?: StreamOptions): AsyncIterableIterator<TesseraEvent & { seq: number }>;
  /**
   * With several processes and a routed relay (`EventRelay.routes`), a process receives another process's
   * events only for the topics it follows: a conversation (`conversation:<id>`: all of its events) or a user
   * (`user:<id>`: their prompts' changes of state). Follows `topic` until the returned function is called;
   * interests are counted, so each caller releases its own. The platform follows the conversations of the
   * prompts it runs, cancels and sends messages to; an app follows what its clients watch (the server: a
   * conversation's stream, a user's). Without a routed relay every event arrives, followed or not. The
   * returned function's `ready` resolves once the topic's events reach this process (a routed relay takes a
   * moment to subscribe): wait for it before reading what a client may then miss.
   *
   * @example
   * ```ts
   * const unfollow = platform.events.follow(`conversation:${conversationId}`);
   * await unfollow.ready;
   * try { for await (const event of platform.events.stream({ conversationId }, { signal })) show(event); }
   * finally { unfollow(); }
   * ```
   */
  follow(topic: RelayTopic): Following;
}

/**
 * A running platform, made by `createPlatform()`: plugins, a model provider and a store composed into
 * conversations, prompts whose loop runs the model and the tools, human approval, and events.
 */
export interface Platform {
  /**
   * The platform's service container (a child of `PlatformOptions.services`): holds `StoreToken`,
   * `PlatformToken` and whatever the plugins registered; tools and hooks receive it.
   */
  readonly services: DependencyContainer;
  /** Subscribe to what prompts do, as they do it. */
  readonly events: PlatformEvents;
  /** The store the platform reads and writes (`PlatformOptions.store`). */
  readonly store: Store;
  /** The output variants the platform knows: core's and those its plugins registered. */
  readonly outputs: OutputRegistry;
  /** The plugins, as given in `PlatformOptions.plugins`. */
  readonly plugins: readonly AnyPlugin[];
  /** The model provider, as given in `PlatformOptions.model`. */
  readonly model: ModelProvider;
  /** Create, read, list, rename and delete a user's conversations. */
  readonly conversations: PlatformConversations;

  /**
   * A prompt of the user.
   * @throws {NotFoundError} when there is none with that id, or it is another user's.
   */
  getPrompt(promptId: string, userId: string): Promise<Prompt>;

  /**
   * Creates a prompt and starts its loop. Resolves once the prompt exists; `done` resolves when the loop
   * stops. Use it to stream the prompt's events while it runs.
   *
   * @throws {NotFoundError} when there is no such conversation of the user.
   * @throws {ConversationBusyError} when another prompt of the conversation is running or waiting for approval.
   * @throws {ConflictError} when a prompt with `send.promptId` exists.
   * @throws {OutputValidationError} when one of `send.outputs` does not match its variant.
   * @throws {TesseraError} `invalid_input` for an input that is not a string or a malformed `promptId`.
   * @example
   * ```ts
   * const run = await platform.start({ conversationId, userId, input: 'Summarise my inbox' });
   * for await (const event of platform.events.stream({ promptId: run.prompt.id })) console.log(event.type);
   * const prompt = await run.done;
   * ```
   */
  start(send: SendOptions): Promise<StartedPrompt>;

  /**
   * Sends input and resolves with the prompt once its loop stops: answered (`completed`), paused
   * (`waiting_for_approval`), or ended otherwise (`failed`, `cancelled`, with a `stopReason`). A failing
   * model or tool does not reject: it ends the prompt, recorded.
   *
   * @throws the same errors as {@link Platform.start}.
   * @example
   * ```ts
   * const prompt = await platform.send({ conversationId, userId: 'ada', input: 'Clear my notes' });
   * if (prompt.state === 'waiting_for_approval') {
   *   const pending = prompt.output.find((o) => o.type === 'tool' && o.result?.type === 'pending');
   * }
   * ```
   */
  send(send: SendOptions): Promise<Prompt>;

  /**
   * Decides what a prompt waits on: a pending tool call (`{ approve }`, `{ answer }` or `{ skip: true }`,
   * see {@link ToolCallDecision}) or a pause (`{ choice }`, as `resume`). Resolves once the decision is
   * recorded, with the resumed run: `done` resolves when its loop stops (for a server that answers before
   * the loop ends). Approving runs the tool once with its original input; rejecting records an error the
   * model reads; answering records the user's value as the call's result (the tool never runs; the model is
   * told the user gave it); skipping records an error `skipped` (the tool never runs; the model goes on). Works from the store alone: the prompt may have been
   * paused by another process. `approve`, `reject` and `resume` do the same and resolve with the prompt
   * when the resumed loop stops.
   *
   * @throws {NotFoundError} when there is no such call or pause, or its prompt is another user's.
   * @throws {ConflictError} when it is not waiting for a decision (it was already decided).
   * @throws {TesseraError} `invalid_input` for a call decision with more than one of `approve`, `answer` and
   * `skip` (or none), or an answer JSON cannot store or longer than `MAX_RESULT_RECORD_CHARS`.
   * @example
   * ```ts
   * await platform.decide(pending.id, { userId: 'ada', answer: { balance: 120 } });
   * await platform.decide(other.id, { userId: 'ada', skip: true, reason: 'Not needed.' });
   * ```
   */
  decide(id: string, decision: ToolCallDecision | PauseDecision): Promise<PromptRun>;

  /**
   * Approves a pending tool call and resolves with the prompt when the resumed loop stops.
   *
   * @throws {NotFoundError} when there is no such call, or its prompt is another user's.
   * @throws {ConflictError} when the call is not waiting for approval (it was already decided).
   * @example
   * ```ts
   * const pending = prompt.output.find((o) => o.type === 'tool' && o.result?.type === 'pending')!;
   * prompt = await platform.approve(pending.id, { userId: 'ada' });
   * ```
   */
  approve(toolCallId: string, by: { userId: string; input?: unknown }): Promise<Prompt>;

  /**
   * Rejects a pending tool call (it does not run; the model reads that, and `reason`) and resolves with the
   * prompt when the resumed loop stops.
   *
   * @throws {NotFoundError} when there is no such call, or its prompt is another user's.
   * @throws {ConflictError} when the call is not waiting for approval (it was already decided).
   * @example
   * ```ts
   * prompt = await platform.reject(pending.id, { userId: 'ada', reason: 'Not that account.' });
   * ```
   */
  reject(toolCallId: string, by: { userId: string; reason?: string }): Promise<Prompt>;

  /**
   * Decides a pause (`pause` output, `prompt.pause-requested`): `continue` resumes the loop (`betweenRounds`
   * hooks run again from the next boundary on), `stop` ends the prompt. Resolves, like `approve`,
   * with the prompt when the resumed loop stops (`decide(pauseId, decision)` resolves once the decision is
   * recorded, with the run). Past a budget, continue with a larger one:
   *
   * ```ts
   * await platform.resume(pause.id, { userId: 'ada', choice: 'continue', budgets: { maxRounds: 50 } });
   * ```
   *
   * @throws {NotFoundError} when there is no such pause, or its prompt is another user's.
   * @throws {ConflictError} when it was already decided.
   * @throws {TesseraError} `invalid_input` for a choice or `budgets` it refuses (see `PauseDecision.budgets`).
   */
  resume(pauseId: string, decision: PauseDecision): Promise<Prompt>;

  /** Steering and follow-up messages: send while a prompt runs or waits, list, remove. */
  readonly messages: PlatformMessages;

  /**
   * Stops a prompt and resolves with it as recorded. A running prompt's model call and tools are aborted,
   * in this process or (through the relay) in the live one that runs it; a running prompt whose process died
   * is claimed from the store and ended here at once (its open calls `cancelled`); a prompt waiting for
   * approval has its pending calls closed as `cancelled`.
   *
   * @throws {NotFoundError} when there is no such prompt of the user.
   * @throws {ConflictError} when the prompt is neither running nor waiting for approval (it already ended),
   * or another live process did not stop it within `PlatformOptions.remoteCancelTimeoutMs`.
   */
  cancel(promptId: string, by: { userId: string }): Promise<Prompt>;

  /**
   * Resumes prompts that were `running` when a process stopped (those the store's `claimOrphans()` hands
   * over: a prompt another live process runs stays with it, and so does one this platform runs): calls that
   * were in flight get an `interrupted` error (they may or may not have taken effect; read-only ones run
   * again, replacing what they had emitted) and the loop goes on. Resolves once the loops are started; each
   * run's `done` resolves when it stops. Call it at start-up; an open platform over a shared store also calls
   * it every `PlatformOptions.recoverEveryMs`, so that prompts of processes that die meanwhile are resumed.
   */
  recover(): Promise<PromptRun[]>;

  /**
   * The tools the model would be offered in the first round of the conversation's next prompt (one with
   * `options.metadata`), in order, each with the plugin that offers it: every plugin's `prepare()` runs as the
   * loop runs it, on a draft prompt that is never stored (a tool runner, an inspector, docs of a plugin set).
   *
   * @throws {NotFoundError} unless the conversation is the user's.
   * @throws {DefinitionError} when two tools of the round have one id (the loop would refuse that round).
   */
  offeredTools(
    conversationId: string,
    userId: string,
    options?: { metadata?: Record<string, unknown>; signal?: AbortSignal },
  ): Promise<ReadonlyMap<string, OfferedTool>>;

  /**
   * Read/write access to a plugin's state in a conversation from outside a prompt (e.g. the app), validated
   * by the plugin's schema like a tool's. Stored state of an older state version is migrated and written
   * back first, as a prompt does. It does not check the user: the caller has.
   *
   * @throws {NotFoundError} when there is no such conversation.
   * @throws {PluginStateError} when the stored state is of a newer version than the plugin's, or its
   * migration throws or gives invalid state (the stored state is left as it was).
   */
  pluginState<T>(conversationId: string, plugin: Plugin<T>): Promise<PluginState<T>>;

  /**
   * Starts the plugins' background work: calls each plugin's `start()` once, in dependency order (a plugin
   * after those it `requires`, otherwise in `PlatformOptions.plugins` order), and resolves when all have
   * started; then the periodic recovery starts (`PlatformOptions.recoverEveryMs`). Call it when the app is
   * ready to run prompts (after `recover()`, if it uses it). Idempotent: later calls wait for the same start.
   * Prompts run without it; only background work (plugins', the periodic recovery) needs it.
   *
   * @throws {PluginError} naming the plugin whose `start()` threw, with its error as `cause`; the plugins
   * already started have been stopped again (in reverse order), and `open()` may be called again.
   * @throws {ConflictError} after `close()`.
   * @example
   * ```ts
   * const platform = createPlatform({ plugins: [triggersPlugin()], model, store });
   * await platform.recover();
   * await platform.open(); // the triggers scheduler runs from here
   * // on shutdown:
   * await platform.close(); // stops it, then the prompts, then the store
   * ```
   */
  open(): Promise<void>;

  /**
   * Shuts the platform down, in this order: stops the periodic recovery (waiting for one in progress); stops
   * the plugins `open()` started, in reverse start order (each plugin's `signal` is aborted first; a `stop()`
   * that throws goes to `PlatformOptions.onPluginError` and the others still stop); cancels running prompts
   * and waits for them to record that; closes the store. Idempotent: later calls return the same promise.
   */
  close(): Promise<void>;
}
