import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesPlugin } from '@tessera/plugin-files';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
let directory: string | undefined;
afterEach(async () => {
  await t?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
  t = directory = undefined;
});

describe('the storage quota of the files plugin', () => {
  it('answers 413 storage_quota_exceeded to a send whose files pass it, storing none of them and no prompt', async () => {
    directory = await mkdtemp(join(tmpdir(), 'tessera-quota-'));
    t = await testServer([reply('Got it.'), reply('Got it.'), reply('Got it.')], {
      plugins: [filesPlugin({ directory, maxBytesPerUser: 100 })],
    });
    const storedFiles = async () => (await readdir(directory!)).filter((name) => name !== '.partial').sort();
    const send = async (sizes: number[], token?: string) => {
      const { body: conversation } = await t!.request('POST', '/api/conversations', { body: {}, token });
      const form = new FormData();
      form.set('input', 'see attached');
      for (const [i, size] of sizes.entries()) {
        form.append('files', new File(['x'.repeat(size)], `file-${i}.txt`));
      }
      const path = `/api/conversations/${conversation.id}/prompts`;
      const sent = await t!.request('POST', path, { form, token });
      const prompts = (await t!.request('GET', `/api/conversations/${conversation.id}`, { token })).body
        .prompts;
      return { ...sent, prompts };
    };

    expect((await send([60])).status).toBe(202);
    const before = await storedFiles();
    expect(before).toHaveLength(1);

    // 30 bytes would fit (90 of 100), not 20 more: the send is refused, none of its files stored.
    const refused = await send([30, 20]);
    expect([refused.status, refused.body.error.code, refused.prompts]).toEqual([
      413,
      'storage_quota_exceeded',
      [],
    ]);
    expect(refused.body.error.message).toBe(
      'No room for 2 files (50 B) in the storage quota: this user stores 60 B of 100 B, and nothing was stored. Delete files or conversations to free space.',
    );
    expect(await storedFiles()).toEqual(before);

    expect((await send([41])).body.error.message).toContain('No room for file "file-0.txt" (41 B)');
    // What is left fits, and another user's files are counted on their own.
    expect((await send([40])).status).toBe(202);
    expect((await send([100], BOB)).status).toBe(202);
    expect(await storedFiles()).toHaveLength(3);
  });
});
