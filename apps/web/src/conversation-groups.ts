import type { Conversation } from './api.ts';

export type ConversationGroup = { label: string; conversations: Conversation[] };

const SHORT: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};
/** What the list shows for a conversation: its title, or when it was started. */
export const titleOf = (c: Conversation) =>
  c.title ?? `Untitled, ${new Date(c.createdAt).toLocaleString(undefined, SHORT)}`;

const LABELS = ['Today', 'Yesterday', 'Previous 7 days', 'Older'] as const;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase();

/** The conversations whose title contains every word of the query (case and accents ignored). */
export function filterConversations(conversations: Conversation[], query: string): Conversation[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return conversations;
  return conversations.filter((c) => {
    const title = fold(titleOf(c));
    return words.every((word) => title.includes(word));
  });
}

/**
 * Groups by the day of the last activity, in the browser's time zone: Today, Yesterday, Previous 7 days,
 * Older. Newest first inside each group; empty groups are left out.
 */
export function groupByDate(conversations: Conversation[], now = new Date()): ConversationGroup[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const day = (offset: number) =>
    new Date(now.getFullYear(), now.getMonth(), now.getDate() - offset).getTime();
  const bucketOf = (c: Conversation) => {
    const at = new Date(c.updatedAt).getTime();
    if (at >= startOfToday) return 0;
    if (at >= day(1)) return 1;
    if (at >= day(7)) return 2;
    return 3;
  };
  const buckets: Conversation[][] = [[], [], [], []];
  const newestFirst = [...conversations].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const c of newestFirst) buckets[bucketOf(c)]!.push(c);
  return buckets
    .map((list, i) => ({ label: LABELS[i]!, conversations: list }))
    .filter((group) => group.conversations.length > 0);
}
