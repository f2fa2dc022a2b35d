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
  /** Each prompt's user and creation number (its place, oldest first). */
  readonly #prompts = new Map<string, { userId: string; order: number }>();
  readonly #users = new Map<string, Map<PromptState, Set<string>>>();

  add(id: string, userId: string, state: PromptState): void {
    this.#created += 1;
    this.#prompts.set(id, { userId, order: this.#created });
    this.#ids(userId, state).add(id);
  }

  /** The prompt went from one state to another (or stayed: nothing to do). */
  move(id: string, from: PromptState, to: PromptState): void {
    const prompt = this.#prompts.get(id);
    if (!prompt || from === to) return;
    this.#drop(prompt.userId, from, id);
    this.#ids(prompt.userId, to).add(id);
  }

  remove(id: string, state: PromptState): void {
    const prompt = this.#prompts.get(id);
    if (!prompt) return;
    this.#drop(prompt.userId, state, id);
    this.#prompts.delete(id);
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
    for (const id of this.#users.get(userId)?.get(state) ?? []) {
      const order = this.#prompts.get(id)!.order;
      if (order > after) later.push([order, id]);
    }
    later.sort((a, b) => a[0] - b[0]);
    const ids = later.slice(0, limit).map(([, id]) => id);
    return later.length > limit ? { ids, nextCursor: String(later[limit - 1]![0]) } : { ids };
  }

  #ids(userId: string, state: PromptState): Set<string> {
    let states = this.#users.get(userId);
    if (!states) {
      states = new Map();
      this.#users.set(userId, states);
    }
    let ids = states.get(state);
    if (!ids) {
      ids = new Set();
      states.set(state, ids);
    }
    return ids;
  }

  /** Takes the id out, and the user's sets that are left empty (a user with no prompts costs nothing). */
  #drop(userId: string, state: PromptState, id: string): void {
    const states = this.#users.get(userId);
    const ids = states?.get(state);
    if (!states || !ids) return;
    ids.delete(id);
    if (ids.size > 0) return;
    states.delete(state);
    if (states.size === 0) this.#users.delete(userId);
  }
}
