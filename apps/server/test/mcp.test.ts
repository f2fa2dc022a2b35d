// The MCP plugin named in a config file: its servers' tools in prompts, and their status at /api/mcp/servers.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, loadConfig } from '../src/index.ts';
import { ALICE } from './harness.ts';
import { appFolder } from './support/app-folder.ts';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

let app: Awaited<ReturnType<typeof appFolder>>;
beforeAll(async () => {
  app = await appFolder();
});
afterAll(async () => app?.remove());

describe('the MCP plugin in the server', () => {
  it('is named by package in tessera.config.json; /api/mcp/servers tells how each server stands', async () => {
    const file = await app.write(
      'tessera.config.json',
      JSON.stringify({
        plugins: [
          {
            package: '@tessera/plugin-mcp',
            options: {
              servers: {
                everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
                broken: { command: join(app.root, 'no-such-server') },
              },
            },
          },
        ],
        defaultPlugins: false,
        dataDir: join(app.root, 'data'),
        auth: { tokens: { [ALICE]: 'alice' } },
      }),
    );
    const { options } = await loadConfig({ env: { TESSERA_CONFIG: file }, cwd: app.root });
    const model = new ScriptedModel([callTool('everything.echo', { message: 'from MCP' }), reply('Done.')]);
    const server = await createServer({ ...options, model, webDir: null });
    try {
      const { url } = await server.listen({ port: 0 });
      // biome-ignore lint/suspicious/noExplicitAny: JSON read by the assertions
      const get = async (path: string): Promise<any> =>
        (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${ALICE}` } })).json();
      expect((await get('/api/me')).plugins).toEqual(['mcp']);
      const { items } = await get('/api/mcp/servers');
      expect(items).toEqual([
        expect.objectContaining({
          name: 'everything',
          state: 'connected',
          transport: 'stdio',
          tools: expect.arrayContaining([
            {
              id: 'everything.echo',
              name: 'echo',
              title: 'Echo Tool',
              readOnly: true,
              requiresApproval: false,
            },
          ]),
          prompts: expect.arrayContaining([expect.objectContaining({ name: 'simple-prompt' })]),
        }),
        expect.objectContaining({
          name: 'broken',
          state: 'reconnecting',
          error: expect.stringContaining('ENOENT'),
        }),
      ]);
      expect((await get('/openapi.json')).paths['/api/mcp/servers']).toBeDefined();

      const conversation = await server.platform.conversations.create({ userId: 'alice' });
      const prompt = await server.platform.send({
        conversationId: conversation.id,
        userId: 'alice',
        input: 'Echo',
      });
      expect(prompt.output[0]).toMatchObject({
        toolId: 'everything.echo',
        result: { output: 'Echo: from MCP' },
      });
    } finally {
      await server.close({ graceMs: 50 });
    }
  });
});
