import { describe, expect, it } from 'vitest';
import { branchesByTurn, oneBranchEach } from '../src/branches.ts';

const at = (minute: number) => `2026-11-27T08:${String(minute).padStart(2, '0')}:00.000Z`;
const conversation = (
  id: string,
  promptIds: string[],
  created: number,
  updated = created,
  rootId?: string,
) => ({
  id,
  promptIds,
  createdAt: at(created),
  updatedAt: at(updated),
  ...(rootId && { forkOf: { conversationId: rootId, promptId: 'x', rootId } }),
});

describe('branchesByTurn', () => {
  // root: a b c; edit of b (e1: a d); regenerate of c (e2: a b f); a fork of e1 that went on (e3: a d g)
  const root = conversation('root', ['a', 'b', 'c'], 0, 1);
  const e1 = conversation('e1', ['a', 'd'], 2, 3, 'root');
  const e2 = conversation('e2', ['a', 'b', 'f'], 4, 5, 'root');
  const e3 = conversation('e3', ['a', 'd', 'g'], 6, 9, 'root');
  const lineage = [e3, e2, e1, root];

  it('lists the alternatives at each turn that has some, the original first, and where the shown one is', () => {
    expect([...branchesByTurn(root, lineage)]).toEqual([
      [1, { index: 0, conversationIds: ['root', 'e3'] }],
      [2, { index: 0, conversationIds: ['root', 'e2'] }],
    ]);
    // e1 and e3 share d: d's branch opens the current conversation when it holds d
    expect([...branchesByTurn(e1, lineage)]).toEqual([[1, { index: 1, conversationIds: ['e2', 'e1'] }]]);
    expect([...branchesByTurn(e2, lineage)]).toEqual([
      [1, { index: 0, conversationIds: ['e2', 'e3'] }],
      [2, { index: 1, conversationIds: ['root', 'e2'] }],
    ]);
  });

  it('has no alternatives for a conversation without forks', () => {
    expect(branchesByTurn(root, [root]).size).toBe(0);
    expect(branchesByTurn(root, []).size).toBe(0);
  });
});

describe('oneBranchEach', () => {
  const root = conversation('root', [], 0, 1);
  const fork = conversation('fork', [], 2, 5, 'root');
  const other = conversation('other', [], 3, 3);
  it('shows each lineage once: the most recently changed branch, or the selected one', () => {
    expect(oneBranchEach([fork, other, root], undefined).map((c) => c.id)).toEqual(['fork', 'other']);
    expect(oneBranchEach([fork, other, root], 'root').map((c) => c.id)).toEqual(['other', 'root']);
    expect(oneBranchEach([root, other], 'other').map((c) => c.id)).toEqual(['root', 'other']);
  });
});
