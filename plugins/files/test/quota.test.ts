import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTool, DefinitionError, MemoryStore, TesseraError } from '@tessera/core';
import { callTool, reply, type ScriptedTurn } from '@tessera/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import filesPluginFactory, {
  FileServiceToken,
  filesPlugin,
  StorageQuotaExceededError,
} from '../src/index.ts';
import { errorMessageOf, filesPlatform } from './helpers.ts';

const QUOTA = 1000;
const bytes = (size: number) => new Uint8Array(size).fill(120);
const quotaMessage = (file: string, used: string) =>
  `No room for ${file} in the storage quota: this user stores ${used} of 1000 B, and nothing was stored. Delete files or conversations to free space.`;

/** A platform whose users may store 1000 bytes, and helpers to upload for any user. */
async function quotaPlatform(script: ScriptedTurn[] = []) {
  const store = new MemoryStore();
  const exportTool = createTool({
    id: 'data.export',
    description: 'Exports two files of 600 bytes.',
    input: z.object({}),
    invoke: async ({ addFileOutput }) => {
      await addFileOutput({ name: 'first.bin', content: bytes(600) });
      await addFileOutput({ name: 'second.bin', content: bytes(600) });
      return 'unreachable';
    },
  });
  const t = await filesPlatform([exportTool], { store, script, files: { maxBytesPerUser: QUOTA } });
  const service = t.platform.services.resolve(FileServiceToken);
  const conversationOf = async (userId: string) => (await t.platform.conversations.create({ userId })).id;
  const upload = (userId: string, conversationId: string, size: number, name = 'upload.bin') =>
    service.upload({ name, content: bytes(size) }, { userId, conversationId });
  const fileRecords = async () => (await store.records.list('files')).items;
  return { ...t, store, service, conversationOf, upload, fileRecords };
}

describe('the storage quota per user (maxBytesPerUser)', () => {
  it('refuses the file a tool adds that would pass it, before writing it, and stores nothing for it', async () => {
    const t = await quotaPlatform([callTool('data.export'), reply('It did not fit.')]);
    const prompt = await t.send('export');

    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'file', 'text']);
    expect(errorMessageOf(prompt.output[0])).toBe(quotaMessage('file "second.bin" (600 B)', '600 B'));
    expect(await t.storedBlobs()).toHaveLength(1);
    expect(await readdir(join(t.directory, '.partial'))).toEqual([]);
    expect(await t.fileRecords()).toHaveLength(1);
  });

  it('refuses an upload past it with storage_quota_exceeded; one that just fits is stored', async () => {
    const t = await quotaPlatform();
    const owner = { userId: t.userId, conversationId: t.conversation.id };
    await t.upload(owner.userId, owner.conversationId, 999);
    const put = vi.spyOn(t.service.store, 'put');
    const refused = await t.upload(owner.userId, owner.conversationId, 2, 'two.bin').catch((e: unknown) => e);
    expect(StorageQuotaExceededError.is(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'storage_quota_exceeded', usedBytes: 999, quotaBytes: QUOTA });
    expect(TesseraError.is(refused)).toBe(true);
    expect(put).not.toHaveBeenCalled(); // refused before a byte was written
    // Several files checked together before any is stored (as the server does with a send's uploads).
    await expect(t.service.checkRoom(owner.userId, 2)).rejects.toThrow(quotaMessage('files of 2 B', '999 B'));
    await t.service.checkRoom(owner.userId, 1);
    await t.upload(owner.userId, owner.conversationId, 1);
    expect(await t.storedBlobs()).toHaveLength(2);
    expect(await t.fileRecords()).toHaveLength(2);
  });

  it('stops a stream of unknown size as soon as it passes the quota, leaving no partial file', async () => {
    const t = await quotaPlatform();
    const owner = { userId: t.userId, conversationId: t.conversation.id };
    await t.upload(owner.userId, owner.conversationId, 500);
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 100;
        yield bytes(100);
      }
    }
    const error = await t.service.upload({ name: 'stream.bin', content: endless() }, owner).catch((e) => e);
    expect((error as Error).message).toBe(quotaMessage('file "stream.bin"', '500 B'));
    expect(pulled).toBeLessThanOrEqual(600); // stopped at the quota, not read on
    expect(await t.storedBlobs()).toHaveLength(1);
    expect(await readdir(join(t.directory, '.partial'))).toEqual([]);
  });

  it('counts each user on their own, user ids such as __proto__ and constructor included', async () => {
    const t = await quotaPlatform();
    for (const userId of ['__proto__', 'constructor', 'toString']) {
      const conversationId = await t.conversationOf(userId);
      await t.upload(userId, conversationId, 1000);
      await expect(t.upload(userId, conversationId, 1)).rejects.toThrow('this user stores 1000 B of 1000 B');
    }
    await t.upload(t.userId, t.conversation.id, 1000); // the others' files do not count for this user
    expect(await t.storedBlobs()).toHaveLength(4);
  });

  it('frees the space of a deleted conversation and of a discarded upload', async () => {
    const t = await quotaPlatform();
    const first = await t.upload(t.userId, t.conversation.id, 800);
    await t.platform.conversations.delete(t.conversation.id, t.userId);
    const other = await t.conversationOf(t.userId);
    const discarded = await t.upload(t.userId, other, 900);
    await t.service.discard(discarded, { userId: t.userId, conversationId: other });
    await t.upload(t.userId, other, 1000);
    expect(await t.storedBlobs()).toHaveLength(1);
    expect(first.size).toBe(800);
  });

  it('counts a file shared by forks once: the bytes are freed when the last fork holding them goes', async () => {
    const t = await quotaPlatform([reply('noted'), reply('ok')]);
    const owner = { userId: t.userId, conversationId: t.conversation.id };
    const shared = await t.upload(owner.userId, owner.conversationId, 600);
    await t.platform.send({ ...owner, input: 'keep this', outputs: [shared] });
    const next = await t.platform.send({ ...owner, input: 'thanks' });
    // The fork shares the prompts before `next`, and so the file.
    const fork = await t.platform.conversations.fork(owner.conversationId, owner.userId, {
      promptId: next.id,
    });
    expect((await t.service.list({ userId: owner.userId, conversationId: fork.id })).items).toHaveLength(1);

    await t.upload(owner.userId, fork.id, 400); // 600 + 400: the fork's copy of the record costs nothing
    await expect(t.upload(owner.userId, fork.id, 1)).rejects.toThrow('stores 1000 B of 1000 B');
    await t.platform.conversations.delete(owner.conversationId, owner.userId);
    // The fork still holds the shared bytes: still counted.
    await expect(t.upload(owner.userId, fork.id, 1)).rejects.toThrow('stores 1000 B of 1000 B');
    await t.platform.conversations.delete(fork.id, owner.userId);
    await t.upload(owner.userId, await t.conversationOf(owner.userId), 1000);
  });

  it('keeps one count when stores of the same user race: the one that would pass it is refused', async () => {
    const t = await quotaPlatform();
    const results = await Promise.allSettled([1, 2, 3].map(() => t.upload(t.userId, t.conversation.id, 400)));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await t.storedBlobs()).toHaveLength(2);
    expect((await t.store.records.get('files.usage', t.userId))?.value).toEqual({ bytes: 800 });
  });

  it('takes only a positive integer, from the plugin and its factory', () => {
    for (const maxBytesPerUser of [0, -1, 1.5, Number.NaN]) {
      expect(() => filesPlugin({ maxBytesPerUser })).toThrow(
        new DefinitionError("Plugin 'files': maxBytesPerUser must be a positive integer."),
      );
    }
    const error = (() => {
      try {
        filesPluginFactory({ maxBytesPerUser: 0 });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(DefinitionError.is(error)).toBe(true);
    expect(error?.message).toContain('maxBytesPerUser: Too small: expected number to be >0');
    expect(filesPluginFactory({ maxBytesPerUser: 2048 }).id).toBe('files');
  });
});
