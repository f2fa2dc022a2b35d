import { ConflictError, ConversationBusyError, NotFoundError, VersionConflictError } from '../errors.ts';
import { isoNow as now } from '../iso-now.ts';
import type { Conversation } from '../model/conversation.ts';
import type { PromptRecord, PromptState } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import { immutable } from './frozen.ts';
import { PromptsByUserAndState } from './prompt-index.ts';
import {
  matchesSearch,
  type SearchHit,
  searchCursor,
  searchPage,
  searchSnippet,
  searchTerms,
} from './search.ts';
import {
  type ConversationStore,
  type MessageStore,
  PAGE_PROMPT_IDS,
  type Page,
  type PageOptions,
  type PromptPatch,
  type PromptStore,
  type RecordStore,
  type Store,
  type StoredRecord,
} from './store.ts';
import { StoredPrompt } from './stored-prompt.ts';

const ACTIVE: readonly PromptState[] = ['running', 'waiting_for_approval'];

const frozenOutput = <T>(output: T): T => immutable(output);

function page<T>(all: T[], options: PageOptions = {}, weight?: (item: T) => number, budget = 0): Page<T> {
  const offset = options.cursor ? Number.parseInt(options.cursor, 10) || 0 : 0;
  let end = Math.min(offset + (options.limit ?? 50), all.length);
  if (weight) {
    // As `PAGE_PROMPT_IDS` says: the page ends before the item that would pass the budget, but for its first.
    let left = budget;
    for (let i = offset; i < end; i++) {
      left -= weight(all[i]!);
      if (left < 0 && i > offset) end = i;
    }
  }
  const items = all.slice(offset, end);
  return end < all.length ? { items, nextCursor: String(end) } : { items };
}

const promptCount = (conversation: Conversation) => conversation.promptIds.length;

/**
 * Everything in memory, for tests and small embeddings. Atomic because each call runs without awaiting.
 * Stored values are deeply frozen, made so once on write (`immutable`: values already frozen by an earlier
 * write are shared, not copied): callers can neither change the store by accident nor see it change.
 */
export class MemoryStore implements Store {
  /** `PAGE_PROMPT_IDS` unless given (a test's smaller budget). */
  readonly #pagePromptIds: number;
  readonly #conversations = new Map<string, Conversation>();
  readonly #prompts = new Map<string, StoredPrompt>();
  readonly #toolCalls = new Map<string, string>();
  readonly #byUserAndState = new PromptsByUserAndState();
  readonly #records = new Map<string, Map<string, StoredRecord>>();
  readonly #messages = new Map<string, QueuedMessage[]>();
  /** The forks sharing each prompt: a prompt stays while its own conversation or one of these remains. */
  readonly #sharedBy = new Map<string, Set<string>>();
  /** Conversations by user, and forks by lineage root: `countByUser` runs for every create and fork. */
  readonly #counts = { byUser: new Map<string, number>(), forksOf: new Map<string, number>() };

  constructor(options: { pagePromptIds?: number } = {}) {
    this.#pagePromptIds = options.pagePromptIds ?? PAGE_PROMPT_IDS;
  }

  readonly conversations: ConversationStore = {
    create: async (conversation) => {
      if (!this.#conversations.has(conversation.id)) this.#count(conversation, 1);
      this.#conversations.set(conversation.id, immutable(conversation));
    },
    get: async (id) => this.#conversations.get(id),
    listByUser: async (userId, options) =>
      page(
        [...this.#conversations.values()]
          .filter((c) => c.userId === userId)
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)),
        options,
        promptCount,
        this.#pagePromptIds,
      ),
    delete: async (id) => {
      const conversation = this.#conversations.get(id);
      if (!conversation) return false;
      this.#conversations.delete(id);
      this.#count(conversation, -1);
      for (const promptId of conversation.promptIds) {
        const sharers = this.#sharedBy.get(promptId);
        sharers?.delete(id);
        if (sharers?.size === 0) this.#sharedBy.delete(promptId);
        const prompt = this.#prompts.get(promptId);
        // Shared with a fork, or owned by a conversation still there: another history holds it.
        if (!prompt || sharers?.size || this.#conversations.has(prompt.conversationId)) continue;
        for (const id of prompt.outputIds()) this.#toolCalls.delete(id);
        this.#byUserAndState.remove(promptId, prompt.userId, prompt.state);
        this.#prompts.delete(promptId);
      }
      this.#messages.delete(id);
      return true;
    },
    fork: async ({ id, userId, title, createdAt, updatedAt, forkOf }) => {
      const source = this.#conversations.get(forkOf.conversationId);
      if (!source || source.userId !== userId) {
        throw new NotFoundError(`Conversation ${forkOf.conversationId} does not exist.`);
      }
      const at = source.promptIds.indexOf(forkOf.promptId);
      if (at < 0) throw new NotFoundError(`Conversation ${source.id} has no prompt ${forkOf.promptId}.`);
      if (this.#conversations.has(id)) throw new ConflictError(`Conversation ${id} already exists.`);
      const shared = source.promptIds.slice(0, at);
      const fork: Conversation = immutable({
        id,
        userId,
        ...(title !== undefined && { title }),
        promptIds: shared,
        pluginState: source.pluginState,
        forkOf: { ...forkOf, rootId: source.forkOf?.rootId ?? source.id },
        createdAt,
        updatedAt,
      });
      for (const promptId of shared) {
        const sharers = this.#sharedBy.get(promptId) ?? new Set();
        sharers.add(id);
        this.#sharedBy.set(promptId, sharers);
      }
      this.#conversations.set(id, fork);
      this.#count(fork, 1);
      return fork;
    },
    listBranches: async (userId, rootId, options) =>
      page(
        [...this.#conversations.values()]
          .filter((c) => c.userId === userId && (c.id === rootId || c.forkOf?.rootId === rootId))
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)),
        options,
        promptCount,
        this.#pagePromptIds,
      ),
    countByUser: async (userId, options) => {
      const { byUser, forksOf } = this.#counts;
      if (options?.rootId === undefined) return byUser.get(userId) ?? 0;
      // A lineage is its root (unless deleted) and the forks of it, all of the root's user.
      const root = this.#conversations.get(options.rootId);
      if (root && root.userId !== userId) return 0;
      return (root ? 1 : 0) + (forksOf.get(options.rootId) ?? 0);
    },
    search: async (userId, query, options) => {
      const terms = searchTerms(query);
      const { limit, offset } = searchPage(options);
      if (terms.length === 0) return { items: [] };
      const conversations = [...this.#conversations.values()]
        .filter((c) => c.userId === userId)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
      const items: SearchHit[] = [];
      // Stops one hit after the page: bounded by the page's end, not by how much the user has.
      const wanted = offset + limit + 1;
      let seen = 0;
      const add = (hit: Omit<SearchHit, 'snippet' | 'title'>, text: string, title: string | undefined) => {
        seen++;
        if (seen > offset && items.length < limit + 1) {
          items.push({ ...hit, ...(title !== undefined && { title }), snippet: searchSnippet(text, terms) });
        }
      };
      for (const c of conversations) {
        if (seen >= wanted) break;
        if (matchesSearch(c.title, terms)) add({ conversationId: c.id, field: 'title' }, c.title, c.title);
        for (const promptId of c.promptIds) {
          const prompt = this.#prompts.get(promptId)?.read();
          if (!prompt?.visible) continue;
          const at = { conversationId: c.id, promptId };
          if (matchesSearch(prompt.input, terms)) add({ ...at, field: 'input' }, prompt.input, c.title);
          for (const output of prompt.output) {
            const text = output.type === 'text' ? (output as { text?: unknown }).text : undefined;
            if (typeof text === 'string' && matchesSearch(text, terms))
              add({ ...at, field: 'output' }, text, c.title);
          }
        }
      }
      const more = items.length > limit;
      const cursor = more ? searchCursor(offset, limit) : undefined;
      const page = items.slice(0, limit);
      return cursor === undefined ? { items: page } : { items: page, nextCursor: cursor };
    },
    rename: async (id, title) => {
      this.#conversations.set(id, immutable({ ...this.#conversation(id), title }));
    },
    setPluginState: async (id, pluginId, state) => {
      const conversation = this.#conversation(id);
      this.#conversations.set(
        id,
        immutable({
          ...conversation,
          pluginState: { ...conversation.pluginState, [pluginId]: state },
          updatedAt: now(),
        }),
      );
    },
  };

  readonly prompts: PromptStore = {
    appendsInUpdate: true,
    create: async (prompt) => {
      this.#addPrompt(prompt);
    },
    createWithHistory: async (prompt, options) => {
      if (this.#conversations.get(prompt.conversationId)?.userId !== prompt.userId) {
        throw new NotFoundError(`Conversation ${prompt.conversationId} does not exist.`);
      }
      const conversation = this.#addPrompt(prompt);
      if (options?.title !== undefined && conversation.title === undefined) {
        const added = this.#conversation(conversation.id);
        this.#conversations.set(added.id, immutable({ ...added, title: options.title }));
      }
      return { conversation, history: conversation.promptIds.map((id) => this.#prompts.get(id)!.read()) };
    },
    get: async (id) => this.#prompts.get(id)?.read(),
    listByConversation: async (conversationId) =>
      (this.#conversations.get(conversationId)?.promptIds ?? []).map((id) => this.#prompts.get(id)!.read()),
    listByState: async (state) => this.#promptsWhere((p) => p.state === state),
    listByUserAndState: async (userId, state, options) => {
      const { ids, nextCursor } = this.#byUserAndState.page(userId, state, options);
      const items = ids.map((id) => this.#prompts.get(id)!.read());
      return nextCursor === undefined ? { items } : { items, nextCursor };
    },
    // Memory is one process's: a running prompt here is this process's (the platform skips those it runs).
    claimOrphans: async (options) =>
      this.#promptsWhere((p) => p.state === 'running' && !options?.except?.includes(p.id)),
    claimOrphan: async (promptId) => {
      const prompt = this.#prompts.get(promptId);
      return prompt?.state === 'running' ? prompt.read() : undefined;
    },
    findByToolCall: async (toolCallId) => {
      const promptId = this.#toolCalls.get(toolCallId);
      return promptId ? this.#prompts.get(promptId)?.read() : undefined;
    },
    appendOutput: async (promptId, output) => {
      this.#prompt(promptId).append(immutable(output), now());
      this.#toolCalls.set(output.id, promptId);
    },
    update: async (promptId, patch, options) => {
      const prompt = this.#prompt(promptId);
      const before = prompt.state;
      if (options?.expectState && !options.expectState.includes(before)) return false;
      // Frozen copies of what the patch carries (what the loop froze already is taken as it is). Set one by
      // one rather than spread from conditional literals: this runs for every write of the loop.
      const frozen: PromptPatch = { ...patch };
      if (patch.usage !== undefined) frozen.usage = immutable(patch.usage);
      if (patch.stopReason !== undefined) frozen.stopReason = immutable(patch.stopReason);
      if (patch.outputs) frozen.outputs = patch.outputs.map(frozenOutput);
      if (patch.append) frozen.append = patch.append.map(frozenOutput);
      prompt.apply(frozen, patch.updatedAt ?? now());
      this.#byUserAndState.move(promptId, prompt.userId, before, prompt.state);
      for (const id of patch.removeOutputs ?? []) this.#toolCalls.delete(id);
      for (const output of patch.append ?? []) this.#toolCalls.set(output.id, promptId);
      return true;
    },
  };

  readonly records: RecordStore = {
    get: async <T>(namespace: string, id: string) =>
      this.#records.get(namespace)?.get(id) as StoredRecord<T> | undefined,
    put: async <T>(namespace: string, id: string, value: T, options?: { expectedVersion?: number }) => {
      let records = this.#records.get(namespace);
      if (!records) {
        records = new Map();
        this.#records.set(namespace, records);
      }
      const version = records.get(id)?.version ?? 0;
      if (options?.expectedVersion !== undefined && options.expectedVersion !== version) {
        throw new VersionConflictError(namespace, id);
      }
      const stored = immutable({ id, value, version: version + 1, updatedAt: now() });
      records.set(id, stored);
      return stored;
    },
    delete: async (namespace, id) => this.#records.get(namespace)?.delete(id) ?? false,
    list: async <T>(namespace: string, options: { prefix?: string } & PageOptions = {}) =>
      page(
        [...(this.#records.get(namespace)?.values() ?? [])]
          .filter((r) => !options.prefix || r.id.startsWith(options.prefix))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        options,
      ) as Page<StoredRecord<T>>,
  };

  readonly messages: MessageStore = {
    add: async (message) => {
      for (const list of this.#messages.values()) {
        if (list.some((m) => m.id === message.id))
          throw new ConflictError(`Message ${message.id} already exists.`);
      }
      const list = this.#messages.get(message.conversationId) ?? [];
      this.#messages.set(message.conversationId, [...list, immutable(message)]);
    },
    list: async (conversationId) => [...(this.#messages.get(conversationId) ?? [])],
    remove: async (conversationId, ids) => {
      const list = this.#messages.get(conversationId) ?? [];
      const removed = list.filter((m) => ids.includes(m.id)).map((m) => m.id);
      const kept = list.filter((m) => !ids.includes(m.id));
      if (kept.length > 0) this.#messages.set(conversationId, kept);
      else this.#messages.delete(conversationId);
      return removed;
    },
    conversationsWithMessages: async () => [...this.#messages.keys()],
  };

  /** Counts a conversation in (`by` 1) or out (-1) of its user's, and of its lineage's forks. */
  #count(conversation: Conversation, by: 1 | -1): void {
    const { byUser, forksOf } = this.#counts;
    const add = (map: Map<string, number>, key: string) => {
      const next = (map.get(key) ?? 0) + by;
      if (next > 0) map.set(key, next);
      else map.delete(key);
    };
    add(byUser, conversation.userId);
    if (conversation.forkOf) add(forksOf, conversation.forkOf.rootId);
  }

  /** Creates the prompt (see `PromptStore.create`); returns its conversation as it was before. */
  #addPrompt(prompt: PromptRecord): Conversation {
    const conversation = this.#conversation(prompt.conversationId);
    // Only the newest prompt can be active: none is created while one is (what this check ensures).
    const newest = conversation.promptIds.at(-1);
    const state = newest === undefined ? undefined : this.#prompts.get(newest)?.state;
    if (state && ACTIVE.includes(state)) throw new ConversationBusyError(conversation.id, newest!);
    if (this.#prompts.has(prompt.id)) throw new ConflictError(`Prompt ${prompt.id} already exists.`);
    this.#prompts.set(prompt.id, new StoredPrompt(immutable(prompt)));
    this.#byUserAndState.add(prompt.id, prompt.userId, prompt.state);
    for (const output of prompt.output) this.#toolCalls.set(output.id, prompt.id);
    this.#conversations.set(
      conversation.id,
      immutable({ ...conversation, promptIds: [...conversation.promptIds, prompt.id], updatedAt: now() }),
    );
    return conversation;
  }

  #conversation(id: string): Conversation {
    const conversation = this.#conversations.get(id);
    if (!conversation) throw new NotFoundError(`Conversation ${id} does not exist.`);
    return conversation;
  }

  #prompt(id: string): StoredPrompt {
    const prompt = this.#prompts.get(id);
    if (!prompt) throw new NotFoundError(`Prompt ${id} does not exist.`);
    return prompt;
  }

  #promptsWhere(test: (prompt: PromptRecord) => boolean): PromptRecord[] {
    const found: PromptRecord[] = [];
    for (const prompt of this.#prompts.values()) {
      const record = prompt.read();
      if (test(record)) found.push(record);
    }
    return found;
  }
}

export const createMemoryStore = (): Store => new MemoryStore();
