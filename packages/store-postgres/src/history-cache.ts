import { isFinalState, type PromptRecord } from '@tessera/core';
import { LRUCache } from 'lru-cache';

/**
 * An ended prompt as read, the version of its row it was read at (`xmin`: every update of the row, which
 * every change of its outputs makes, gives it a new one), and about the bytes it holds.
 */
type Known = { version: string; prompt: PromptRecord; size: number };

/** A conversation's ended prompts this process has read, by id. */
type ConversationEntry = ReadonlyMap<string, Known>;

/**
 * The ended prompts of the conversations this process has read (`createWithHistory`, `getWithHistory`,
 * `listByConversation`), by conversation, so that the next read (every prompt's start reads its
 * conversation's history) asks PostgreSQL only for the outputs of prompts it has not seen at their current
 * row version: at a conversation's tenth prompt, one prompt's outputs instead of nine. The database still answers every row with its version, so a prompt another process (or this one)
 * changed since is read whole again: nothing here can be stale. Bounded in the bytes of the prompts it holds,
 * least recently read conversation out first; a conversation larger than an eighth of it is not kept.
 *
 * The prompts it hands out are deeply frozen (the in-memory store's are too): one object serves every read,
 * which also lets core find their projections by identity.
 */
export class HistoryCache {
  readonly #entries: LRUCache<string, ConversationEntry> | undefined;

  constructor(maxBytes: number) {
    this.#entries =
      maxBytes > 0
        ? new LRUCache<string, ConversationEntry>({
            maxSize: maxBytes,
            maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
            sizeCalculation: (entry) => {
              let bytes = 0;
              for (const known of entry.values()) bytes += known.size;
              return Math.max(1, bytes);
            },
          })
        : undefined;
  }

  /** What is known of the conversation's history: pass `keys()` to the read, then `settle` its rows. */
  read(conversationId: string): HistoryRead {
    return new HistoryRead(this.#entries, conversationId);
  }
}

/** One read of a conversation's history against what the cache held when it started. */
export class HistoryRead {
  readonly #entries: LRUCache<string, ConversationEntry> | undefined;
  readonly #conversationId: string;
  readonly #known: ConversationEntry | undefined;

  constructor(entries: LRUCache<string, ConversationEntry> | undefined, conversationId: string) {
    this.#entries = entries;
    this.#conversationId = conversationId;
    this.#known = entries?.get(conversationId);
  }

  /**
   * The prompts whose outputs the read may leave out, as the statement's `jsonb` parameter: their ids to the
   * versions known (an object, so that each row's check is a lookup, not a search of a list).
   */
  keys(): string {
    if (!this.#known) return '{}';
    // fromEntries defines own properties, whatever the ids are (`__proto__` too).
    return JSON.stringify(Object.fromEntries([...this.#known].map(([id, known]) => [id, known.version])));
  }

  /**
   * The history the read's rows hold: a row without outputs is a prompt this read knew at that version,
   * handed out as known; the ended ones are remembered for the next read.
   */
  settle<R extends { id: string; version: string; output: unknown }>(
    rows: readonly R[],
    toPrompt: (row: R) => PromptRecord,
  ): PromptRecord[] {
    const history: PromptRecord[] = [];
    const next = new Map<string, Known>();
    for (const row of rows) {
      const known = row.output === null ? this.#known?.get(row.id) : undefined;
      if (row.output === null && !known) throw new Error(`Prompt ${row.id} came without its outputs.`);
      const prompt = known?.prompt ?? toPrompt(row);
      if (isFinalState(prompt.state)) {
        const size = known?.size ?? frozenSize(prompt);
        next.set(row.id, { version: row.version, prompt, size });
      }
      history.push(prompt);
    }
    if (this.#entries) {
      if (next.size > 0) this.#entries.set(this.#conversationId, next);
      else this.#entries.delete(this.#conversationId);
    }
    return history;
  }
}

/**
 * Freezes a record as read (plain objects, arrays and primitives from JSON) all the way down, and returns
 * about the bytes it holds: what the cache is bounded by.
 */
function frozenSize(value: unknown): number {
  if (typeof value === 'string') return 16 + value.length * 2;
  if (typeof value !== 'object' || value === null) return 8;
  let bytes = 32;
  if (Array.isArray(value)) {
    for (const item of value) bytes += 8 + frozenSize(item);
  } else {
    for (const key of Object.keys(value)) {
      bytes += 16 + key.length + frozenSize((value as Record<string, unknown>)[key]);
    }
  }
  Object.freeze(value);
  return bytes;
}
