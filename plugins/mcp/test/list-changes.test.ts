// A server whose tool list changes mid-conversation (notifications/tools/list_changed): the next round
// offers what it has then.
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { mcpPlugin } from '../src/index.ts';
import { stdio, TOOLBOX, timing } from './support/servers.ts';

describe('tool list changes', () => {
  it('offers a tool the server added in the next round, and stops offering one it removed', async () => {
    const t = await createTestPlatform({
      plugins: [mcpPlugin({ servers: { box: stdio(TOOLBOX, '--tools', '2') }, ...timing })],
    });
    await t.platform.open();
    try {
      t.model.push(
        callTool('box.grow'),
        callTool('box.extra_1'),
        callTool('box.shrink'),
        callTool('box.extra_1'),
        reply('Done.'),
      );
      const paused = await t.send('Grow, use it, shrink');
      expect(t.model.toolsOffered(0)).toEqual([
        'box.tool_1',
        'box.tool_2',
        'box.grow',
        'box.shrink',
        'box.wait',
        'box.cancellations',
      ]);
      expect(t.model.toolsOffered(1)).toContain('box.extra_1');
      // Unannotated, so it may change data: it asks (MCP presumes an unannotated tool destructive).
      expect(t.pendingCall(paused, 'box.extra_1').result).toMatchObject({ type: 'pending' });

      const done = await t.approvePending();
      expect(t.outputs(done, 'tool').map((call) => [call.toolId, call.result?.type])).toEqual([
        ['box.grow', 'success'],
        ['box.extra_1', 'success'],
        ['box.shrink', 'success'],
        ['box.extra_1', 'error'],
      ]);
      expect(t.outputs(done, 'tool')[3]?.result).toMatchObject({ error: { code: 'unknown_tool' } });
      expect(t.model.toolsOffered(-1)).not.toContain('box.extra_1');
      // A tool the change did not touch is the same object, so its definition is built once.
      const definition = (call: number) =>
        t.model.requests.at(call)!.tools!.find((d) => d.name === 'box.tool_1');
      expect(definition(-1)).toBe(definition(0));
    } finally {
      await t.platform.close();
    }
  });
});
