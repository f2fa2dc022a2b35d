import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/api.ts';
import { applyListEvent, waitingConversations } from '../src/conversation-list-events.ts';

const conversation = (id: string, title?: string): Conversation => ({
  id,
  userId: 'ada',
  ...(title && { title }),
  promptIds: [],
  pluginState: {},
  createdAt: '2026-11-27T06:00:00.000Z',
  updatedAt: '2026-11-27T06:00:00.000Z',
});

describe("the list's live changes", () => {
  it('puts a new conversation first, once: a list loaded after it was made already has it', () => {
    const list = [conversation('conv_a', 'A')];
    const made = { type: 'conversation.created' as const, conversation: conversation('conv_b', 'B') };
    const after = applyListEvent(list, made);
    expect(after.map((c) => c.id)).toEqual(['conv_b', 'conv_a']);
    expect(applyListEvent(after, made)).toBe(after);
  });

  it('renames in place and removes a deleted one; an id it does not list changes nothing', () => {
    const list = [conversation('conv_a', 'A'), conversation('conv_b')];
    const renamed = applyListEvent(list, {
      type: 'conversation.renamed',
      conversationId: 'conv_b',
      title: 'Named by its first message',
    });
    expect(renamed.map((c) => c.title)).toEqual(['A', 'Named by its first message']);
    expect(applyListEvent(renamed, { type: 'conversation.deleted', conversationId: 'conv_a' })).toEqual([
      renamed[1],
    ]);
    const unknown = { type: 'conversation.deleted' as const, conversationId: 'conv_other' };
    expect(applyListEvent(renamed, unknown)).toEqual(renamed);
  });

  it('marks each conversation with something waiting once, however many items wait in it', () => {
    const items = [{ conversationId: 'conv_a' }, { conversationId: 'conv_a' }, { conversationId: 'conv_b' }];
    expect(waitingConversations(items)).toEqual(new Set(['conv_a', 'conv_b']));
  });
});
