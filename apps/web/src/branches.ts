import type { Conversation } from './api.ts';

/** The branches at one turn: which one the conversation shows, and the conversation that opens each. */
export type TurnBranches = { index: number; conversationIds: string[] };

type Branch = Pick<Conversation, 'id' | 'promptIds' | 'createdAt' | 'updatedAt'>;

/**
 * For each turn of `current` (by position) that has alternatives, its branches: the distinct prompts at that
 * position among the lineage's conversations that share every prompt before it, oldest branch first (the
 * original is 1). Each opens the most recently changed conversation holding that prompt there (the current
 * prompt's opens `current`). `branches` is the lineage (GET /api/conversations/{id}/branches), `current` among
 * them or not. Work: one pass over each branch's prompts, then branches × turns.
 */
export function branchesByTurn(current: Branch, branches: readonly Branch[]): Map<number, TurnBranches> {
  const others = branches.filter((b) => b.id !== current.id);
  // How many prompts each branch shares with the current one, from the start: one pass each.
  const shared = others.map((branch) => [branch, sharedPrefix(branch, current)] as const);
  const turns = new Map<number, TurnBranches>();
  for (let position = 0; position < current.promptIds.length; position++) {
    // The current prompt here is held by the branches sharing more than `position` prompts; a branch sharing
    // exactly `position` holds another (the alternatives), if it goes that far.
    let mineSince = current.createdAt;
    const alternatives = new Map<string, { since: string; open: Branch }>();
    for (const [branch, length] of shared) {
      if (length > position) {
        if (branch.createdAt < mineSince) mineSince = branch.createdAt;
        continue;
      }
      const promptId = branch.promptIds[position];
      if (length < position || promptId === undefined) continue;
      const seen = alternatives.get(promptId);
      if (!seen) alternatives.set(promptId, { since: branch.createdAt, open: branch });
      else {
        if (branch.createdAt < seen.since) seen.since = branch.createdAt;
        if (newer(branch, seen.open)) seen.open = branch;
      }
    }
    if (alternatives.size === 0) continue;
    // The current conversation opens its own prompt's branch: flipping back lands where the user was.
    const ordered = [{ since: mineSince, open: current }, ...alternatives.values()].sort((a, b) =>
      a.since.localeCompare(b.since),
    );
    turns.set(position, {
      index: ordered.findIndex((entry) => entry.open === current),
      conversationIds: ordered.map((entry) => entry.open.id),
    });
  }
  return turns;
}

/** How many prompts `a` and `b` have in common from the first. */
const sharedPrefix = (a: Branch, b: Branch) => {
  const most = Math.min(a.promptIds.length, b.promptIds.length);
  let i = 0;
  while (i < most && a.promptIds[i] === b.promptIds[i]) i++;
  return i;
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
