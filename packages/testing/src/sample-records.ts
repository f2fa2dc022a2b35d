import { type Conversation, emptyUsage, newId, type PromptRecord } from '@tessera/core';

/** A time `ms` after a fixed instant, as the records hold times (ISO 8601): sample records sort by it. */
export const sampleTime = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

/** A conversation of `userId` with no prompts, created `at` ms after the sample instant. */
export const sampleConversation = (userId = 'user_a', at = 0): Conversation => ({
  id: newId('conv'),
  userId,
  promptIds: [],
  pluginState: {},
  createdAt: sampleTime(at),
  updatedAt: sampleTime(at),
});

/** A running prompt of `conversation` with no outputs yet; `overrides` set any field. */
export const samplePrompt = (
  conversation: Conversation,
  overrides: Partial<PromptRecord> = {},
): PromptRecord => ({
  id: newId('prm'),
  conversationId: conversation.id,
  userId: conversation.userId,
  model: 'normal',
  visible: true,
  state: 'running',
  input: 'hello',
  output: [],
  usage: emptyUsage(),
  createdAt: sampleTime(1),
  updatedAt: sampleTime(1),
  ...overrides,
});
