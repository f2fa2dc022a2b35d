import type { EventRelay } from '../events/relay.ts';
import type { Conversation } from '../model/conversation.ts';
import type { OutputBase } from '../model/outputs.ts';
import type { PromptRecord, PromptState } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { SearchHit } from './search.ts';

/** What `ConversationStore.fork` makes: the new conversation's own fields and where it branches off. */
export type NewFork = {
  id: string;
  userId: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
  forkOf: { conversationId: string; promptId: string };
};

export type Page<T> = { items: T[]; nextCursor?: string };
export type PageOptions = { limit?: number; cursor?: string };

/**
 * The most prompt ids a page of conversations holds in all (`listByUser`, `listBranches`). A conversation
 * lists its whole history's ids, and each fork of a long one lists the history it shares, so a page of 200
 * could hold millions; it ends early instead, with a `nextCursor`, before the conversation that would pass
 * this (the first of a page always comes, whole). About 1.3 MB of ids.
 */
export const PAGE_PROMPT_IDS = 50_000;

export interface ConversationStore {
  create(conversation: Conversation): Promise<void>;
  get(id: string): Promise<Conversation | undefined>;
  /**
   * The user's conversations, most recently updated first: `limit` of them, or fewer when they hold more
   * than `PAGE_PROMPT_IDS` prompt ids in all.
   */
  listByUser(userId: string, options?: PageOptions): Promise<Page<Conversation>>;
  /**
   * Deletes the conversation and its prompts, except those a fork shares: they stay while a conversation
   * refers to them (a fork's history survives its source), and go with the last one.
   */
  delete(id: string): Promise<boolean>;
  /** Writes one plugin's state, leaving the other plugins' states alone. */
  setPluginState(id: string, pluginId: string, state: unknown): Promise<void>;
  /** Sets the conversation's title (`NotFoundError` if there is no such conversation). */
  rename(id: string, title: string): Promise<void>;
  /**
   * The user's conversation and its history, as `get` and `prompts.listByConversation` give them, read at
   * once (one statement in PostgreSQL, where starting a prompt needs both); `undefined` when no conversation
   * of `userId` has that id (another user's reads nothing). Optional: without it core makes the two reads.
   */
  getWithHistory?(
    id: string,
    userId: string,
  ): Promise<{ conversation: Conversation; history: PromptRecord[] } | undefined>;
  /**
   * Forks `forkOf.conversationId` at `forkOf.promptId`, atomically: a new conversation of the same user whose
   * history is the source's prompts before that one, shared by reference (its `promptIds` list them; no
   * prompt is copied), then its own. Reading it costs what reading any conversation does, however deep the
   * forks of forks go: the fork lists the shared ids itself (a fork of a fork lists its source's shared ids
   * and own ones), never a chain to follow. It starts with the source's plugin state at that moment, and
   * `forkOf` gets its `rootId` (the source's `rootId`, or the source's id). The source is not changed.
   * @throws {NotFoundError} when the source does not exist, is another user's, or has no such prompt.
   * @throws {ConflictError} when a conversation with the new id exists.
   *
   * Optional for stores written before it: without it `platform.conversations.fork` refuses with
   * `not_supported`.
   */
  fork?(fork: NewFork): Promise<Conversation>;
  /**
   * The user's conversations of one lineage, most recently updated first: `rootId` itself and every fork
   * whose `forkOf.rootId` is `rootId` (paged like `listByUser`). Reads only that user's conversations.
   * Required with `fork`.
   */
  listBranches?(userId: string, rootId: string, options?: PageOptions): Promise<Page<Conversation>>;
  /**
   * How many conversations the user has (all that `listByUser` lists), or with `rootId`, how many of one
   * lineage (all that `listBranches` lists), counted in one read that costs nothing of what they hold (an
   * index count in PostgreSQL): core counts after every create and fork to keep a user within
   * `PlatformOptions.maxConversations` and `maxBranches`.
   *
   * Optional for stores written before it: without it core lists pages of `listByUser` or `listBranches`
   * (asking for one page of the bound's size), which costs what the conversations hold.
   */
  countByUser?(userId: string, options?: { rootId?: string }): Promise<number>;
  /**
   * Full-text search of one user's conversations: their titles, their visible prompts' inputs and the text
   * outputs of those prompts. A text matches when it holds every word of the query (`searchTerms`: letters
   * and digits, case-insensitive, whole words, no stemming: language-neutral), and each matching text is one
   * hit, with a snippet (`searchSnippet`). Hits come by conversation, most recently updated first; in one,
   * the title, then its prompts oldest first, each input before its outputs. Pages: `limit` 20 unless given
   * (1 to 100), `nextCursor` while more may follow; a cursor the store did not make, a query over 200
   * characters or 16 words: `TesseraError` `invalid_input`. A query without words finds nothing. Reads only
   * that user's data.
   *
   * Optional for stores written before it: without it the server's search matches conversation titles only.
   */
  search?(userId: string, query: string, options?: PageOptions): Promise<Page<SearchHit>>;
}

export type PromptPatch = {
  state?: PromptState;
  usage?: PromptRecord['usage'];
  stopReason?: PromptRecord['stopReason'];
  /** Outputs to replace in place, matched by id (a tool result arriving, pending becoming success). */
  outputs?: readonly OutputBase[];
  /**
   * Ids of outputs to take out of the array, the others keeping their order (what a call that is run again
   * after a crash emitted in its first run). Ids the prompt does not have are ignored.
   */
  removeOutputs?: readonly string[];
  /**
   * Outputs to add at the end of the array, after the others are replaced and removed. Applied only by
   * stores that say so with `appendsInUpdate`; the loop sends it to no other.
   */
  append?: readonly OutputBase[];
  /** The time of this change as the writer knows it (it keeps the prompt too); else the store's clock. */
  updatedAt?: string;
};

export interface PromptStore {
  /**
   * Inserts the prompt and appends its id to its conversation, atomically refusing (with
   * `ConversationBusyError`) when another prompt of that conversation is `running` or `waiting_for_approval`,
   * and (with `ConflictError`) when a prompt with that id exists.
   */
  create(prompt: PromptRecord): Promise<void>;
  /**
   * Creates the prompt as `create` does and returns what running it reads: its conversation and the history
   * before it, as `conversations.getWithHistory(prompt.conversationId, prompt.userId)` would have read them
   * just before (one statement in PostgreSQL, where starting a prompt costs one round trip less). Refuses as
   * `create` does, and with `NotFoundError` when the conversation is not `prompt.userId`'s; a refused prompt
   * writes nothing. Optional: without it core reads the conversation and its history, then calls `create`.
   * With `options.title`, a conversation that has no title takes it in the same step (`SendOptions.title`);
   * the conversation returned is still the one read before, without it.
   */
  createWithHistory?(
    prompt: PromptRecord,
    options?: { title?: string },
  ): Promise<{ conversation: Conversation; history: PromptRecord[] }>;
  get(id: string): Promise<PromptRecord | undefined>;
  /** A conversation's prompts, oldest first. */
  listByConversation(conversationId: string): Promise<PromptRecord[]>;
  /** Prompts in a given state, across conversations. */
  listByState(state: PromptState): Promise<PromptRecord[]>;
  /**
   * One user's prompts in a state, oldest first (the order they were created), a page at a time: at most
   * `limit` prompts (50 unless given; a positive integer), and `nextCursor` while more may follow. A page
   * continues after the last prompt of the one before, whatever changed state in between: a prompt is never
   * listed twice while it stays in the state. The cursor is the store's own: one it did not make is refused
   * with a `TesseraError` `invalid_input`, never read as another page (nor sent to a database as it is).
   * Reads only that user's prompts in that state, however many other prompts there are.
   *
   * Optional for stores written before it: `listPromptsByUserAndState()` (what the server's approval and
   * pause lists call) falls back on `listByState`, which reads every prompt in the state and pages it.
   */
  listByUserAndState?(userId: string, state: PromptState, options?: PageOptions): Promise<Page<PromptRecord>>;
  /**
   * Claims, for this store instance's process, the `running` prompts that no live process is running (their
   * process stopped before they ended) and returns them, oldest first; prompts this instance set running are
   * included, except those in `options.except` (the ones its platform runs: left untouched, not returned).
   * Used by `recover()`, which a platform calls periodically: a store shared by several processes must not
   * hand one process the prompts another is still running, must hand each orphan to one process only, and
   * should cost one query when there is nothing to claim.
   */
  claimOrphans(options?: { except?: readonly string[] }): Promise<PromptRecord[]>;
  /**
   * Claims one prompt as `claimOrphans()` would (it is `running`, and no live process other than this one
   * runs it) and returns it, or `undefined` when it is not such a prompt. Used by `cancel()` to stop a prompt
   * whose process died without waiting for that process to answer.
   */
  claimOrphan(promptId: string): Promise<PromptRecord | undefined>;
  /** The prompt holding the tool output with this id. */
  findByToolCall(toolCallId: string): Promise<PromptRecord | undefined>;
  /** Appends one output at the end of the prompt's output array. */
  appendOutput(promptId: string, output: OutputBase): Promise<void>;
  /**
   * True when `update` applies `patch.append` (in the same atomic step): the loop then writes a round's last
   * outputs, its usage and the prompt's state in one call. Optional for stores written before it.
   */
  readonly appendsInUpdate?: boolean;
  /**
   * Applies the patch in one atomic step and returns true. With `expectState`, applies it only if the prompt
   * is in one of those states (compare-and-set) and returns false otherwise; this is how approvals are claimed.
   */
  update(
    promptId: string,
    patch: PromptPatch,
    options?: { expectState?: readonly PromptState[] },
  ): Promise<boolean>;
}

export type StoredRecord<T = unknown> = { id: string; value: T; version: number; updatedAt: string };

/** Records owned by plugins (triggers, blueprints, files), in namespaces named after the plugin. */
export interface RecordStore {
  get<T = unknown>(namespace: string, id: string): Promise<StoredRecord<T> | undefined>;
  /**
   * Creates or replaces a record and returns it with its new version. With `expectedVersion` the write
   * happens only if the stored version is that one (`0`: only if there is none), else `VersionConflictError`.
   */
  put<T>(
    namespace: string,
    id: string,
    value: T,
    options?: { expectedVersion?: number },
  ): Promise<StoredRecord<T>>;
  delete(namespace: string, id: string): Promise<boolean>;
  /** Records in id order, optionally only ids starting with `prefix`. */
  list<T = unknown>(
    namespace: string,
    options?: { prefix?: string } & PageOptions,
  ): Promise<Page<StoredRecord<T>>>;
}

/**
 * Messages users sent while their conversation was busy (steering and queued follow-ups), waiting to be
 * delivered. Durable: a message survives a restart, and leaves only when delivered or removed.
 */
export interface MessageStore {
  /** Adds a message at the end of its conversation's list (`ConflictError` if its id exists). */
  add(message: QueuedMessage): Promise<void>;
  /** The conversation's waiting messages, in the order they were added. */
  list(conversationId: string): Promise<QueuedMessage[]>;
  /** Removes these messages of the conversation; returns the ids that were there (others are ignored). */
  remove(conversationId: string, ids: readonly string[]): Promise<string[]>;
  /** Ids of the conversations that have waiting messages (for recovery after a restart). */
  conversationsWithMessages(): Promise<string[]>;
}

export interface Store {
  readonly conversations: ConversationStore;
  readonly prompts: PromptStore;
  readonly records: RecordStore;
  /**
   * Waiting steering and follow-up messages. Optional for stores written before it: without it,
   * `platform.messages` refuses with a clear error and the loop looks for no steering.
   */
  readonly messages?: MessageStore;
  /** For a store several processes share: carries events and cancel requests between them. */
  readonly relay?: EventRelay;
  close?(): Promise<void>;
}
