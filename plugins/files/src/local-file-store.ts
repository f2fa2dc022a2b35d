import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { newId } from '@tessera/core';
import { meter } from './content.ts';
import { FileNotFoundError } from './errors.ts';
import type { FileStore, StoredBlob } from './file-store.ts';

/** The only names this store issues or accepts: `blob_` and a random id. No dots, no separators. */
const KEY = /^blob_[A-Za-z0-9_-]{16}$/;
const PARTIAL = '.partial';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files in one local directory, named by random ids the store issues. A write goes to a temporary file in
 * `.partial/` (same file system), is flushed to disk, then renamed into place: readers see the whole file
 * or nothing. After a crash, `.partial/` may hold leftovers, never a file under a real key.
 */
export class LocalFileStore implements FileStore {
  readonly name = 'local';
  readonly directory: string;
  #ready?: Promise<unknown>;

  constructor(options: { directory: string }) {
    this.directory = resolve(options.directory);
  }

  async put(chunks: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<StoredBlob> {
    this.#ready ??= mkdir(join(this.directory, PARTIAL), { recursive: true });
    await this.#ready;
    const key = newId('blob');
    const temporary = join(this.directory, PARTIAL, `${key}.${randomBytes(4).toString('hex')}`);
    const metered = meter(chunks, options.maxBytes);
    const handle = await open(temporary, 'wx', 0o600);
    try {
      for await (const chunk of metered.chunks) await handle.write(chunk);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, this.#pathOf(key));
    return { store: this.name, key, ...metered.result() };
  }

  async read(key: string): Promise<Uint8Array> {
    try {
      return await readFile(this.#pathOf(key));
    } catch (error) {
      if (isMissing(error)) throw new FileNotFoundError(`There is no stored file ${key}.`);
      throw error;
    }
  }

  async *stream(key: string): AsyncIterable<Uint8Array> {
    try {
      yield* createReadStream(this.#pathOf(key));
    } catch (error) {
      if (isMissing(error)) throw new FileNotFoundError(`There is no stored file ${key}.`);
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.#pathOf(key));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** The path of a key this store issued; anything else is refused before the file system is touched. */
  #pathOf(key: string): string {
    const path = join(this.directory, key);
    if (typeof key !== 'string' || !KEY.test(key) || !path.startsWith(this.directory + sep)) {
      throw new FileNotFoundError(`There is no stored file ${String(key).slice(0, 80)}.`);
    }
    return path;
  }
}
