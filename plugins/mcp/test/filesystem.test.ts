// The filesystem server (npm) on a temporary folder: approval from its annotations, and the app's overrides.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesPlugin } from '@tessera/plugin-files';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServersToken, mcpPlugin } from '../src/index.ts';
import { FILESYSTEM, stdio, timing } from './support/servers.ts';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let folder: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tessera-mcp-fs-'));
  await writeFile(join(folder, 'notes.txt'), 'Ship on Friday\n');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(folder, { recursive: true, force: true });
});

async function platformWith(server: Record<string, unknown> = {}) {
  const files = await mkdtemp(join(tmpdir(), 'tessera-mcp-files-'));
  const t = await createTestPlatform({
    plugins: [
      filesPlugin({ directory: files }),
      mcpPlugin({ servers: { fs: { ...stdio(FILESYSTEM, folder), ...server } }, ...timing }),
    ],
  });
  await t.platform.open();
  cleanups.push(async () => {
    await t.platform.close();
    await rm(files, { recursive: true, force: true });
  });
  return t;
}

describe('the filesystem server', () => {
  it('runs read-only tools at once and asks before a destructive one, which runs once approved', async () => {
    const t = await platformWith();
    const target = join(folder, 'plan.txt');
    t.model.push(
      callTool('fs.read_text_file', { path: join(folder, 'notes.txt') }),
      callTool('fs.write_file', { path: target, content: 'Friday: ship' }),
      reply('Written.'),
    );
    const paused = await t.send('Copy my notes into a plan');
    expect(t.toolResult(paused, 'fs.read_text_file')).toBe('Ship on Friday\n');
    expect(t.pendingCall(paused).result).toEqual({
      type: 'pending',
      reason: "'fs.write_file' may change or delete data: the MCP server 'fs' marks it destructive.",
    });
    await expect(readFile(target, 'utf8')).rejects.toThrow(); // nothing written before approval

    const done = await t.approvePending();
    expect(done.state).toBe('completed');
    expect(await readFile(target, 'utf8')).toBe('Friday: ship');
  });

  it('writes nothing when the call is rejected', async () => {
    const t = await platformWith();
    t.model.push(
      callTool('fs.write_file', { path: join(folder, 'notes.txt'), content: '' }),
      reply('Left alone.'),
    );
    await t.send('Empty my notes');
    await t.rejectPending({ reason: 'Keep them' });
    expect(await readFile(join(folder, 'notes.txt'), 'utf8')).toBe('Ship on Friday\n');
  });

  it('lets the app override the annotations per tool and per server', async () => {
    const trusted = await platformWith({ tools: { write_file: { approval: 'never' } } });
    trusted.model.push(
      callTool('fs.write_file', { path: join(folder, 'a.txt'), content: 'a' }),
      reply('Ok.'),
    );
    expect((await trusted.send('Write a')).state).toBe('completed');
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('a');

    const careful = await platformWith({ approval: 'always', tools: { list_directory: { enabled: false } } });
    careful.model.push(callTool('fs.read_text_file', { path: join(folder, 'notes.txt') }), reply('Ok.'));
    const paused = await careful.send('Read my notes');
    expect(careful.pendingCall(paused).result).toMatchObject({
      reason: "The app's settings for the MCP server 'fs' ask every time.",
    });
    expect(careful.model.toolsOffered(0)).not.toContain('fs.list_directory');
    const [status] = careful.platform.services.resolve(McpServersToken).list();
    expect(status?.skippedTools).toContainEqual({
      name: 'list_directory',
      reason: "disabled in the app's settings",
    });
    expect(status?.tools.every((tool) => tool.requiresApproval)).toBe(true);
  });

  it('stores an image a tool returns as a file output', async () => {
    await writeFile(join(folder, 'dot.png'), PNG);
    const t = await platformWith();
    t.model.push(callTool('fs.read_media_file', { path: join(folder, 'dot.png') }), reply('A dot.'));
    const prompt = await t.send('Show me dot.png');
    const [file] = t.outputs(prompt, 'file');
    expect(file).toMatchObject({ mediaType: 'image/png', size: PNG.byteLength });
    expect(t.toolResult(prompt, 'fs.read_media_file')).toContain(`saved as file ${file!.fileId}`);
  });
});
