// A server whose tool list changes mid-conversation (notifications/tools/list_changed): the next round
// offers what it has then, over stdio and over Streamable HTTP (where the notification comes on another stream).
import type { PluginError } from '@tessera/core';
import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpPlugin } from '../src/index.ts';
import { httpToolbox } from './support/http-toolbox.ts';
import { stdio, TOOLBOX, timing } from './support/servers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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

describe('tool list changes over Streamable HTTP', () => {
  async function platformWith(options: Parameters<typeof httpToolbox>[0] = {}) {
    const server = await httpToolbox(options);
    cleanups.push(server.stop);
    const pluginErrors: PluginError[] = [];
    const t = await createTestPlatform({
      plugins: [mcpPlugin({ servers: { box: { url: server.url } }, ...timing })],
      onPluginError: (error) => pluginErrors.push(error),
    });
    await t.platform.open();
    cleanups.push(() => t.platform.close());
    return { server, t, pluginErrors };
  }

  it('offers the list the server has after a call, though its list_changed lands a round late', async () => {
    const { server, t } = await platformWith({ tools: 1 });
    t.model.push(
      callTool('box.grow'),
      () => {
        void server.deliverHeld(); // the notification of grow lands while round 1 runs
        return callTool('box.shrink');
      },
      reply('Done.'),
    );
    const done = await t.send('Grow, then shrink');
    expect(t.outputs(done, 'tool').map((call) => [call.toolId, call.result?.type])).toEqual([
      ['box.grow', 'success'],
      ['box.shrink', 'success'],
    ]);
    expect(t.model.toolsOffered(0)).not.toContain('box.extra_1');
    expect(t.model.toolsOffered(1)).toContain('box.extra_1');
    expect(t.model.toolsOffered(2)).not.toContain('box.extra_1');
    expect(t.model.toolsOffered(2)).toEqual(t.model.toolsOffered(0));
  });

  it('lists the tools again once for a round of calls, and not after a round without one', async () => {
    const { server, t } = await platformWith();
    expect(server.requests('tools/list')).toBe(1); // on connecting
    t.model.push(
      // Two, not three: a third call with the same arguments would be a doom loop, which pauses with the plugin.
      callTools({ name: 'box.grow' }, { name: 'box.grow' }),
      reply('Two more.'),
    );
    await t.send('Grow twice');
    expect(t.model.toolsOffered(1)).toEqual(expect.arrayContaining(['box.extra_1', 'box.extra_2']));
    expect(server.requests('tools/call')).toBe(2);
    expect(server.requests('tools/list')).toBe(2);

    t.model.push(reply('Hello.'));
    await t.send('Hi');
    expect(server.requests('tools/list')).toBe(2);
  });

  it('takes a server that does not declare listChanged at its word: no listing after its calls', async () => {
    const { server, t } = await platformWith({ listChanged: false });
    t.model.push(callTool('box.grow'), reply('Grown.'));
    await t.send('Grow');
    expect(server.requests('tools/call')).toBe(1);
    expect(server.requests('tools/list')).toBe(1);
    expect(t.model.toolsOffered(1)).not.toContain('box.extra_1');
  });

  it('offers the last list when the server cannot list its tools after a call, and tells the operator', async () => {
    const { server, t, pluginErrors } = await platformWith();
    server.refuseLists();
    t.model.push(callTool('box.grow'), reply('Grown, I think.'));
    const done = await t.send('Grow');
    expect(t.outputs(done, 'tool')[0]?.result?.type).toBe('success');
    expect(t.model.toolsOffered(1)).toEqual(t.model.toolsOffered(0));
    expect(pluginErrors).toHaveLength(1);
    expect(pluginErrors[0]).toMatchObject({ pluginId: 'mcp', phase: 'background' });
    expect(pluginErrors[0]?.message).toContain(
      "The MCP server 'box' could not list its changed tools or prompts (MCP error -32603: Listing is down.)",
    );
  });
});
