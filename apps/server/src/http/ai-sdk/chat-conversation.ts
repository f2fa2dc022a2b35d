import { createHash } from 'node:crypto';
import type { Platform } from '@tessera/core';
import { titleFrom } from '../conversation-title.ts';
import { ownConversation } from '../openai-compat/conversation-match.ts';
import { Id } from '../schemas.ts';

/**
 * Which Tessera conversation a `useChat` chat is. The client names its chat with an id of its own; the server
 * keeps, per user, which conversation that id became (a record keyed by a hash of the user and the id), so
 * two users' chats of one id are two conversations, and no id reaches another user's. An id that is one of the
 * user's own conversations is that conversation (a client can open a chat on a conversation made elsewhere).
 */

const NAMESPACE = 'ai-sdk.chats';

const keyOf = (userId: string, chatId: string) =>
  createHash('sha256')
    .update(JSON.stringify([userId, chatId]))
    .digest('base64url');

/** The user's conversation of the chat, if there is one. */
export async function findChatConversation(
  platform: Platform,
  userId: string,
  chatId: string,
): Promise<string | undefined> {
  const record = await platform.store.records.get<{ conversationId?: unknown }>(
    NAMESPACE,
    keyOf(userId, chatId),
  );
  const mapped = record?.value.conversationId;
  if (typeof mapped === 'string' && (await ownConversation(platform, mapped, userId))) return mapped;
  if (Id.safeParse(chatId).success && (await ownConversation(platform, chatId, userId))) return chatId;
  return undefined;
}

/** The user's conversation of the chat, made (titled after the first message) when it has none yet. */
export async function chatConversation(
  platform: Platform,
  userId: string,
  chatId: string,
  firstMessage: string,
): Promise<string> {
  const found = await findChatConversation(platform, userId, chatId);
  if (found) return found;
  const title = titleFrom(firstMessage);
  const { id } = await platform.conversations.create({ userId, ...(title && { title }) });
  await platform.store.records.put(NAMESPACE, keyOf(userId, chatId), { conversationId: id });
  return id;
}
