import { listPromptsByUserAndState, type Platform, type Prompt } from '@tessera/core';

/**
 * A page of the user's prompts waiting for a decision, oldest first: what GET /api/approvals and GET
 * /api/pauses list the pending calls and pauses of. Paged by prompt, so a prompt's items are never split
 * across pages. Reads only the user's waiting prompts when the store can (`listByUserAndState`); a cursor the
 * store did not make is its `invalid_input` (a 400).
 */
export async function waitingPrompts(
  platform: Platform,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
  const { items, nextCursor } = await listPromptsByUserAndState(
    platform.store.prompts,
    userId,
    'waiting_for_approval',
    { limit: page.limit, ...(page.cursor !== undefined && { cursor: page.cursor }) },
  );
  return { prompts: items as Prompt[], ...(nextCursor !== undefined && { nextCursor }) };
}

/** How both lists describe their pages (`items` are those of up to `limit` prompts). */
export const waitingPageDescription = (what: string) =>
  `A page of up to \`limit\` waiting prompts (50 unless given, at most 200), oldest first, with all the ${what} of each: a prompt's ${what} are never split across pages, so a page may hold more than \`limit\` items, or none while \`nextCursor\` is there. Follow \`nextCursor\` until it is absent to have them all. A cursor this list did not give is a 400.`;
