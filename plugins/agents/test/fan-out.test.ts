import { PGlite } from '@electric-sql/pglite';
import type { Store, ToolOutput } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { callTool, callTools, reply } from '@tessera/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { agentsPlugin, delegate } from '../src/index.ts';
import { processOn, sharedMemory, userId } from './durable.ts';
import { searchTool } from './helpers.ts';

// maxRunsPerPrompt: a user's prompt starts at most that many child prompts, all depths together, counted in
// the store so that calls running at once (read-only agents of one batch, code, other processes) never pass it.

const researcher = {
  name: 'researcher',
  description: 'Finds facts.',
  instructions: 'Research.',
  tools: ['notes.search'],
  readOnly: true,
};
const helper = { name: 'helper', description: 'Helps.', instructions: 'Help.' };
const boss = { name: 'boss', description: 'Delegates.', instructions: 'Delegate.', tools: ['agent.helper'] };

const calls = (prompt: { output: readonly { type: string }[] }, toolId: string) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool' && (o as ToolOutput).toolId === toolId);

let pglite: Promise<PGlite> | undefined;
afterAll(async () => {
  await (await pglite)?.close();
});

describe('maxRunsPerPrompt', () => {
  it('refuses the runs past it among read-only agents running at once, starting nothing', async () => {
    const search = searchTool();
    const p = await processOn(await sharedMemory()(), {
      agents: [researcher],
      tools: [search.tool],
      maxRunsPerPrompt: 3,
      script: {
        parent: [
          callTools(
            ...Array.from({ length: 5 }, (_, i) => ({
              name: 'agent.researcher',
              args: { task: `Look ${i}.` },
            })),
          ),
          reply('Three looked.'),
        ],
        researcher: [reply('Found one.'), reply('Found two.'), reply('Found three.')],
      },
    });
    const conversation = await p.platform.conversations.create({ userId });
    const prompt = await p.platform.send({
      conversationId: conversation.id,
      userId,
      input: 'Look five times.',
    });
    expect(prompt.state).toBe('completed');
    const results = calls(prompt, 'agent.researcher').map((call) => call.result);
    expect(results.filter((r) => r?.type === 'success')).toHaveLength(3);
    const refused = results.filter((r) => r?.type === 'error');
    expect(refused).toHaveLength(2);
    for (const result of refused) {
      expect(JSON.stringify(result)).toContain('maxRunsPerPrompt: 3');
    }
    // Nothing started for the refused calls: one conversation per run, besides the user's.
    expect((await p.platform.conversations.list(userId)).items).toHaveLength(4);
    await p.platform.close();
  });

  it('counts every depth together: a child of a child counts towards the user prompt', async () => {
    const p = await processOn(await sharedMemory()(), {
      agents: [boss, helper],
      tools: [],
      maxRunsPerPrompt: 2,
      script: {
        parent: [callTool('agent.boss', { task: 'Get help twice.' }), reply('The boss is done.')],
        boss: [
          callTools(
            { name: 'agent.helper', args: { task: 'Help 1.' } },
            { name: 'agent.helper', args: { task: 'Help 2.' } },
          ),
          reply('One helped; the other was refused.'),
        ],
        helper: [reply('Helped.')],
      },
    });
    const conversation = await p.platform.conversations.create({ userId });
    const prompt = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(prompt.state).toBe('completed');
    const bossRun = calls(prompt, 'agent.boss')[0]?.result;
    expect(bossRun?.type).toBe('success');
    // The user's conversation, the boss's, one helper's.
    expect((await p.platform.conversations.list(userId)).items).toHaveLength(3);
    const [rootOfBoss] = (await p.platform.store.prompts.listByState('completed')).filter(
      (record) => record.metadata?.agent === 'boss',
    );
    const helpers = calls(rootOfBoss as never, 'agent.helper').map((call) => call.result?.type);
    expect(helpers).toEqual(['success', 'error']);
    expect(rootOfBoss?.metadata).toMatchObject({ root: prompt.id });
    await p.platform.close();
  });

  describe.each([
    ['memory', async () => sharedMemory()],
    [
      'PGlite',
      async () => {
        pglite ??= PGlite.create();
        const db = await pglite;
        return () => createPostgresStore({ pglite: db });
      },
    ],
  ])('code delegating at once, from two processes (%s store)', { timeout: 60_000 }, (_, shared) => {
    it('starts exactly maxRunsPerPrompt children for one prompt', async () => {
      const openStore: () => Promise<Store> = await shared();
      const script = { helper: Array.from({ length: 6 }, () => reply('Helped.')), parent: [reply('Hi.')] };
      const [a, b] = [
        await processOn(await openStore(), { agents: [helper], tools: [], maxRunsPerPrompt: 3, script }),
        await processOn(await openStore(), { agents: [helper], tools: [], maxRunsPerPrompt: 3, script }),
      ];
      const conversation = await a.platform.conversations.create({ userId });
      const parent = await a.platform.send({ conversationId: conversation.id, userId, input: 'Hello.' });
      const attempts = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          delegate(i % 2 ? a.platform : b.platform, {
            agent: 'helper',
            userId,
            task: `Help ${i}.`,
            parent: { conversationId: conversation.id, promptId: parent.id },
          }),
        ),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(3);
      for (const attempt of attempts.filter((attempt) => attempt.status === 'rejected')) {
        expect(attempt.reason).toMatchObject({ code: 'conflict' });
        expect(String(attempt.reason.message)).toContain('maxRunsPerPrompt: 3');
      }
      await Promise.all([a.platform.close(), b.platform.close()]);
    });
  });

  it('is a whole number from 1 to 10,000', () => {
    expect(() => agentsPlugin({ agents: [helper], maxRunsPerPrompt: 0 })).toThrow(/maxRunsPerPrompt/);
    expect(() => agentsPlugin({ agents: [helper], maxRunsPerPrompt: 1.5 })).toThrow(/maxRunsPerPrompt/);
  });
});
