import { TesseraError } from '../errors.ts';
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
    await ctx.store.conversations.create(conversation);
    return conversation;
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
    const trimmed = typeof title === 'string' ? title.trim() : '';
    if (trimmed.length === 0 || trimmed.length > 200) {
      throw new TesseraError('invalid_input', 'A title is 1-200 characters.');
    }
    await ctx.store.conversations.rename(conversationId, trimmed);
    return presentConversation(await ctx.conversationOf(conversationId, userId));
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
