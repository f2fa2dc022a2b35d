import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { NotFoundError } from '@tessera/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileNotFoundError, FileTooLargeError, LocalFileStore, toChunks } from '../src/index.ts';

let root: string;
let store: LocalFileStore;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tessera-files-test-'));
  store = new LocalFileStore({ directory: join(root, 'store') });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const put = (content: Parameters<typeof toChunks>[0], maxBytes = 1024) =>
  store.put(toChunks(content), { maxBytes });
/** The stored files (not counting the temporary directory) and the leftovers in it. */
const listing = async () => ({
  files: (await readdir(join(root, 'store'))).filter((name) => name !== '.partial'),
  partial: await readdir(join(root, 'store', '.partial')),
});

describe('LocalFileStore', () => {
  it('stores bytes under a key it issues, with their size and hash', async () => {
    const blob = await put('hello, world');
    expect(blob).toMatchObject({ store: 'local', size: 12, sha256: sha256('hello, world') });
    expect(blob.key).toMatch(/^blob_[A-Za-z0-9_-]{16}$/);
    expect(Buffer.from(await store.read(blob.key)).toString()).toBe('hello, world');
    expect(await readFile(join(root, 'store', blob.key), 'utf8')).toBe('hello, world');
    expect(await listing()).toEqual({ files: [blob.key], partial: [] });
  });

  it('accepts bytes, web streams, Node streams and async iterables of strings', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('web '));
        controller.enqueue(new TextEncoder().encode('stream'));
        controller.close();
      },
    });
    async function* parts() {
      yield 'α';
      yield new TextEncoder().encode('β');
    }
    const blobs = await Promise.all([
      put(bytes),
      put(web),
      put(Readable.from(['node ', 'stream'])),
      put(parts()),
    ]);
    const texts = await Promise.all(blobs.map(async (b) => Buffer.from(await store.read(b.key))));
    expect(new Uint8Array(texts[0]!)).toEqual(bytes);
    expect(texts.slice(1).map(String)).toEqual(['web stream', 'node stream', 'αβ']);
    expect(blobs[3]).toMatchObject({ size: 4, sha256: sha256('αβ') });
  });

  it('streams a stored file back', async () => {
    const blob = await put('x'.repeat(1000), 2000);
    const chunks: Uint8Array[] = [];
    for await (const chunk of store.stream(blob.key)) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('x'.repeat(1000));
  });

  it('refuses more than the limit, mid-stream, and leaves no file behind', async () => {
    async function* endless() {
      for (;;) yield new Uint8Array(100);
    }
    await expect(put(endless(), 1000)).rejects.toThrow(FileTooLargeError);
    await expect(put(new Uint8Array(1001), 1000)).rejects.toThrow(
      'The file is larger than the limit of 1000 B; nothing was stored.',
    );
    expect(await put(new Uint8Array(1000), 1000)).toMatchObject({ size: 1000 });
    expect((await listing()).files).toHaveLength(1);
    expect((await listing()).partial).toEqual([]);
  });

  it('writes all or nothing when the source fails halfway', async () => {
    async function* failing() {
      yield new TextEncoder().encode('half a file');
      throw new Error('connection reset');
    }
    await expect(put(failing())).rejects.toThrow('connection reset');
    expect(await listing()).toEqual({ files: [], partial: [] });
  });

  it('deletes once', async () => {
    const blob = await put('bye');
    expect(await store.delete(blob.key)).toBe(true);
    expect(await store.delete(blob.key)).toBe(false);
    await expect(store.read(blob.key)).rejects.toThrow(FileNotFoundError);
  });

  it('throws errors that is() recognises by their own class and by their parents', async () => {
    const error = await store.read('missing').catch((caught: unknown) => caught);
    expect(FileNotFoundError.is(error)).toBe(true);
    expect(NotFoundError.is(error)).toBe(true);
    expect(FileTooLargeError.is(error)).toBe(false);
    expect(FileNotFoundError.is(new NotFoundError('gone'))).toBe(false);
  });

  describe('is traversal-proof', () => {
    const hostile = [
      '../secret.txt',
      '../../etc/passwd',
      '/etc/passwd',
      'blob_../../secret.tx',
      'blob_abcdefghijklmno/',
      'blob_abcdefghijklmnop/../../secret.txt',
      '.partial',
      '..',
      '',
      'secret.txt',
      'blob_abcdefghijklmnop\0',
      'blob_abcdefghijklmn\\..',
    ];

    it('refuses every key it did not issue, for read, stream and delete, touching nothing outside', async () => {
      await put('inside');
      const secret = join(root, 'secret.txt');
      await writeFile(secret, 'top secret');
      await writeFile(join(root, 'store', 'secret.txt'), 'planted');
      for (const key of hostile) {
        await expect(store.read(key), key).rejects.toThrow(FileNotFoundError);
        await expect(store.delete(key), key).rejects.toThrow(FileNotFoundError);
        await expect(
          (async () => {
            for await (const _ of store.stream(key));
          })(),
          key,
        ).rejects.toThrow(FileNotFoundError);
      }
      expect(await readFile(secret, 'utf8')).toBe('top secret');
      expect(await readFile(join(root, 'store', 'secret.txt'), 'utf8')).toBe('planted');
    });

    it('reports an unknown, well-formed key as not found', async () => {
      await expect(store.read('blob_AAAAAAAAAAAAAAAA')).rejects.toThrow(
        'There is no stored file blob_AAAAAAAAAAAAAAAA.',
      );
    });
  });
});
