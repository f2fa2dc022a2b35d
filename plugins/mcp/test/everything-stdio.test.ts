// The reference "everything" server (npm) over stdio: tools, errors, content, progress, resources, prompts,
// cancellation, and a server that is killed and comes back.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { filesPlugin } from '@tessera/plugin-files';
import { callTool, createTestPlatform, reply, type TestPlatform } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServersToken, mcpPlugin, mcpProgress } from '../src/index.ts';
import { EVERYTHING, stdio, timing, until } from './support/servers.ts';

const plugin = mcpPlugin({ servers: { everything: stdio(EVERYTHING, 'stdio') }, ...timing });
let t: TestPlatform;
let withoutFiles: TestPlatform;
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tessera-mcp-files-'));
  t = await createTestPlatform({ plugins: [filesPlugin({ directory }), plugin] });
  // The same plugin in a second platform (an app without the files plugin) shares the connection.
  withoutFiles = await createTestPlatform({ plugins: [plugin] });
  await t.platform.open();
  await withoutFiles.platform.open();
});

afterAll(async () => {
  await withoutFiles?.platform.close();
  await t?.platform.close();
  await rm(directory, { recursive: true, force: true });
});

const status = () => t.platform.services.resolve(McpServersToken).list()[0]!;
const callOf = (prompt: { output: readonly { type: string }[] }, toolId: string) =>
  prompt.output.find((o) => o.type === 'tool' && (o as { toolId?: string }).toolId === toolId) as
    | { result?: { type: string; output?: unknown; error?: { code: string; message: string } } }
    | undefined;

describe('the everything server over stdio', () => {
  it('offers each tool as server.tool, with the JSON Schema the server sent', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ ...stdio(EVERYTHING, 'stdio'), stderr: 'ignore' }));
    const { tools } = await client.listTools();
    await client.close();

    t.model.push(reply('Hello.'));
    await t.send('Hi');
    const offered = t.model.requests.at(-1)!.tools ?? [];
    const sum = tools.find((tool) => tool.name === 'get-sum')!;
    const { $schema, ...parameters } = sum.inputSchema; // the dialect is for validators, not models
    expect($schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(offered.find((tool) => tool.name === 'everything.get-sum')).toEqual({
      name: 'everything.get-sum',
      description: sum.description,
      parameters,
    });
    const taskOnly = tools
      .filter((tool) => tool.execution?.taskSupport === 'required')
      .map((tool) => tool.name);
    const plain = tools.filter((tool) => !taskOnly.includes(tool.name));
    expect(offered.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(plain.map((tool) => `everything.${tool.name}`)),
    );
    expect(status().skippedTools.map((tool) => tool.name)).toEqual(taskOnly);
    expect(status()).toMatchObject({ state: 'connected', transport: 'stdio', resources: true });
  });

  it('gives the model the text a tool returns; a read-only tool runs without approval', async () => {
    t.model.push(
      callTool('everything.echo', { message: 'hello' }),
      callTool('everything.get-sum', { a: 2, b: 3 }),
      reply('Done.'),
    );
    const prompt = await t.send('Echo, then add');
    expect(t.toolResult(prompt, 'everything.echo')).toBe('Echo: hello');
    expect(t.toolResult(prompt, 'everything.get-sum')).toBe('The sum of 2 and 3 is 5.');
    expect(status().tools.find((tool) => tool.name === 'echo')).toMatchObject({
      readOnly: true,
      requiresApproval: false,
    });
  });

  it('refuses invalid arguments before calling, naming each problem', async () => {
    t.model.push(callTool('everything.get-sum', { a: 'two' }), reply('Sorry.'));
    const prompt = await t.send('Add');
    const { error } = callOf(prompt, 'everything.get-sum')!.result!;
    expect(error?.code).toBe('invalid_arguments');
    expect(error?.message).toContain('a');
    expect(error?.message).toContain('must be number');
    expect(error?.message).toContain('is required');
  });

  it('makes an isError result a tool error the model reads', async () => {
    t.model.push(callTool('everything.get-resource-reference', { resourceId: 0 }), reply('Sorry.'));
    const prompt = await t.send('Resource 0');
    expect(callOf(prompt, 'everything.get-resource-reference')!.result).toMatchObject({
      type: 'error',
      error: { code: 'tool_failed', message: expect.stringContaining('Invalid resourceId: 0') },
    });
  });

  it('stores images as file outputs when the app has the files plugin, and says what it left out otherwise', async () => {
    t.model.push(callTool('everything.get-tiny-image'), reply('Here.'));
    const prompt = await t.send('An image');
    const [file] = t.outputs(prompt, 'file');
    expect(file).toMatchObject({ mediaType: 'image/png', name: 'get-tiny-image-1.png', origin: 'tool' });
    expect(t.toolResult(prompt, 'everything.get-tiny-image')).toContain(`saved as file ${file!.fileId}`);

    withoutFiles.model.push(callTool('everything.get-tiny-image'), reply('Here.'));
    const plain = await withoutFiles.send('An image');
    expect(plain.output.some((o) => o.type === 'file')).toBe(false);
    expect(withoutFiles.toolResult(plain, 'everything.get-tiny-image')).toMatch(
      /\[an image \(image\/png, [\d.]+ kB\) the server returned, left out: this app keeps no files\]/,
    );
  });

  it('gives embedded text resources inline and stores binary ones as files', async () => {
    t.model.push(
      callTool('everything.get-resource-reference', { resourceType: 'Text', resourceId: 2 }),
      callTool('everything.get-resource-reference', { resourceType: 'Blob', resourceId: 3 }),
      reply('Both.'),
    );
    const prompt = await t.send('Two resources');
    const [text, blob] = t.outputs(prompt, 'tool').map((call) => call.result);
    expect(text).toMatchObject({
      type: 'success',
      output: expect.stringContaining('Resource demo://resource/dynamic/text/2 (text/plain):\nResource 2'),
    });
    const [file] = t.outputs(prompt, 'file');
    expect(blob).toMatchObject({
      type: 'success',
      output: expect.stringContaining(`saved as file ${file!.fileId}`),
    });
  });

  it('shows progress as an output it updates, for people only', async () => {
    t.model.push(
      callTool('everything.trigger-long-running-operation', { duration: 0.4, steps: 4 }),
      reply('Done.'),
    );
    const prompt = await t.send('Run it');
    // One output, updated in place. (The SDK may drop a report that arrives with the result.)
    expect(t.outputs(prompt, mcpProgress)).toEqual([
      expect.objectContaining({
        server: 'everything',
        tool: 'everything.trigger-long-running-operation',
        progress: expect.any(Number),
        total: 4,
        done: true,
      }),
    ]);
    const types = prompt.output.map((output) => output.type);
    expect(types).toEqual(['tool', 'mcp.progress', 'text']);
    const sent = JSON.stringify(t.model.requests.at(-1)!.messages);
    expect(sent).not.toContain('mcp.progress');
  });

  it('ends a call when the prompt is cancelled; the server goes on answering', async () => {
    t.model.push(callTool('everything.trigger-long-running-operation', { duration: 30, steps: 30 }));
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Long',
    });
    for await (const event of t.platform.events.stream({ conversationId: t.conversation.id })) {
      if (event.type === 'prompt.output' && event.output.type === 'mcp.progress') break;
    }
    await t.platform.cancel(run.prompt.id, { userId: t.userId });
    const prompt = await run.done;
    expect(prompt.state).toBe('cancelled');
    expect(t.outputs(prompt, 'tool')[0]?.result).toMatchObject({
      type: 'error',
      error: { code: 'cancelled' },
    });
    // The server is still there and answers the next call.
    t.model.push(callTool('everything.echo', { message: 'after' }), reply('Ok.'));
    expect(t.toolResult(await t.send('Again'), 'everything.echo')).toBe('Echo: after');
  });

  it('lists and reads resources with mcp.list_resources and mcp.read_resource', async () => {
    t.model.push(callTool('mcp.list_resources', { server: 'everything' }), reply('Listed.'));
    const listed = t.toolResult(await t.send('What resources?'), 'mcp.list_resources') as {
      servers: {
        server: string;
        resources: { uri: string; name: string }[];
        templates?: { uriTemplate: string }[];
      }[];
    };
    const [everything] = listed.servers;
    expect(everything?.server).toBe('everything');
    expect(everything?.templates?.map((template) => template.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    );
    const features = everything!.resources.find((resource) => resource.uri.endsWith('features.md'))!;
    t.model.push(
      callTool('mcp.read_resource', { server: 'everything', uri: 'demo://resource/dynamic/text/7' }),
      callTool('mcp.read_resource', { server: 'everything', uri: features.uri }),
      reply('Read.'),
    );
    const prompt = await t.send('Read them');
    const [short, long] = t.outputs(prompt, 'tool').map((call) => call.result);
    expect(short).toMatchObject({
      output: expect.stringMatching(
        /^Resource demo:\/\/resource\/dynamic\/text\/7 \(text\/plain\):\nResource 7: This is a plaintext resource/,
      ),
    });
    // Longer than INLINE_TEXT_CHARS: a file the model can page through with files.read.
    const [file] = t.outputs(prompt, 'file');
    expect(file).toMatchObject({ name: 'features.md', mediaType: 'text/markdown' });
    expect(long).toMatchObject({
      output: expect.stringContaining(`saved as file ${file!.fileId}: "features.md"`),
    });
  });

  it('offers the prompts by name in mcp.get_prompt, which returns the filled-in messages', async () => {
    t.model.push(
      callTool('mcp.get_prompt', { server: 'everything', name: 'args-prompt', arguments: { city: 'Lyon' } }),
      reply('Ok.'),
    );
    const prompt = await t.send('Use the args prompt for Lyon');
    const getPrompt = t.model.requests.at(-1)!.tools!.find((tool) => tool.name === 'mcp.get_prompt')!;
    expect(getPrompt.description).toContain(
      '- everything/args-prompt (city, state?): A prompt with two arguments',
    );
    expect(t.toolResult(prompt, 'mcp.get_prompt')).toMatch(/^\[user\]\n.*Lyon/m);
  });

  it("puts the server's instructions in the model's context", async () => {
    t.model.push(reply('Ok.'));
    await t.send('Hi');
    expect(t.model.requests.at(-1)!.instructions).toContain(
      "The MCP server 'everything' (its tools are named everything.*) says:\n# Everything Server",
    );
  });

  it('restarts a server that was killed; a call made meanwhile waits for it', async () => {
    const { pid } = status();
    process.kill(pid!, 'SIGKILL');
    await until(() => status().state !== 'connected', 'the death is noticed');
    expect(status().error).toContain('The server process exited');
    t.model.push(callTool('everything.echo', { message: 'back' }), reply('Ok.'));
    const prompt = await t.send('Are you back?');
    expect(t.toolResult(prompt, 'everything.echo')).toBe('Echo: back');
    expect(status()).toMatchObject({ state: 'connected', failures: 1 });
    expect(status().pid).not.toBe(pid);
  });
});
