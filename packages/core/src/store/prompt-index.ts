import type { PromptState } from '../model/prompt.ts';
import type { PageOptions } from './store.ts';
import { invalidCursor, pageLimit } from './user-prompts.ts';

/** A cursor of the memory store's lists by user and state: the creation number of a page's last prompt. */
const CURSOR = /^[1-9]\d{0,15}$/;

/**
 * The memory store's prompt ids by user and state, with each prompt's creation number: a page of one user's
 * waiting prompts reads that user's waiting prompts only, not every prompt of every user.
 */
export class PromptsByUserAndState {
  #created = 0;
  /** By state and user: each prompt's id and creation number (its place, oldest first). */
  readonly #lists = new Map<string, Map<string, number>>();

  add(id: string, userId: string, state: PromptState): void {
    this.#created += 1;
    this.#list(userId, state).set(id, this.#created);
  }

  /** The prompt went from one state to another (or stayed: nothing to do). */
  move(id: string, userId: string, from: PromptState, to: PromptState): void {
    if (from === to) return;
    const order = this.#take(id, userId, from);
    if (order !== undefined) this.#list(userId, to).set(id, order);
  }

  remove(id: string, userId: string, state: PromptState): void {
    this.#take(id, userId, state);
  }

  /** The ids of one page, oldest first, and the cursor of the next while more follow. */
  page(
    userId: string,
    state: PromptState,
    options: PageOptions = {},
  ): { ids: string[]; nextCursor?: string } {
    const limit = pageLimit(options.limit);
    const { cursor } = options;
    if (cursor && !CURSOR.test(cursor)) throw invalidCursor(cursor);
    const after = cursor ? Number(cursor) : 0;
    const later: [order: number, id: string][] = [];
    for (const [id, order] of this.#lists.get(`${state} ${userId}`) ?? []) {
      if (order > after) later.push([order, id]);
    }
    later.sort((a, b) => a[0] - b[0]);
    const ids = later.slice(0, limit).map(([, id]) => id);
    return later.length > limit ? { ids, nextCursor: String(later[limit - 1]![0]) } : { ids };
  }

  #list(userId: string, state: PromptState): Map<string, number> {
    const key = `${state} ${userId}`;
    let list = this.#lists.get(key);
    if (!list) {
      list = new Map();
      this.#lists.set(key, list);
    }
    return list;
  }

  /** Takes the id out (and a list left empty: a user with no prompts costs nothing); its creation number. */
  #take(id: string, userId: string, state: PromptState): number | undefined {
    const key = `${state} ${userId}`;
    const list = this.#lists.get(key);
    const order = list?.get(id);
    list?.delete(id);
    if (list?.size === 0) this.#lists.delete(key);
    return order;
  }
}
