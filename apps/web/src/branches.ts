import type { Conversation } from './api.ts';

/** The branches at one turn: which one the conversation shows, and the conversation that opens each. */
export type TurnBranches = { index: number; conversationIds: string[] };

type Branch = Pick<Conversation, 'id' | 'promptIds' | 'createdAt' | 'updatedAt'>;

/**
 * For each turn of `current` (by position) that has alternatives, its branches: the distinct prompts at that
 * position among the lineage's conversations that share every prompt before it, oldest branch first (the
 * original is 1). Each opens the most recently changed conversation holding that prompt there. `branches`
 * is the lineage (GET /api/conversations/{id}/branches), `current` among them or not.
 */
export function branchesByTurn(current: Branch, branches: readonly Branch[]): Map<number, TurnBranches> {
  const all = branches.some((b) => b.id === current.id) ? branches : [...branches, current];
  const turns = new Map<number, TurnBranches>();
  for (let position = 0; position < current.promptIds.length; position++) {
    // prompt id at this position → the oldest creation among its holders, and the newest holder to open
    const alternatives = new Map<string, { since: string; open: Branch }>();
    for (const branch of all) {
      const promptId = branch.promptIds[position];
      if (promptId === undefined || !sharesPrefix(branch, current, position)) continue;
      const seen = alternatives.get(promptId);
      if (!seen) alternatives.set(promptId, { since: branch.createdAt, open: branch });
      else {
        if (branch.createdAt < seen.since) seen.since = branch.createdAt;
        if (newer(branch, seen.open)) seen.open = branch;
      }
    }
    if (alternatives.size < 2) continue;
    const ordered = [...alternatives.entries()].sort(([, a], [, b]) => a.since.localeCompare(b.since));
    const mine = current.promptIds[position];
    turns.set(position, {
      index: ordered.findIndex(([promptId]) => promptId === mine),
      // The current conversation opens its own prompt's branch: flipping back lands where the user was.
      conversationIds: ordered.map(([promptId, { open }]) => (promptId === mine ? current.id : open.id)),
    });
  }
  return turns;
}

const sharesPrefix = (a: Branch, b: Branch, length: number) => {
  for (let i = 0; i < length; i++) if (a.promptIds[i] !== b.promptIds[i]) return false;
  return true;
};

const newer = (a: Branch, b: Branch) =>
  a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id);

/** The key of a conversation's lineage: its root's id (a conversation that is no fork is its own root). */
export const lineageOf = (c: Pick<Conversation, 'id' | 'forkOf'>) => c.forkOf?.rootId ?? c.id;

/**
 * One conversation per lineage, for the list: the selected one where it is of that lineage, else the most
 * recently changed. The order of `conversations` is kept.
 */
export function oneBranchEach<C extends Pick<Conversation, 'id' | 'forkOf' | 'updatedAt'>>(
  conversations: readonly C[],
  selected: string | undefined,
): C[] {
  const shown = new Map<string, C>();
  for (const c of conversations) {
    const key = lineageOf(c);
    const seen = shown.get(key);
    if (!seen || (seen.id !== selected && (c.id === selected || c.updatedAt > seen.updatedAt)))
      shown.set(key, c);
  }
  const kept = new Set(shown.values());
  return conversations.filter((c) => kept.has(c));
}
