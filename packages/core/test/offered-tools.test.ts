import { reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPlatform, createTool, definePlugin, NotFoundError } from '../src/index.ts';

const lookup = createTool({
  id: 'notes.lookup',
  description: 'Look a note up.',
  input: z.object({}),
  invoke: () => 'x',
});

/** Offers `notes.admin` only in conversations whose state says so, and only to prompts marked `admin`. */
const notes = definePlugin({
  id: 'notes',
  state: z.object({ admin: z.boolean().default(false) }).default({ admin: false }),
  tools: [lookup],
  prepare: ({ state, prompt, tools, tool }) => {
    if (state.get().admin && prompt.metadata?.admin === true)
      tools.push(tool({ id: 'notes.admin', description: 'Admin.', input: z.object({}), invoke: () => 'y' }));
  },
});

describe('platform.offeredTools(): what the next prompt would offer the model', () => {
  it("runs the plugins' prepare() as a round does, on a draft prompt that is never stored", async () => {
    const platform = createPlatform({ model: new ScriptedModel([reply('Hi.')]), plugins: [notes] });
    const conversation = await platform.conversations.create({ userId: 'ada' });
    const ids = async (metadata?: Record<string, unknown>) => [
      ...(await platform.offeredTools(conversation.id, 'ada', { metadata })).keys(),
    ];
    expect(await ids({ admin: true })).toEqual(['notes.lookup']);
    await (await platform.pluginState(conversation.id, notes)).set({ admin: true });
    expect(await ids({ admin: true })).toEqual(['notes.lookup', 'notes.admin']);
    expect(await ids()).toEqual(['notes.lookup']);
    const offered = await platform.offeredTools(conversation.id, 'ada');
    expect(offered.get('notes.lookup')?.plugin.id).toBe('notes');
    expect(await platform.conversations.prompts(conversation.id, 'ada')).toEqual([]);
  });

  it("answers NotFoundError for another user's conversation", async () => {
    const platform = createPlatform({ model: new ScriptedModel(), plugins: [notes] });
    const conversation = await platform.conversations.create({ userId: 'ada' });
    await expect(platform.offeredTools(conversation.id, 'bob')).rejects.toBeInstanceOf(NotFoundError);
  });
});
