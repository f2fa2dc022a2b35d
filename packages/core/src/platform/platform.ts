import type { PluginError } from '../errors.ts';
import type { EventFilter, EventHandler, StreamOptions } from '../events/event-bus.ts';
import type { TesseraEvent } from '../events/events.ts';
import type { EventRelay } from '../events/relay.ts';
import type { BudgetRaise } from '../loop/budgets.ts';
import type { OfferedTool } from '../loop/prepare-round.ts';
import type { Budgets, DoomLoopOptions } from '../loop/runtime.ts';
import type { Conversation } from '../model/conversation.ts';
import type { NewOutput } from '../model/outputs.ts';
import type { ModelClass, Prompt } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import type { AnyPlugin, Plugin } from '../plugins/define-plugin.ts';
import type { PluginState } from '../plugins/plugin-state.ts';
import type { ModelProvider } from '../provider/provider.ts';
import type { DependencyContainer } from '../services.ts';
import type { Page, PageOptions, Store } from '../store/store.ts';

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
  /**
   * Doom-loop detection: the prompt pauses for the user (continue or stop, `platform.resume`) when the model
   * calls the same tool with the same arguments `repeats` times in a row, or repeats a cycle of calls (A, B,
   * A, B, ...) that often, across rounds. After "continue" it counts again from there. `false` turns it off.
   * @default { repeats: 3 }
   */
  doomLoop?: Partial<DoomLoopOptions> | false;
};

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
export type ToolCallDecision = {
  /** Who decides; only the prompt's own user can. */
  userId: string;
  /** `true` runs the call; `false` rejects it. */
  approve: boolean;
  /** Why, in the user's words: recorded with the decision, and read by the model after a rejection. */
  reason?: string;
  /**
   * Approving only: run the call with these arguments instead of the model's. Validated by the tool's
   * schema (`ApprovalInputError`, and the call still waits, when they do not match); recorded as
   * `editedInput` beside the model's `input`, and what the model is sent from then on.
   */
  input?: unknown;
};

/** A decision on a pause (a repeated loop of calls, a plugin's `betweenRounds`, or a budget reached). */
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
   * Deletes the conversation and its prompts. Its running prompts are cancelled first, then every plugin's
   * `conversationDeleted` hook runs; if one throws, nothing is deleted and the deletion can be retried.
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
   * Decides what a prompt waits on: a pending tool call (`{ approve }`) or a pause (`{ choice }`, as
   * `resume`). Resolves once the decision is recorded, with the resumed run: `done` resolves when its loop
   * stops (for a server that answers before the loop ends). Approving runs the tool once with its original
   * input; rejecting records an error the model reads. Works from the store alone: the prompt may have been
   * paused by another process. `approve`, `reject` and `resume` do the same and resolve with the prompt
   * when the resumed loop stops.
   *
   * @throws {NotFoundError} when there is no such call or pause, or its prompt is another user's.
   * @throws {ConflictError} when it is not waiting for a decision (it was already decided).
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
   * Decides a pause (`pause` output, `prompt.pause-requested`): `continue` resumes the loop (the doom-loop
   * check counts afresh from here, it is not turned off), `stop` ends the prompt. Resolves, like `approve`,
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
