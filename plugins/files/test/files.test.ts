import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createServiceContainer,
  createTool,
  MemoryStore,
  type ModelMessage,
  promptsToMessages,
  StoreToken,
} from '@tessera/core';
import { callTool, callTools, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FileOutput, FileServiceToken, FileStoreToken, LocalFileStore } from '../src/index.ts';
import { errorMessageOf, filesPlatform, resultOf, tempDirectory } from './helpers.ts';

const csv = `date,amount\n${Array.from({ length: 2000 }, (_, i) => `2026-01-${(i % 28) + 1},${i * 3}`).join('\n')}\n`;
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const reportTool = createTool({
  id: 'report.make',
  description: 'Makes a report.',
  input: z.object({}),
  invoke: async ({ addFileOutput }) => {
    const table = await addFileOutput({ name: 'sales.csv', content: csv });
    const chart = await addFileOutput({ name: 'chart.png', content: png, summary: 'Sales per day, rising.' });
    return { rows: 2000, files: [table.fileId, chart.fileId] };
  },
});

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const files = (outputs: { type: string }[]) => outputs.filter((o): o is FileOutput => o.type === 'file');
const assistantTexts = (messages: readonly ModelMessage[]) =>
  messages.flatMap((m) => (m.type === 'message' && m.role === 'assistant' ? [m.content] : []));

describe('addFileOutput', () => {
  it('stores the bytes and records references right after the tool output, in order', async () => {
    const store = new MemoryStore();
    const t = await filesPlatform([reportTool], {
      store,
      script: [callTool('report.make'), reply('Here it is.')],
    });
    const prompt = await t.send('Make the report');

    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'file', 'file', 'text']);
    const [table, chart] = files(prompt.output);
    expect(table).toMatchObject({
      name: 'sales.csv',
      mediaType: 'text/csv',
      size: Buffer.byteLength(csv),
      sha256: sha256(csv),
      storage: { store: 'local' },
      origin: 'tool',
      toolCallId: prompt.output[0]!.id,
      summary: `Text, 2001 lines: ${csv.replace(/\s+/g, ' ').slice(0, 200)}…`,
    });
    expect(chart).toMatchObject({
      name: 'chart.png',
      mediaType: 'image/png',
      size: 16,
      summary: 'Sales per day, rising.',
    });
    expect(resultOf(prompt.output[0])).toEqual({
      type: 'success',
      output: { rows: 2000, files: [table!.fileId, chart!.fileId] },
    });

    // The record survives in the store, and the stored bytes match the recorded hash.
    expect((await store.prompts.get(prompt.id))?.output).toEqual(prompt.output);
    for (const file of [table!, chart!]) {
      const bytes = await readFile(join(t.directory, file.storage.key));
      expect(sha256(bytes)).toBe(file.sha256);
    }
    expect(await t.storedBlobs()).toHaveLength(2);
  });

  it('shows the model a summary of each file, never its bytes', async () => {
    const t = await filesPlatform([reportTool], {
      script: [callTool('report.make'), reply('Done.'), reply('Sure.')],
    });
    await t.send('Make the report');
    await t.send('Thanks');

    const [table, chart] = files(
      (await t.platform.conversations.prompts(t.conversation.id, t.userId))[0]!.output,
    );
    const expected = [
      `[file ${table!.fileId}: "sales.csv", text/csv, ${(Buffer.byteLength(csv) / 1024).toFixed(1)} KB, from a tool] ${table!.summary}`,
      `[file ${chart!.fileId}: "chart.png", image/png, 16 B, from a tool] Sales per day, rising.`,
    ];
    // Right after the tool's result, in the current prompt and as history of the next one.
    for (const request of [t.model.requests[1]!, t.model.requests[2]!]) {
      expect(request.messages.map((m) => m.type).slice(0, 5)).toEqual([
        'message',
        'function_call',
        'function_call_output',
        'message',
        'message',
      ]);
      expect(assistantTexts(request.messages).slice(0, 2)).toEqual(expected);
      expect(JSON.stringify(request.messages)).not.toContain(',5997');
      expect(JSON.stringify(request.messages).length).toBeLessThan(2000);
    }
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(assistantTexts(promptsToMessages(prompts, { outputs: t.platform.outputs }))).toEqual([
      ...expected,
      'Done.',
      'Sure.',
    ]);
  });

  it('takes streams and a given media type, and derives no summary for binary content', async () => {
    const tool = createTool({
      id: 'export.run',
      description: 'Exports.',
      input: z.object({}),
      invoke: async ({ addFileOutput }) => {
        async function* lines() {
          for (let i = 0; i < 3; i++) yield `line ${i}\n`;
        }
        await addFileOutput({ name: 'log', mediaType: 'text/plain; charset=utf-8', content: lines() });
        await addFileOutput({
          name: 'dump.bin',
          content: new ReadableStream({
            start: (c) => {
              c.enqueue(png);
              c.close();
            },
          }),
        });
        return 'ok';
      },
    });
    const t = await filesPlatform([tool], { script: [callTool('export.run'), reply('ok')] });
    const [log, dump] = files((await t.send('go')).output);
    expect(log).toMatchObject({
      mediaType: 'text/plain',
      size: 21,
      summary: 'Text, 3 lines: line 0 line 1 line 2',
    });
    expect(dump).toMatchObject({ mediaType: 'application/octet-stream', size: 16 });
    expect(dump).not.toHaveProperty('summary');
  });

  it('never uses the name as a path: only its last segment is kept, for display', async () => {
    const tool = createTool({
      id: 'evil.save',
      description: 'Saves with a hostile name.',
      input: z.object({ name: z.string() }),
      invoke: async ({ input, addFileOutput }) =>
        (await addFileOutput({ name: input.name, content: 'x' })).name,
    });
    const t = await filesPlatform([tool], {
      script: [
        callTools(
          { name: 'evil.save', args: { name: '../../../etc/passwd' } },
          { name: 'evil.save', args: { name: '..\\..\\boot.ini' } },
          { name: 'evil.save', args: { name: '../..' } },
        ),
        reply('ok'),
      ],
    });
    const prompt = await t.send('go');
    expect(files(prompt.output).map((f) => f.name)).toEqual(['passwd', 'boot.ini']);
    expect(files(prompt.output).every((f) => /^blob_/.test(f.storage.key))).toBe(true);
    expect(errorMessageOf(prompt.output.at(-2))).toContain("'../..' is not a usable file name");
  });

  it('refuses an oversized file with a clear error and leaves nothing behind', async () => {
    const tool = createTool({
      id: 'big.export',
      description: 'Exports too much.',
      input: z.object({}),
      invoke: async ({ addFileOutput }) => {
        await addFileOutput({ name: 'small.txt', content: 'fits' });
        await addFileOutput({ name: 'big.bin', content: new Uint8Array(2048) });
        return 'unreachable';
      },
    });
    const store = new MemoryStore();
    const t = await filesPlatform([tool], {
      store,
      files: { maxFileBytes: 1024 },
      script: [callTool('big.export'), reply('Too big.')],
    });
    const prompt = await t.send('go');

    expect(prompt.state).toBe('completed');
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'file', 'text']);
    expect(resultOf(prompt.output[0])?.type).toBe('error');
    expect(errorMessageOf(prompt.output[0])).toBe(
      'File "big.bin" is larger than the limit of 1 KB; nothing was stored.',
    );
    expect(await t.storedBlobs()).toEqual([files(prompt.output)[0]!.storage.key]);
    expect((await store.records.list('files')).items).toHaveLength(1);
    expect((await store.prompts.get(prompt.id))?.output).toEqual(prompt.output);
  });

  it('uses a store the app registered, so another kind of store needs no change to the plugin', async () => {
    const custom = new LocalFileStore({ directory: await tempDirectory() });
    const parent = createServiceContainer();
    parent.register(FileStoreToken, { useValue: custom });
    const t = await filesPlatform([reportTool], {
      services: parent,
      script: [callTool('report.make'), reply('ok')],
    });
    const [table] = files((await t.send('go')).output);
    expect(t.platform.services.resolve(FileStoreToken)).toBe(custom);
    expect(Buffer.from(await custom.read(table!.storage.key)).toString()).toBe(csv);
    expect(await t.storedBlobs()).toEqual([]);
    expect(t.platform.services.resolve(StoreToken)).toBe(t.platform.store);
    expect(t.platform.services.resolve(FileServiceToken).store).toBe(custom);
  });

  it('deletes a conversation’s files, bytes and records, with the conversation, and no one else’s', async () => {
    const store = new MemoryStore();
    const t = await filesPlatform([reportTool], {
      store,
      script: [callTool('report.make'), reply('ok'), callTool('report.make'), reply('ok')],
    });
    await t.send('Make the report');
    const other = await t.platform.conversations.create({ userId: t.userId });
    await t.platform.send({ conversationId: other.id, userId: t.userId, input: 'Another report' });
    expect(await t.storedBlobs()).toHaveLength(4);

    await t.platform.conversations.delete(t.conversation.id, t.userId);
    const kept = (await store.records.list<{ conversationId: string; storage: { key: string } }>('files'))
      .items;
    expect(kept.map((r) => r.value.conversationId)).toEqual([other.id, other.id]);
    expect((await t.storedBlobs()).sort()).toEqual(kept.map((r) => r.value.storage.key).sort());
  });

  it('lets a fork read the files of the prompts it shares after its source is deleted; the bytes go with the last holder', async () => {
    const store = new MemoryStore();
    const t = await filesPlatform([reportTool], {
      store,
      script: [callTool('report.make'), reply('ok'), reply('noted')],
    });
    const [table] = files((await t.send('Make the report')).output);
    const second = await t.send('Thanks');
    const fork = await t.platform.conversations.fork(t.conversation.id, t.userId, { promptId: second.id });
    const empty = await t.platform.conversations.fork(t.conversation.id, t.userId, {
      promptId: (await t.platform.conversations.prompts(t.conversation.id, t.userId))[0]!.id,
    });
    const service = t.platform.services.resolve(FileServiceToken);
    expect((await service.list({ conversationId: empty.id, userId: t.userId })).items).toEqual([]);

    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await t.storedBlobs()).toHaveLength(2); // shared, not copied, and kept for the fork
    const forkOwner = { conversationId: fork.id, userId: t.userId };
    expect(Buffer.from((await service.bytes(forkOwner, table!.fileId)).bytes).toString()).toBe(csv);
    await expect(service.get({ ...forkOwner, userId: 'user_other' }, table!.fileId)).rejects.toThrow(
      'no file',
    );

    await t.platform.conversations.delete(fork.id, t.userId);
    expect(await t.storedBlobs()).toEqual([]);
    expect((await store.records.list('files')).items).toEqual([]);
    expect((await store.records.list('files.holders')).items).toEqual([]);
  });
});
