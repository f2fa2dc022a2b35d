import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { badgesPlugin } from '@tessera-fixtures/badges';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createTool, definePlugin, MemoryStore, type ToolOutput } from '../src/index.ts';

// The fixture is its own workspace package; core has never heard of its output types.
it('records, persists, validates and projects a variant core does not know', async () => {
  const store = new MemoryStore();
  const t = await createTestPlatform({
    plugins: [badgesPlugin],
    store,
    script: [callTool('badges.award', { label: 'First steps', level: 'gold' }), reply('Congratulations!')],
  });
  const prompt = await t.send('Award me');
  expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'x-badges.badge', 'x-badges.confetti', 'text']);
  const badge = prompt.output.find((o) => o.type === 'x-badges.badge');
  expect(badge).toMatchObject({ label: 'First steps', level: 'gold', toolCallId: prompt.output[0]?.id });

  const stored = await store.prompts.get(prompt.id);
  expect(stored?.output).toEqual(prompt.output);

  // The model sees the badge as its summary, and never the confetti.
  const messages = t.model.requests[1]!.messages;
  expect(messages).toContainEqual({
    type: 'message',
    role: 'assistant',
    content: '[badge awarded: First steps (gold)]',
  });
  expect(JSON.stringify(messages)).not.toContain('confetti');
  expect(JSON.stringify(messages)).not.toContain('red');
});

it('rejects an emitted output that does not match its variant, as a tool error', async () => {
  const sloppy = createTool({
    id: 'sloppy.award',
    description: 'Emits a bad badge.',
    input: z.object({}),
    invoke: async ({ emit }) => {
      await emit({ type: 'x-badges.badge', label: '', level: 'platinum' } as never);
      return 'unreachable';
    },
  });
  const t = await createTestPlatform({
    plugins: [badgesPlugin, definePlugin({ id: 'sloppy', tools: [sloppy] })],
    script: [callTool('sloppy.award'), reply('Oops')],
  });
  const prompt = await t.send('go');
  expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
  const error = JSON.stringify((prompt.output[0] as ToolOutput).result);
  expect(error).toContain("Output of type 'x-badges.badge' (from 'x-badges') is invalid");
});

it('starts a prompt with outputs given at send time (e.g. uploads), validated and shown to the model', async () => {
  const t = await createTestPlatform({ plugins: [badgesPlugin], script: [reply('Nice badge.')] });
  const prompt = await t.platform.send({
    conversationId: t.conversation.id,
    userId: t.userId,
    input: 'Look at this',
    outputs: [{ type: 'x-badges.badge', label: 'Uploaded', level: 'silver' }],
  });
  expect(prompt.output.map((o) => o.type)).toEqual(['x-badges.badge', 'text']);
  expect(t.model.requests[0]?.messages).toEqual([
    { type: 'message', role: 'user', content: 'Look at this' },
    { type: 'message', role: 'assistant', content: '[badge awarded: Uploaded (silver)]' },
  ]);
  await expect(
    t.platform.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      outputs: [{ type: 'x-badges.badge', label: '', level: 'tin' } as never],
    }),
  ).rejects.toThrow("Output of type 'x-badges.badge' (from 'x-badges') is invalid");
  expect(await t.platform.conversations.prompts(t.conversation.id, t.userId)).toHaveLength(1);
});
