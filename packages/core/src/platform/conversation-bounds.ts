import { DefinitionError, TesseraError } from '../errors.ts';
import type { Page, PageOptions, Store } from '../store/store.ts';
import type { PlatformOptions } from './platform.ts';

/**
 * How many conversations a user may have (`PlatformOptions.maxConversations`), and how many branches one
 * lineage (`maxBranches`: a conversation and its forks, as `listBranches` groups them). Every conversation
 * is read by its user's list pages and searches, and a fork holds its own copy of the ids of the prompts it
 * shares (a row each in PostgreSQL) that every read of it aggregates: unbounded, creates and forks, cheap
 * requests each, made one user's list and search, and the database they share, slow for everyone.
 */

/** A person's conversations over years of daily use; each is one index entry to count, and a row to list. */
export const DEFAULT_MAX_CONVERSATIONS = 10_000;
/**
 * More alternatives to one conversation than anyone explores by hand, and half of the largest page of
 * branches (200), so that a lineage lists in one page; it bounds a fork's cost to 100 copies of a history.
 */
export const DEFAULT_MAX_BRANCHES = 100;

export type ConversationBounds = {
  /**
   * Runs `create`, which makes a conversation of `userId` (with `rootId`: a fork in that lineage), within the
   * bounds, else `TesseraError` `too_many_conversations` or `too_many_branches` and nothing is kept.
   */
  create<T extends { id: string }>(
    userId: string,
    rootId: string | undefined,
    create: () => Promise<T>,
  ): Promise<T>;
};

/** The bounds of `options`, checked at once: `DefinitionError` for one that is not a positive integer. */
export function conversationBounds(store: Store, options: PlatformOptions): ConversationBounds {
  const maxConversations = positive('maxConversations', options.maxConversations, DEFAULT_MAX_CONVERSATIONS);
  const maxBranches = positive('maxBranches', options.maxBranches, DEFAULT_MAX_BRANCHES);
  const conversations = store.conversations;
  const count = (userId: string, rootId: string | undefined, max: number): Promise<number> => {
    if (conversations.countByUser) return conversations.countByUser(userId, rootId ? { rootId } : undefined);
    return countPaged(
      (page) =>
        rootId && conversations.listBranches
          ? conversations.listBranches(userId, rootId, page)
          : conversations.listByUser(userId, page),
      max,
    );
  };
  const refuse = async (id: string, code: string, message: string): Promise<never> => {
    await conversations.delete(id);
    throw new TesseraError(code, message);
  };
  return {
    async create(userId, rootId, create) {
      // Counted after the create, without a lock (one count a create, which every conversation pays): of
      // concurrent creates, each one kept was counted after every other kept one existed, so together they
      // never pass the bound (some that would have fit may be refused, and are deleted).
      const created = await create();
      if ((await count(userId, undefined, maxConversations)) > maxConversations) {
        await refuse(
          created.id,
          'too_many_conversations',
          `You have ${amount(maxConversations)} conversations, the most a user may have: delete some to start another.`,
        );
      }
      if (rootId !== undefined && (await count(userId, rootId, maxBranches)) > maxBranches) {
        await refuse(
          created.id,
          'too_many_branches',
          `This conversation's lineage (the conversation it started from and every fork of it) has ${amount(maxBranches)} branches, the most one may have: delete a branch to fork it again.`,
        );
      }
      return created;
    },
  };
}

function positive(name: string, value: number | undefined, byDefault: number): number {
  if (value === undefined) return byDefault;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new DefinitionError(`PlatformOptions.${name} must be a positive integer, not ${String(value)}.`);
  }
  return value;
}

const amount = (n: number) => n.toLocaleString('en-US');

/** Without `countByUser`: pages of the listing, the first asking for all the bound needs, until past `max`. */
async function countPaged(list: (page: PageOptions) => Promise<Page<unknown>>, max: number): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await list({ limit: max + 1 - count, ...(cursor !== undefined && { cursor }) });
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined && count <= max);
  return count;
}
