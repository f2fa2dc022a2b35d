// The everything server (npm) over HTTP: Streamable HTTP, the SSE fallback, and a server that goes away and
// comes back on the same address.
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServersToken, mcpPlugin } from '../src/index.ts';
import { httpEverything, timing, until } from './support/servers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function platformFor(url: string, settings: { type?: 'http' | 'sse' } = {}) {
  const t = await createTestPlatform({
    plugins: [mcpPlugin({ servers: { remote: { url, ...settings } }, ...timing, healthCheckMs: 200 })],
  });
  await t.platform.open();
  cleanups.push(() => t.platform.close());
  const status = () => t.platform.services.resolve(McpServersToken).list()[0]!;
  return { t, status };
}

describe('the everything server over HTTP', () => {
  it('connects over Streamable HTTP and calls tools', async () => {
    const server = await httpEverything('streamableHttp');
    cleanups.push(server.stop);
    const { t, status } = await platformFor(server.url);
    expect(status()).toMatchObject({ state: 'connected', transport: 'streamable-http', target: server.url });
    t.model.push(callTool('remote.get-sum', { a: 40, b: 2 }), reply('42.'));
    expect(t.toolResult(await t.send('Add'), 'remote.get-sum')).toBe('The sum of 40 and 2 is 42.');
  });

  it('falls back to SSE for a server that only has it', async () => {
    const server = await httpEverything('sse');
    cleanups.push(server.stop);
    const { t, status } = await platformFor(server.url);
    expect(status()).toMatchObject({ state: 'connected', transport: 'sse' });
    t.model.push(callTool('remote.echo', { message: 'old transport' }), reply('Ok.'));
    expect(t.toolResult(await t.send('Echo'), 'remote.echo')).toBe('Echo: old transport');
  });

  it('finds a server that went away, tells the model, and reconnects when it is back', async () => {
    const server = await httpEverything('streamableHttp');
    cleanups.push(server.stop);
    const { t, status } = await platformFor(server.url);
    await server.stop();
    await until(() => status().state === 'reconnecting', 'the health check notices');
    expect(status().error).toBeTruthy();

    // While it is away, its tools are still offered, and a call says what is wrong.
    t.model.push(callTool('remote.echo', { message: 'anyone?' }), reply('It is down.'));
    const down = await t.send('Echo');
    expect(t.outputs(down, 'tool')[0]?.result).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining("The MCP server 'remote' is not connected") },
    });

    await server.start();
    await until(() => status().state === 'connected', 'it reconnects');
    t.model.push(callTool('remote.echo', { message: 'back' }), reply('Ok.'));
    expect(t.toolResult(await t.send('Echo'), 'remote.echo')).toBe('Echo: back');
  });
});
