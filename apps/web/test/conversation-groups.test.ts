import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/api.ts';
import { filterConversations, groupByDate } from '../src/conversation-groups.ts';

const at = (iso: string, title?: string): Conversation => ({
  id: `conv_${iso}`,
  userId: 'ada',
  ...(title && { title }),
  promptIds: [],
  pluginState: {},
  createdAt: iso,
  updatedAt: iso,
});
// Local times, so the test holds in any time zone.
const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).toISOString();

describe('the conversation list', () => {
  it('groups by the local day of the last activity, newest first, leaving out empty groups', () => {
    const now = new Date(2026, 10, 23, 9, 30);
    const groups = groupByDate(
      [
        at(local(2026, 11, 23, 0), 'just after midnight'),
        at(local(2026, 11, 22, 23), 'last night'),
        at(local(2026, 11, 16, 1), 'seven days ago'),
        at(local(2026, 11, 15, 23), 'eight days ago'),
        at(local(2026, 11, 23, 8), 'this morning'),
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.conversations.map((c) => c.title)])).toEqual([
      ['Today', ['this morning', 'just after midnight']],
      ['Yesterday', ['last night']],
      ['Previous 7 days', ['seven days ago']],
      ['Older', ['eight days ago']],
    ]);
    expect(groupByDate([at(local(2026, 11, 1))], now).map((g) => g.label)).toEqual(['Older']);
  });

  it('filters by every word of the query in the title, ignoring case and accents', () => {
    const list = [
      at(local(2026, 1, 1), 'Quarterly Café budget'),
      at(local(2026, 1, 2), 'Budget for the trip'),
    ];
    const titles = (query: string) => filterConversations(list, query).map((c) => c.title);
    expect(titles('cafe BUDGET')).toEqual(['Quarterly Café budget']);
    expect(titles('budget')).toEqual(['Quarterly Café budget', 'Budget for the trip']);
    expect(titles('  ')).toEqual(['Quarterly Café budget', 'Budget for the trip']);
    expect(titles('budget ski')).toEqual([]);
    // An untitled conversation is found by what the list shows for it.
    expect(filterConversations([at(local(2026, 1, 1))], 'untitled')).toHaveLength(1);
  });
});
