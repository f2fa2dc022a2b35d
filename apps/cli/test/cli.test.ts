import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TesseraClient } from '../src/client.ts';
import { decide, pending, send } from '../src/commands.ts';

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let dataDir: string;
const output: string[] = [];
const io = { out: (text: string) => void output.push(text), interactive: false };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-cli-'));
  const model = new ScriptedModel([
    reply(['Hello ', 'from ', 'Tessera.']),
    callTool('demo.delete_records', { names: ['alpha'] }),
    reply('Deleted alpha.'),
  ]);
  // The demo tools join a scripted model only when asked for: this test approves one.
  server = await createServer({
    dataDir,
    auth: { tokens: { 'cli-token-0123456789': 'ada' } },
    model,
    plugins: [demoPlugin],
  });
  ({ url } = await server.listen({ port: 0 }));
});
afterAll(async () => {
  await server.close({ graceMs: 50 });
  await rm(dataDir, { recursive: true, force: true });
});

it('sends, streams, lists pending approvals and approves', async () => {
  const client = new TesseraClient(url, 'cli-token-0123456789');
  expect(await send(client, io, 'hi')).toBe(0);
  expect(output.join('')).toContain('Hello from Tessera.');

  output.length = 0;
  await send(client, io, 'delete records alpha');
  expect(output.join('')).toContain('demo.delete_records needs your approval');
  output.length = 0;
  await pending(client, io);
  const toolCallId = /^(call_\S+)/m.exec(output.join(''))?.[1];
  expect(toolCallId).toBeDefined();
  output.length = 0;
  await decide(client, io, toolCallId!, true);
  expect(output.join('')).toContain('Approved');
  await expect(decide(client, io, toolCallId!, true)).rejects.toMatchObject({ status: 409 });
  await expect(
    new TesseraClient(url, 'wrong-token-000000000').request('GET', '/api/approvals'),
  ).rejects.toMatchObject({
    status: 401,
  });
});
