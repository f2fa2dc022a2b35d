import { NotFoundError, TesseraError } from '../errors.ts';
import { newId } from '../ids.ts';
import { isoNow as now } from '../iso-now.ts';
import { presentConversation } from '../loop/stored-state.ts';
import type { Conversation } from '../model/conversation.ts';
import type { Prompt } from '../model/prompt.ts';
import type { PlatformConversations } from '../plugins/define-plugin.ts';
import type { Page, PageOptions } from '../store/store.ts';
import type { PlatformContext } from './context.ts';

/** A user's conversations (see `PlatformConversations` for what each method promises). */
export const platformConversations = (ctx: PlatformContext): PlatformConversations => ({
  async create(input: { userId: string; title?: string }): Promise<Conversation> {
    if (!input.userId) throw new TesseraError('invalid_input', 'A conversation needs a userId.');
    const at = now();
    const conversation: Conversation = {
      id: newId('conv'),
      userId: input.userId,
      ...(input.title !== undefined && { title: input.title }),
      promptIds: [],
      pluginState: {},
      createdAt: at,
      updatedAt: at,
    };
    return ctx.bounds.create(input.userId, undefined, async () => {
      await ctx.store.conversations.create(conversation);
      return conversation;
    });
  },

  async get(conversationId: string, userId: string): Promise<Conversation> {
    return presentConversation(await ctx.conversationOf(conversationId, userId));
  },

  async list(userId: string, page?: PageOptions): Promise<Page<Conversation>> {
    const listed = await ctx.store.conversations.listByUser(userId, page);
    return { ...listed, items: listed.items.map(presentConversation) };
  },

  async prompts(conversationId: string, userId: string): Promise<Prompt[]> {
    await ctx.conversationOf(conversationId, userId);
    return (await ctx.store.prompts.listByConversation(conversationId)) as Prompt[];
  },

  async rename(conversationId: string, userId: string, title: string): Promise<Conversation> {
    await ctx.conversationOf(conversationId, userId);
    await ctx.store.conversations.rename(conversationId, validTitle(title));
    return presentConversation(await ctx.conversationOf(conversationId, userId));
  },

  async fork(conversationId, userId, input) {
    const { store, runtime } = ctx;
    if (!store.conversations.fork) {
      throw new TesseraError('not_supported', 'This store cannot fork conversations.');
    }
    const source = await ctx.conversationOf(conversationId, userId);
    const at = source.promptIds.indexOf(input.promptId);
    if (at < 0) throw new NotFoundError(`Conversation ${conversationId} has no prompt ${input.promptId}.`);
    // A fork at the first prompt is a new first message, which names it; a later one goes on the same topic.
    const title = input.title !== undefined ? validTitle(input.title) : at > 0 ? source.title : undefined;
    const created = now();
    // Within the bounds before any plugin hears of it: a fork refused there is deleted, unseen.
    const fork = await ctx.bounds.create(userId, source.forkOf?.rootId ?? source.id, () =>
      store.conversations.fork!({
        id: newId('conv'),
        userId,
        ...(title !== undefined && { title }),
        createdAt: created,
        updatedAt: created,
        forkOf: { conversationId, promptId: input.promptId },
      }),
    );
    try {
      for (const plugin of runtime.plugins) {
        await plugin.conversationForked?.({
          conversationId: fork.id,
          sourceId: conversationId,
          userId,
          sharedPromptIds: fork.promptIds,
          services: runtime.services,
        });
      }
    } catch (error) {
      await store.conversations.delete(fork.id);
      throw error;
    }
    return presentConversation(fork);
  },

  async branches(conversationId, userId, page) {
    const conversation = await ctx.conversationOf(conversationId, userId);
    const rootId = conversation.forkOf?.rootId ?? conversation.id;
    if (!ctx.store.conversations.listBranches) return { items: [presentConversation(conversation)] };
    const listed = await ctx.store.conversations.listBranches(userId, rootId, {
      ...page,
      limit: Math.min(Math.max(page?.limit ?? 50, 1), 200),
    });
    return { ...listed, items: listed.items.map(presentConversation) };
  },

  async delete(conversationId: string, userId: string): Promise<void> {
    const { runs, runtime, store } = ctx;
    const conversation = await ctx.conversationOf(conversationId, userId);
    await Promise.all(conversation.promptIds.map((id) => runs.abort(id)));
    // Plugins first: if one fails, the conversation is still there and the deletion can be retried.
    for (const plugin of runtime.plugins) {
      await plugin.conversationDeleted?.({
        conversationId,
        userId: conversation.userId,
        services: runtime.services,
      });
    }
    await store.conversations.delete(conversationId);
    ctx.deliveries.removeConversation(conversationId);
  },
});

/** A title as stored: trimmed, 1-200 characters, else `TesseraError` `invalid_input`. */
export function validTitle(title: unknown): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw new TesseraError('invalid_input', 'A title is 1-200 characters.');
  }
  return trimmed;
}
