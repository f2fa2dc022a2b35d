import type { DependencyContainer } from 'tsyringe';
import type { PluginError } from '../errors.ts';
import type { EventRelay } from '../events/relay.ts';
import type { Budgets } from '../loop/runtime.ts';
import type { ModelClass } from '../model/prompt.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';
import type { ModelProvider } from '../provider/provider.ts';
import type { Store } from '../store/store.ts';

/** What `createPlatform()` composes: the plugins, the model and the store, and how the loop is bounded. */
export type PlatformOptions = {
  /**
   * The plugins, in the order their context, tools and hooks apply (and start in, except that a plugin
   * starts after those it `requires`). Plugin ids, output types and static tool ids must be unique across
   * them.
   * @default []
   * @throws {DefinitionError} from `createPlatform()`, naming the plugin, when two plugins share an id, a
   * tool id or output type is defined twice, a plugin `requires` one that is not in the set, plugins
   * require each other in a cycle, or a plugin's `core` range does not include this core's version.
   */
  plugins?: readonly AnyPlugin[];
  /**
   * The model provider every prompt calls: `createOpenAIProvider()` from `@tessera/openai`, the scripted
   * model of `@tessera/testing` in tests, or your own `ModelProvider`.
   */
  model: ModelProvider;
  /**
   * Where conversations, prompts and plugin records live.
   * @default a new in-memory `MemoryStore` (gone when the process ends)
   */
  store?: Store;
  /**
   * The concrete model name the provider is asked for, per model class; a prompt picks its class with
   * `SendOptions.model`.
   * @default { normal: 'normal', high: 'high' } (names a scripted model accepts)
   */
  models?: Partial<Record<ModelClass, string>>;
  /**
   * Hard limits per prompt, merged over the defaults. Reaching one pauses the prompt (`source: 'budget'`)
   * until its user continues with a larger one (`resume(id, { choice: 'continue', budgets })`) or stops;
   * the wall time ends it (`stopReason.code: 'max_wall_time'`).
   * @default DEFAULT_BUDGETS (25 model calls, 100 tool calls, 10 minutes of wall time per run, no token or
   * cost limit, 5 tool calls failing in a row, 8 tool calls at once)
   */
  budgets?: Partial<Budgets>;
  /** The app's own instructions to the model, placed before every plugin's context. */
  instructions?: string;
  /**
   * How long one tool call may run, in ms, unless the tool sets its own `timeoutMs`; a call that runs
   * longer is aborted and recorded as a `timeout` error the model reads.
   * @default 120000
   */
  toolTimeoutMs?: number;
  /**
   * The most characters of each tool result the model reads (a longer one loses its middle, with a note
   * saying how much), and about the most of each call's arguments it is sent back (long strings in them
   * lose their middle, so they stay JSON); the record keeps all of it.
   * @default DEFAULT_MAX_RESULT_CHARS (20,000)
   */
  maxResultChars?: number;
  /**
   * Fits the conversation history sent with every model call into this many estimated tokens, dropping
   * the oldest prompts first (`ModelProvider.estimateTokens`, or about four characters a token).
   * @default no limit: the whole history is sent
   */
  historyTokens?: number;
  /**
   * The most a conversation holds: once the record of its prompts (as JSON, in characters; the running
   * prompt's input and outputs so far included) is longer than this, the prompt ends before its next model
   * or tool call, `failed` (`stopReason.code: 'conversation_full'`, its input kept), and later sends to the
   * conversation throw `ConversationFullError`, so that no read of a conversation (every prompt's start
   * reads its history) grows without bound. A fork shares its source's history.
   * @default DEFAULT_MAX_CONVERSATION_CHARS (10,000,000)
   */
  maxConversationChars?: number;
  /**
   * The most conversations one user has: past it, `conversations.create` and `fork` throw a `TesseraError`
   * `too_many_conversations` (the user deletes some first). Every conversation is read by its user's list
   * pages and searches; the store counts them (`ConversationStore.countByUser`) on each create.
   * @default DEFAULT_MAX_CONVERSATIONS (10,000)
   * @throws {DefinitionError} from `createPlatform()` when it is not a positive integer.
   */
  maxConversations?: number;
  /**
   * The most branches of one lineage (a conversation and every fork of it, forks of forks included, as
   * `conversations.branches` lists them): past it, `conversations.fork` throws a `TesseraError`
   * `too_many_branches` (the user deletes a branch first). Each fork holds its own copy of the ids of the
   * prompts it shares, which every read of it aggregates.
   * @default DEFAULT_MAX_BRANCHES (100)
   * @throws {DefinitionError} from `createPlatform()` when it is not a positive integer.
   */
  maxBranches?: number;
  /**
   * The parent of the platform's own service container, for services the app shares with its plugins.
   * @default tsyringe's root container
   */
  services?: DependencyContainer;
  /**
   * Called when an event subscriber throws or rejects; the loop and the other subscribers are never
   * affected.
   * @default errors of subscribers are ignored
   */
  onSubscriberError?: (error: unknown) => void;
  /**
   * Called with a `PluginError` naming the plugin when a plugin's `stop()` throws during `close()` (the
   * other plugins still stop, and the store still closes), or when a plugin reports a failure of its
   * background work (`PluginStartContext.reportError`).
   * @default `console.error`
   */
  onPluginError?: (error: PluginError) => void;
  /**
   * Carries events and cancel requests between the processes that share the store, so that subscribers see
   * every process's prompts and `cancel` reaches a prompt another process runs.
   * @default `store.relay` (none for the in-memory store: one process)
   */
  relay?: EventRelay;
  /**
   * How long `cancel` waits, in ms, for another (live) process to stop a prompt it runs before it gives up
   * with a `ConflictError`. A prompt whose process died is cancelled at once, without waiting.
   * @default 10000
   */
  remoteCancelTimeoutMs?: number;
  /**
   * How often, in ms, an open platform (from `open()` to `close()`) looks for prompts whose process died and
   * resumes them, as `recover()` does, so that a live process takes them over without waiting for a restart.
   * A look costs one query to the store when there is nothing to claim. 0 turns it off.
   * @default 2000 for a store several processes share (one that offers a `relay`), else 0 (off: the
   * in-memory store and PGlite belong to one process)
   */
  recoverEveryMs?: number;
  /**
   * Called when a periodic recovery (see `recoverEveryMs`) fails, e.g. while the store is unreachable (the
   * next one is tried as planned), or when a prompt it resumed could not record its end.
   * @default `console.error`
   */
  onRecoveryError?: (error: unknown) => void;
};
