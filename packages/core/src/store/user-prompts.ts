import { TesseraError } from '../errors.ts';
import type { PromptRecord, PromptState } from '../model/prompt.ts';
import type { Page, PageOptions, PromptStore } from './store.ts';

/** The page size when none is given. */
export const DEFAULT_PAGE_LIMIT = 50;

/** `options.limit`, checked: a positive integer, 50 unless given. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TesseraError('invalid_input', `A page's limit is a positive integer, not ${limit}.`);
  }
  return limit;
}

/** The error for a cursor the store did not make (a 400 over HTTP). */
export const invalidCursor = (cursor: string): TesseraError =>
  new TesseraError(
    'invalid_input',
    `'${cursor.slice(0, 200)}' is not a cursor of this list: use the nextCursor of the previous page.`,
  );

/**
 * One user's prompts in a state, oldest first, a page at a time: `PromptStore.listByUserAndState` when the
 * store has it. A store written before it is read with `listByState` (every prompt in the state, every
 * user's), and the user's are paged here by creation time and id; its cursor is this function's own.
 */
export async function listPromptsByUserAndState(
  prompts: PromptStore,
  userId: string,
  state: PromptState,
  options: PageOptions = {},
): Promise<Page<PromptRecord>> {
  if (prompts.listByUserAndState) return prompts.listByUserAndState(userId, state, options);
  const limit = pageLimit(options.limit);
  const after = options.cursor ? fallbackKey(options.cursor) : undefined;
  const later = (await prompts.listByState(state))
    .filter((p) => p.userId === userId && (!after || compareKeys(keyOf(p), after) > 0))
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const items = later.slice(0, limit);
  const last = items.at(-1);
  return later.length > limit && last ? { items, nextCursor: keyOf(last).join(SEPARATOR) } : { items };
}

// The fallback's cursor: the last prompt's creation time and id (neither holds a `~`), each of its form.
const SEPARATOR = '~';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const ID = /^[\w-]{1,100}$/;
type Key = readonly [createdAt: string, id: string];
const keyOf = (prompt: PromptRecord): Key => [prompt.createdAt, prompt.id];
const compareKeys = (a: Key, b: Key) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

function fallbackKey(cursor: string): Key {
  const [createdAt = '', id = '', ...rest] = cursor.split(SEPARATOR);
  if (rest.length > 0 || !ISO_TIME.test(createdAt) || !ID.test(id)) throw invalidCursor(cursor);
  return [createdAt, id];
}
