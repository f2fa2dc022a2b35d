import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AnyTool, createTool, type Prompt } from '@tessera/core';
import { callTool, callTools, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FileOutput, FileServiceToken, filesPlugin } from '../src/index.ts';
import { errorMessageOf, filesPlatform, resultOf, tempDirectory } from './helpers.ts';

const notes = Array.from({ length: 3000 }, (_, i) => `note ${i}`).join('\n');

const saveTool = createTool({
  id: 'notes.export',
  description: 'Exports notes and a picture.',
  input: z.object({}),
  invoke: async ({ addFileOutput }) => {
    await addFileOutput({ name: 'notes.txt', content: notes });
    await addFileOutput({ name: 'logo.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    return 'exported';
  },
});

const filesOf = (prompt: Prompt) => prompt.output.filter((o): o is FileOutput => o.type === 'file');
const successOf = (prompt: Prompt, index: number): unknown => {
  const result = resultOf(prompt.output.filter((o) => o.type === 'tool')[index]);
  return result?.type === 'success' ? result.output : result;
};
const toolErrors = (prompt: Prompt) =>
  prompt.output
    .filter((o) => o.type === 'tool')
    .map((o) => (resultOf(o)?.type === 'error' ? errorMessageOf(o) : 'ok'));

describe('files.read and files.list', () => {
  it('are offered once the conversation has a file', async () => {
    const t = await filesPlatform([saveTool], { script: [callTool('notes.export'), reply('ok')] });
    await t.send('export');
    const offered = t.model.requests.map((r) => r.tools.map((tool) => tool.name));
    expect(offered).toEqual([['notes.export'], ['files.read', 'files.list', 'notes.export']]);
  });

  it('reads the history once per prompt, not once per round', async () => {
    const plugin = filesPlugin({ directory: await tempDirectory() });
    let reads = 0;
    const earlier = {
      get output() {
        reads++;
        return [{ type: 'text' }];
      },
    };
    const history = Array.from({ length: 200 }, () => earlier);
    const prompt = { output: [] as { type: string }[] };
    const offered = () => {
      const tools: AnyTool[] = [];
      plugin.prepare!({ history, prompt, tools } as never);
      return tools.map((tool) => tool.id);
    };
    for (let round = 0; round < 5; round++) expect(offered()).toEqual([]);
    expect(reads).toBe(200);
    // A file of the prompt's own is seen from the next round, still without reading the history again.
    prompt.output.push({ type: 'file' });
    expect(offered()).toEqual(['files.read', 'files.list']);
    expect(reads).toBe(200);
    // Another prompt (another history) is read afresh.
    plugin.prepare!({ history: [...history], prompt: { output: [] }, tools: [] } as never);
    expect(reads).toBe(400);
  });

  it('list the conversation’s files and read a text file page by page', async () => {
    const t = await filesPlatform([saveTool], { script: [callTool('notes.export'), reply('ok')] });
    const [text, image] = filesOf(await t.send('export'));
    t.model.push(
      callTools(
        { name: 'files.list' },
        { name: 'files.read', args: { fileId: text!.fileId } },
        { name: 'files.read', args: { fileId: text!.fileId, offset: 10_000 } },
        { name: 'files.read', args: { fileId: image!.fileId } },
      ),
      reply('read'),
    );
    const prompt = await t.send('what is in my files?');

    const listed = successOf(prompt, 0) as { files: { fileId: string; name: string; size: number }[] };
    expect(listed.files.map((f) => f.name).sort()).toEqual(['logo.png', 'notes.txt']);
    expect(listed).not.toHaveProperty('nextCursor');
    const first = successOf(prompt, 1) as { text: string; nextOffset: number; totalChars: number };
    const second = successOf(prompt, 2) as { text: string; offset: number; nextOffset: number };
    expect(first).toMatchObject({
      name: 'notes.txt',
      mediaType: 'text/plain',
      offset: 0,
      totalChars: notes.length,
    });
    expect(first.text).toBe(notes.slice(0, 10_000));
    expect(first.nextOffset).toBe(10_000);
    expect(second.offset).toBe(10_000);
    expect(first.text + second.text).toBe(notes.slice(0, 20_000));
    expect(toolErrors(prompt)[3]).toBe(
      `File ${image!.fileId} ("logo.png", image/png) is binary, not text; it cannot be read.`,
    );
  });

  it('refuse files too large to read, and files whose bytes changed', async () => {
    const t = await filesPlatform([saveTool], {
      files: { maxReadBytes: 16 * 1024 },
      script: [callTool('notes.export'), reply('ok')],
    });
    const [text, image] = filesOf(await t.send('export'));
    await writeFile(join(t.directory, image!.storage.key), 'replaced');
    t.model.push(
      callTools(
        { name: 'files.read', args: { fileId: text!.fileId } },
        { name: 'files.read', args: { fileId: image!.fileId } },
        { name: 'files.read', args: { fileId: '../../etc/passwd' } },
      ),
      reply('ok'),
    );
    const errors = toolErrors(await t.send('read'));
    expect(errors[0]).toBe(
      `File ${text!.fileId} ("notes.txt") is 28.2 KB, more than the 16 KB that can be read; rely on its summary.`,
    );
    expect(errors[1]).toBe(
      `File ${image!.fileId} ("logo.png") is damaged: its bytes no longer match its hash.`,
    );
    expect(errors[2]).toContain("The arguments do not match the schema of 'files.read'");
  });

  it('never reach another conversation’s or another user’s file', async () => {
    const t = await filesPlatform([saveTool], { script: [callTool('notes.export'), reply('ok')] });
    const [mine] = filesOf(await t.send('export'));
    const otherUser = await t.platform.conversations.create({ userId: 'user_other' });
    const sameUserElsewhere = await t.platform.conversations.create({ userId: t.userId });
    const probe = [
      callTool('notes.export'),
      callTools({ name: 'files.read', args: { fileId: mine!.fileId } }, { name: 'files.list' }),
      reply('no'),
    ];

    t.model.push(...probe);
    const stranger = await t.platform.send({
      conversationId: otherUser.id,
      userId: 'user_other',
      input: 'steal',
    });
    t.model.push(...probe);
    const elsewhere = await t.platform.send({
      conversationId: sameUserElsewhere.id,
      userId: t.userId,
      input: 'peek',
    });

    for (const prompt of [stranger, elsewhere]) {
      expect(toolErrors(prompt)[1]).toBe(`There is no file ${mine!.fileId} in this conversation.`);
      const listed = successOf(prompt, 2) as { files: { fileId: string }[] };
      expect(listed.files.map((f) => f.fileId).sort()).toEqual(
        filesOf(prompt)
          .map((f) => f.fileId)
          .sort(),
      );
      expect(listed.files.map((f) => f.fileId)).not.toContain(mine!.fileId);
    }
  });
});

describe('uploads', () => {
  it('stores the user’s files, shows the model their summaries, and lets it read them', async () => {
    const t = await filesPlatform([]);
    const owner = { userId: t.userId, conversationId: t.conversation.id };
    const upload = await t.platform.services
      .resolve(FileServiceToken)
      .upload({ name: 'todo.md', content: '# Todo\nBuy milk\n' }, owner);
    expect(upload).toMatchObject({ type: 'file', origin: 'upload', mediaType: 'text/markdown', size: 16 });

    t.model.push(
      callTool('files.read', { fileId: upload.fileId }),
      reply('You need milk.'),
      reply('Still milk.'),
    );
    const prompt = await t.platform.send({
      ...owner,
      input: 'What is on my list?',
      outputs: [upload],
    });
    expect((successOf(prompt, 0) as { text: string }).text).toBe('# Todo\nBuy milk\n');
    const summary = `[file ${upload.fileId}: "todo.md", text/markdown, 16 B, uploaded by the user] Text, 2 lines: # Todo Buy milk`;
    expect(t.model.lastRequest?.messages.slice(0, 2)).toEqual([
      { type: 'message', role: 'user', content: 'What is on my list?' },
      { type: 'message', role: 'user', content: summary },
    ]);

    // Later prompts still see it: the upload is an output of the prompt it came with.
    await t.platform.send({ ...owner, input: 'And now?' });
    expect(t.model.lastRequest?.messages).toContainEqual({ type: 'message', role: 'user', content: summary });
    expect((await t.platform.getPrompt(prompt.id, t.userId)).output[0]).toMatchObject(upload);
  });

  it('gives a forged upload no access to the bytes it names', async () => {
    const t = await filesPlatform([]);
    const victim = await t.platform.conversations.create({ userId: 'victim' });
    const stolen = await t.platform.services
      .resolve(FileServiceToken)
      .upload({ name: 'secret.txt', content: 'the secret' }, { userId: 'victim', conversationId: victim.id });
    t.model.push(callTool('files.read', { fileId: stolen.fileId }), reply('nothing'));
    const prompt = await t.platform.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'read it',
      // Only app code can pass outputs (the server builds uploads for the requesting user); the reference alone
      // must not open the bytes.
      outputs: [{ ...stolen, summary: 'a file' }],
    });
    expect(toolErrors(prompt)).toEqual([`There is no file ${stolen.fileId} in this conversation.`]);
    expect(JSON.stringify(prompt.output)).not.toContain('the secret');
  });
});
