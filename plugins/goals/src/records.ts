import { type RecordStore, type StoredRecord, VersionConflictError } from '@tessera/core';
import type { GoalState, StoredGoal } from './types.ts';

export const GOALS_NAMESPACE = 'goals';

/**
 * The goals in the platform's record store, namespace `goals`:
 *
 * - `user/<user>/<newest-first time>-<goal id>`: the goal itself (every change a compare-and-set on it), so a
 *   user's goals, newest first, are one prefix scan a page at a time;
 * - `conv/<conversation id>`: `{ key, userId }`, the conversation's latest goal;
 * - `live/<goal key>`: `{ key, at }` while the goal is active or paused, for the sweep that drives active goals
 *   after a restart (written before a goal becomes live, removed after it ends: never missing for a live one).
 */
/** `older`: the conversation's earlier goals (the latest 100), deleted with it. */
export type GoalPointer = { key: string; userId: string; older?: string[] };
export type LiveEntry = { key: string; at: string };
export type GoalRecord = StoredRecord<StoredGoal>;

const userPrefix = (userId: string) => `user/${encodeURIComponent(userId)}/`;
const pointerKey = (conversationId: string) => `conv/${conversationId}`;
const liveKey = (goalKey: string) => `live/${goalKey}`;
const LIVE_PREFIX = 'live/';

/** A key that sorts newest first: the time counted down from the largest safe integer, fixed width. */
export function goalKey(userId: string, goalId: string, createdMs: number): string {
  const countdown = String(Number.MAX_SAFE_INTEGER - createdMs).padStart(16, '0');
  return `${userPrefix(userId)}${countdown}-${goalId}`;
}

export class GoalRecords {
  readonly #records: RecordStore;

  constructor(records: RecordStore) {
    this.#records = records;
  }

  pointer(conversationId: string): Promise<StoredRecord<GoalPointer> | undefined> {
    return this.#records.get<GoalPointer>(GOALS_NAMESPACE, pointerKey(conversationId));
  }

  /** Points the conversation at `pointer` if the pointer is still at `expectedVersion` (0: none); false if not. */
  async setPointer(conversationId: string, pointer: GoalPointer, expectedVersion: number): Promise<boolean> {
    try {
      await this.#records.put(GOALS_NAMESPACE, pointerKey(conversationId), pointer, { expectedVersion });
      return true;
    } catch (error) {
      if (VersionConflictError.is(error)) return false;
      throw error;
    }
  }

  deletePointer(conversationId: string): Promise<boolean> {
    return this.#records.delete(GOALS_NAMESPACE, pointerKey(conversationId));
  }

  get(key: string): Promise<GoalRecord | undefined> {
    return this.#records.get<StoredGoal>(GOALS_NAMESPACE, key);
  }

  /** The conversation's latest goal and its key, if any. */
  async ofConversation(conversationId: string): Promise<GoalRecord | undefined> {
    const pointer = await this.pointer(conversationId);
    return pointer ? this.get(pointer.value.key) : undefined;
  }

  async insert(key: string, goal: StoredGoal): Promise<GoalRecord> {
    return this.#records.put(GOALS_NAMESPACE, key, goal, { expectedVersion: 0 });
  }

  /** Writes `next` only if the record is still `current`'s version; undefined when another write came first. */
  async replace(current: GoalRecord, next: StoredGoal): Promise<GoalRecord | undefined> {
    try {
      return await this.#records.put(GOALS_NAMESPACE, current.id, next, { expectedVersion: current.version });
    } catch (error) {
      if (VersionConflictError.is(error)) return undefined;
      throw error;
    }
  }

  delete(key: string): Promise<boolean> {
    return this.#records.delete(GOALS_NAMESPACE, key);
  }

  /** A page of the user's goals, newest first. */
  async page(userId: string, limit: number, cursor: string | undefined) {
    return this.#records.list<StoredGoal>(GOALS_NAMESPACE, {
      prefix: userPrefix(userId),
      limit,
      ...(cursor && { cursor }),
    });
  }

  /** Marks the goal live (before it becomes active or paused). */
  async markLive(key: string, at: string): Promise<void> {
    await this.#records.put<LiveEntry>(GOALS_NAMESPACE, liveKey(key), { key, at });
  }

  /** How many live marks the user has, counting up to `max` (one page: bounded whatever they have). */
  async liveCount(userId: string, max: number): Promise<number> {
    const page = await this.#records.list(GOALS_NAMESPACE, {
      prefix: liveKey(userPrefix(userId)),
      limit: max,
    });
    return page.items.length;
  }

  /** Unmarks it (after it ended). */
  async unmarkLive(key: string): Promise<void> {
    await this.#records.delete(GOALS_NAMESPACE, liveKey(key));
  }

  /** Every live mark, page by page (the sweep's scan). */
  async *live(): AsyncGenerator<LiveEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.#records.list<LiveEntry>(GOALS_NAMESPACE, {
        prefix: LIVE_PREFIX,
        limit: 200,
        ...(cursor && { cursor }),
      });
      for (const item of page.items) yield item.value;
      cursor = page.nextCursor;
    } while (cursor);
  }
}

export const isLiveState = (state: GoalState): boolean => state === 'active' || state === 'paused';
