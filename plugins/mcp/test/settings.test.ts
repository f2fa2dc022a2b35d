// Settings, tool names and argument checks: what an app's config meets before any server runs.
import { DefinitionError } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonSchemaInput, McpServersToken, mcpPlugin, toolIds } from '../src/index.ts';
import { EVERYTHING, stdio, timing } from './support/servers.ts';

const saved = { ...process.env };
/** `${env:NAME}`, the plugin's reference to an environment variable. */
const ref = (name: string) => `\${env:${name}}`;
afterEach(() => {
  process.env = { ...saved };
});

describe('settings', () => {
  it('lists every problem of the servers, naming the plugin', () => {
    const make = () =>
      mcpPlugin({
        servers: {
          'bad.name': { command: 'x' },
          both: { command: 'x', url: 'http://127.0.0.1:1/mcp' },
          neither: {},
          mcp: { command: 'x' },
          ftp: { url: 'ftp://example.test/mcp' },
        },
      });
    expect(make).toThrow(DefinitionError);
    const message = (() => {
      try {
        make();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain("Plugin 'mcp': its options are not valid:");
    expect(message).toContain('a server name is 1-32 letters, digits, _ or -');
    expect(message).toContain('servers.both: give either command');
    expect(message).toContain('servers.neither: give either command');
    expect(message).toContain("'mcp' is the plugin's own prefix");
    expect(message).toContain('servers.ftp.url');
  });

  it('fills env:NAME references from the environment, and names a variable that is not set', async () => {
    process.env.TEST_MCP_TOKEN = 'secret-value';
    const servers = {
      everything: { ...stdio(EVERYTHING, 'stdio'), env: { GREETING: `${ref('TEST_MCP_TOKEN')}!` } },
    };
    const t = await createTestPlatform({ plugins: [mcpPlugin({ servers, ...timing })] });
    await t.platform.open();
    try {
      t.model.push(callTool('everything.get-env'), reply('Ok.'));
      expect(t.toolResult(await t.send('Env?'), 'everything.get-env')).toContain(
        '"GREETING": "secret-value!"',
      );
    } finally {
      await t.platform.close();
    }
    const unset = { api: { command: 'x', env: { KEY: ref('TEST_MCP_UNSET') } } };
    expect(() => mcpPlugin({ servers: unset })).toThrow(
      'servers.api.env.KEY: the environment variable TEST_MCP_UNSET is not set',
    );
  });

  it('takes the servers from TESSERA_MCP_SERVERS, as JSON, when the options leave them out', async () => {
    process.env.TESSERA_MCP_SERVERS = JSON.stringify({ everything: stdio(EVERYTHING, 'stdio') });
    const t = await createTestPlatform({ plugins: [mcpPlugin(timing)], script: [reply('Hi.')] });
    await t.platform.open();
    try {
      expect(t.platform.services.resolve(McpServersToken).list()).toMatchObject([
        { name: 'everything', state: 'connected' },
      ]);
    } finally {
      await t.platform.close();
    }
  });

  it('starts the app when a server cannot be started, and keeps trying; a disabled one is left alone', async () => {
    const t = await createTestPlatform({
      plugins: [
        mcpPlugin({
          servers: { missing: { command: '/nonexistent/mcp-server' }, off: { command: 'x', enabled: false } },
          ...timing,
        }),
      ],
      script: [reply('Hi.')],
    });
    await t.platform.open();
    try {
      const [missing, off] = t.platform.services.resolve(McpServersToken).list();
      expect(missing).toMatchObject({
        state: 'reconnecting',
        failures: 1,
        error: expect.stringContaining('ENOENT'),
      });
      expect(missing?.nextAttemptAt).toBeDefined();
      expect(off).toMatchObject({ state: 'disabled', failures: 0 });
      await t.send('Hello');
      expect(t.model.toolsOffered(0)).toEqual([]);
    } finally {
      await t.platform.close();
    }
  });
});

describe('tool ids', () => {
  it('are server.tool, made to fit core’s rule, unique, and the same for the same list', () => {
    const long = 'x'.repeat(80);
    const names = ['create issue', 'create_issue', 'read/file', long, `${long}y`, 'ok.tool'];
    const ids = toolIds('gh', names);
    expect([...ids.values()].every((id) => /^[a-zA-Z0-9_.-]{1,64}$/.test(id))).toBe(true);
    expect(new Set(ids.values()).size).toBe(names.length);
    expect(ids.get('create issue')).toBe('gh.create_issue');
    expect(ids.get('create_issue')).toMatch(/^gh\.create_issue_[0-9a-f]{6}$/);
    expect(ids.get('read/file')).toBe('gh.read_file');
    expect(ids.get('ok.tool')).toBe('gh.ok.tool');
    expect(toolIds('gh', names)).toEqual(ids);
  });
});

describe('argument checks', () => {
  it('validate against the JSON Schema in its dialect (2020-12 here), with a path per problem', () => {
    const input = jsonSchemaInput({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] } },
      required: ['point', 'label'],
    });
    expect(input.safeParse({ point: [1, 2], label: 'a' }).success).toBe(true);
    const failed = input.safeParse({ point: [1, 'two'] });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['label'], message: 'is required' },
      { path: ['point', 1], message: 'must be number' },
    ]);
  });

  it('leave a schema Ajv cannot compile to the server', () => {
    const input = jsonSchemaInput({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(input.safeParse({ a: 1 }).success).toBe(true);
  });
});
