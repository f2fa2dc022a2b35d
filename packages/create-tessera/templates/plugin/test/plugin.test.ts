// The plugin in a real platform, on a scripted model and an in-memory store (@tessera/testing).
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { expect, it } from 'vitest';
import { __PLUGIN_EXPORT__ } from '../src/index.ts';

it('adds an item, which the model reads before its next call', async () => {
  const t = await createTestPlatform({ plugins: [__PLUGIN_EXPORT__] });
  t.model.push(callTool('__PLUGIN_ID__.add', { title: 'Call Ada' }), reply('Added as #1.'));
  const prompt = await t.send('Add "Call Ada"');
  expect(t.toolResult(prompt, '__PLUGIN_ID__.add')).toEqual({ id: 1 });
  expect(await t.state(__PLUGIN_EXPORT__)).toEqual({ items: [{ id: 1, title: 'Call Ada' }] });
  expect(JSON.stringify(t.model.requests[1])).toContain('#1 Call Ada'); // prepare()'s context
});

it('clears the list only once the user approves', async () => {
  const t = await createTestPlatform({ plugins: [__PLUGIN_EXPORT__] });
  await t.setState(__PLUGIN_EXPORT__, { items: [{ id: 1, title: 'Call Ada' }] });
  t.model.push(callTool('__PLUGIN_ID__.clear', {}), reply('Cleared.'));
  const waiting = await t.send('Clear my list');
  expect(t.pendingCall(waiting).result).toMatchObject({ type: 'pending' });
  expect(await t.state(__PLUGIN_EXPORT__)).toEqual({ items: [{ id: 1, title: 'Call Ada' }] });
  await t.approvePending();
  expect(await t.state(__PLUGIN_EXPORT__)).toEqual({ items: [] });
});
