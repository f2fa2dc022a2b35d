import { type ConversationDeletedContext, NotFoundError, type Platform, PlatformToken } from '@tessera/core';
import { RECORDS_NAMESPACE, runsRecordId } from './run.ts';

/** The ids of the conversations of a lineage (`branches`), every page of them. */
async function lineageOf(platform: Platform, conversationId: string, userId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await platform.conversations.branches(conversationId, userId, {
      limit: 200,
      ...(cursor && { cursor }),
    });
    ids.push(...page.items.map((conversation) => conversation.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/**
 * A conversation is being deleted: delete the child conversations its own prompts started agents in (their
 * deletion deletes their children in turn). A child whose parent prompt another conversation still shares
 * (a fork the user made keeps the history it shares) stays, as the record that prompt links to. A child
 * already deleted is skipped; any other failure stops the deletion, which can be retried. The count of runs
 * under each of its prompts (see `maxRunsPerPrompt`) is deleted with it.
 */
export async function deleteChildren({ conversationId, userId, services }: ConversationDeletedContext) {
  const platform = services.resolve(PlatformToken);
  const prompts = await platform.conversations.prompts(conversationId, userId);
  const links: { promptId: string; child: string }[] = [];
  for (const prompt of prompts) {
    if (prompt.conversationId !== conversationId) continue; // shared from the conversation it was forked from
    for (const output of prompt.output) {
      if (output.type === 'agent-run') links.push({ promptId: prompt.id, child: output.conversationId });
    }
  }
  if (links.length === 0) return;
  const children = new Set(links.map((link) => link.child));
  // The prompts that the lineage's other conversations (but the children, which go too) share.
  const shared = new Set<string>();
  for (const id of await lineageOf(platform, conversationId, userId)) {
    if (id === conversationId || children.has(id)) continue;
    for (const prompt of await platform.conversations.prompts(id, userId)) shared.add(prompt.id);
  }
  for (const { promptId, child } of links) {
    if (shared.has(promptId)) continue;
    // The count of runs under a user's prompt (maxRunsPerPrompt) goes with the prompt.
    await platform.store.records.delete(RECORDS_NAMESPACE, runsRecordId(userId, promptId));
    try {
      await platform.conversations.delete(child, userId);
    } catch (error) {
      if (!NotFoundError.is(error)) throw error;
    }
  }
}
