import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { expect, it } from 'vitest';
import { toolbox } from './helpers.ts';

it('runs a tool and answers', async () => {
  const { plugin, ran } = toolbox();
  const t = await createTestPlatform({
    plugins: [plugin],
    script: [callTool('demo.echo', { text: 'hi' }), reply('Done')],
  });
  const prompt = await t.send('Echo hi');
  expect(prompt.state).toBe('completed');
  expect(ran).toEqual([{ tool: 'demo.echo', input: { text: 'hi' } }]);
  expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
});

it('types plugin variants into PromptOutput', async () => {
  const { badgesPlugin } = await import('@tessera-fixtures/badges');
  const t = await createTestPlatform({
    plugins: [badgesPlugin],
    script: [callTool('badges.award', { label: 'First steps' }), reply('Congrats')],
  });
  const prompt = await t.send('award me');
  const badge = prompt.output.find((o) => o.type === 'x-badges.badge');
  expect(badge?.label).toBe('First steps');
  expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'x-badges.badge', 'x-badges.confetti', 'text']);
});
