import { createHash } from 'node:crypto';
import {
  type DependencyContainer,
  type InjectionToken,
  newId,
  type Page,
  type RecordStore,
  StoreToken,
  TesseraError,
  VersionConflictError,
} from '@tessera/core';
import { type FileContent, inspect, knownSize, toChunks } from './content.ts';
import {
  FileNotFoundError,
  FileReadError,
  FileTooLargeError,
  formatBytes,
  StorageQuotaExceededError,
} from './errors.ts';
import { type FileFields, type NewFileOutput, parseFileFields } from './file-output.ts';
import { type FileStore, FileStoreToken } from './file-store.ts';
import { displayName, mediaTypeOf } from './media-type.ts';
import { StorageUsage } from './storage-usage.ts';
import { decodeText, deriveTextSummary } from './text.ts';

/** A file as a tool or an app hands it over. */
export type NewFile = {
  /** Shown to people and the model; the stored name is an id, never this. */
  name: string;
  /** Default: from the name's extension (`report.csv` → `text/csv`), else `application/octet-stream`. */
  mediaType?: string;
  content: FileContent;
  /** What the model reads about the file. Default for text files: its line count and first characters. */
  summary?: string;
};

/** Whose file it is: files are only ever found within their user's conversation. */
export type FileOwner = { userId: string; conversationId: string };

/** The plugin's ownership record of a file, the only way its storage key is found again. */
export type FileRecord = FileFields & FileOwner & { createdAt: string };

export type FileLimits = {
  /** Largest file stored, in bytes. */
  maxFileBytes: number;
  /** Largest file `files.read` loads, in bytes. */
  maxReadBytes: number;
  /** Characters `files.read` returns per call; the model pages with `offset`. */
  readChunkChars: number;
  /** Bytes one user may store in all, uploads and tools' files together; a store past it is refused. */
  maxBytesPerUser: number;
};

export type TextPage = {
  fileId: string;
  name: string;
  mediaType: string;
  totalChars: number;
  offset: number;
  text: string;
  /** Where the next page starts; absent on the last page. */
  nextOffset?: number;
};

const NAMESPACE = 'files';
/**
 * How many file records share a stored blob, by storage key, when forks share it (a blob without a count
 * has the one record that saved it). The bytes go when the last record of them does.
 */
const HOLDERS = 'files.holders';
const HEAD_BYTES = 4096;

const recordId = (owner: FileOwner, fileId: string) => `${owner.conversationId}:${fileId}`;

async function* abortable(chunks: AsyncIterable<Uint8Array>, signal?: AbortSignal) {
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    yield chunk;
  }
}

/**
 * The files of conversations: stores bytes in the `FileStore`, keeps an ownership record per file, and
 * reads text back for the model. Everything is looked up by (user, conversation, file id): a storage key
 * never comes from a tool's input, a model or a request.
 */
export class FileService {
  readonly limits: FileLimits;
  readonly #services: DependencyContainer;
  /**
   * What each user stores, counted per blob: a blob is charged when written and credited when its bytes are
   * deleted. A fork's records share their source's blobs (same user, see `share`) and are not charged again:
   * the count is the bytes on disk, so a user pays once for a file however many forks hold it.
   */
  readonly #usage: StorageUsage;

  constructor(services: DependencyContainer, limits: FileLimits) {
    this.#services = services;
    this.limits = limits;
    this.#usage = new StorageUsage(() => this.#records, limits.maxBytesPerUser);
  }

  get store(): FileStore {
    return this.#services.resolve(FileStoreToken);
  }

  get #records(): RecordStore {
    if (!this.#services.isRegistered(StoreToken, true)) {
      throw new TesseraError(
        'files_not_configured',
        "@tessera/plugin-files needs the platform's store (StoreToken) in the service container.",
      );
    }
    return this.#services.resolve(StoreToken).records;
  }

  /** Stores a file for `owner` and returns the `file` output that refers to it (not yet emitted). */
  async save(
    file: NewFile,
    owner: FileOwner,
    options: { origin: FileFields['origin']; signal?: AbortSignal },
  ): Promise<NewFileOutput> {
    const name = displayName(file.name);
    const mediaType = mediaTypeOf(name, file.mediaType);
    const { maxFileBytes, maxBytesPerUser: quota } = this.limits;
    const what = `File "${name}"`;
    const described = (size?: number) =>
      `file "${name}"${size === undefined ? '' : ` (${formatBytes(size)})`}`;
    // Content given whole is refused before a byte is written; a stream stops as soon as it passes either
    // limit (the store removes what it wrote).
    const size = knownSize(file.content);
    if (size !== undefined && size > maxFileBytes) throw new FileTooLargeError(maxFileBytes, what);
    const used = await this.#usage.used(owner.userId);
    const room = Math.max(0, quota - used);
    if (size !== undefined && size > room) throw new StorageQuotaExceededError(used, quota, described(size));
    const maxBytes = Math.min(maxFileBytes, room);
    const head = inspect(abortable(toChunks(file.content), options.signal), HEAD_BYTES);
    let blob: Awaited<ReturnType<FileStore['put']>>;
    try {
      blob = await this.store.put(head.chunks, { maxBytes });
    } catch (error) {
      if (!FileTooLargeError.is(error)) throw error;
      throw maxBytes < maxFileBytes
        ? new StorageQuotaExceededError(used, quota, described())
        : new FileTooLargeError(maxFileBytes, what);
    }
    try {
      // Counted once written, compare-and-set: another store of this user's may have taken the room meanwhile.
      await this.#usage.charge(owner.userId, blob.size, described(blob.size));
    } catch (error) {
      await this.store.delete(blob.key).catch(() => {});
      throw error;
    }
    const fields: FileFields = {
      fileId: newId('file'),
      name,
      mediaType,
      size: blob.size,
      sha256: blob.sha256,
      storage: { store: blob.store, key: blob.key },
      origin: options.origin,
    };
    const summary = file.summary?.trim() || this.#derivedSummary(head.head(), blob.size, head.lines());
    if (summary) fields.summary = summary;
    try {
      const record: FileRecord = { ...fields, ...owner, createdAt: new Date().toISOString() };
      await this.#records.put(NAMESPACE, recordId(owner, fields.fileId), record, { expectedVersion: 0 });
    } catch (error) {
      if (await this.store.delete(blob.key).catch(() => false)) {
        await this.#usage.credit(owner.userId, blob.size).catch(() => {});
      }
      throw error;
    }
    return { type: 'file', ...fields };
  }

  /** Stores a file the user uploaded; start the prompt with it: `platform.send({ ..., outputs: [file] })`. */
  upload(file: NewFile, owner: FileOwner): Promise<NewFileOutput> {
    return this.save(file, owner, { origin: 'upload' });
  }

  /**
   * Refuses (`StorageQuotaExceededError`) files of `bytes` in all that would pass the user's quota, before any
   * is stored: the server checks a send's uploads together. Reserves nothing; each `save` checks again.
   */
  async checkRoom(userId: string, bytes: number, what = `files of ${formatBytes(bytes)}`): Promise<void> {
    const used = await this.#usage.used(userId);
    const quota = this.limits.maxBytesPerUser;
    if (used + bytes > quota) throw new StorageQuotaExceededError(used, quota, what);
  }

  /** Undoes `save` when its output could not be recorded: no bytes or record without an output. */
  async discard(file: FileFields, owner: FileOwner): Promise<void> {
    await this.#records.delete(NAMESPACE, recordId(owner, file.fileId));
    if (await this.store.delete(file.storage.key)) await this.#usage.credit(owner.userId, file.size);
  }

  /**
   * Deletes every file of a conversation, bytes and records (the conversation is being deleted). Each file's
   * bytes go before its record, so a failure halfway leaves records to find and delete on a retry. The user's
   * usage drops when bytes are deleted (not when a fork still holds them), once: a retry finds them gone.
   */
  async deleteConversation(owner: FileOwner): Promise<number> {
    let deleted = 0;
    for (;;) {
      // Always the first page: what was deleted is no longer in it.
      const { items } = await this.#records.list<FileRecord>(NAMESPACE, {
        prefix: `${owner.conversationId}:`,
        limit: 100,
      });
      if (items.length === 0) return deleted;
      for (const { id, value } of items) {
        const fields = parseFileFields(value);
        const key = fields?.storage.key ?? '';
        if (fields && (await this.#release(key)) && (await this.store.delete(key))) {
          await this.#usage.credit(value.userId, fields.size);
        }
        await this.#records.delete(NAMESPACE, id);
        deleted++;
      }
    }
  }

  /**
   * Gives a fork the files of the prompts it shares with its source: a record of each in the fork (the same
   * fields, the fork's conversation), the bytes shared, not copied; each blob counts one more holder, so
   * deleting the source leaves them for the fork. Files the source does not have are skipped.
   */
  async share(source: FileOwner, fork: FileOwner, fileIds: readonly string[]): Promise<number> {
    let shared = 0;
    for (const fileId of new Set(fileIds)) {
      const stored = await this.#records.get<FileRecord>(NAMESPACE, recordId(source, fileId));
      const fields = parseFileFields(stored?.value);
      if (!stored || !fields || stored.value.userId !== source.userId) continue;
      if (await this.#records.get(NAMESPACE, recordId(fork, fileId))) continue; // a retry: done already
      await this.#hold(fields.storage.key);
      const record: FileRecord = { ...stored.value, ...fork };
      await this.#records.put(NAMESPACE, recordId(fork, fileId), record, { expectedVersion: 0 });
      shared++;
    }
    return shared;
  }

  /** Counts one more record holding the blob (compare-and-set, retried when another write won). */
  async #hold(key: string): Promise<void> {
    for (;;) {
      const current = await this.#records.get<{ count: number }>(HOLDERS, key);
      try {
        const count = (current?.value.count ?? 1) + 1;
        await this.#records.put(HOLDERS, key, { count }, { expectedVersion: current?.version ?? 0 });
        return;
      } catch (error) {
        if (!VersionConflictError.is(error)) throw error;
      }
    }
  }

  /** Counts one record fewer holding the blob; true when it was the last (the bytes may go). */
  async #release(key: string): Promise<boolean> {
    for (;;) {
      const current = await this.#records.get<{ count: number }>(HOLDERS, key);
      if (!current) return true;
      try {
        if (current.value.count <= 1) {
          await this.#records.delete(HOLDERS, key);
          return true;
        }
        await this.#records.put(
          HOLDERS,
          key,
          { count: current.value.count - 1 },
          {
            expectedVersion: current.version,
          },
        );
        return false;
      } catch (error) {
        if (!VersionConflictError.is(error)) throw error;
      }
    }
  }

  /** The file `fileId` of this user's conversation, or `FileNotFoundError` (also for anyone else's). */
  async get(owner: FileOwner, fileId: string): Promise<FileRecord> {
    const stored = await this.#records.get<FileRecord>(NAMESPACE, recordId(owner, fileId));
    const fields = parseFileFields(stored?.value);
    if (
      !stored ||
      !fields ||
      stored.value.userId !== owner.userId ||
      stored.value.conversationId !== owner.conversationId
    ) {
      throw new FileNotFoundError(`There is no file ${fileId} in this conversation.`);
    }
    return { ...stored.value, ...fields };
  }

  /** The conversation's files, in file id order, a page at a time. */
  async list(owner: FileOwner, page: { cursor?: string; limit?: number } = {}): Promise<Page<FileRecord>> {
    const records = await this.#records.list<FileRecord>(NAMESPACE, {
      prefix: `${owner.conversationId}:`,
      limit: page.limit ?? 50,
      ...(page.cursor !== undefined && { cursor: page.cursor }),
    });
    const items = records.items
      .map((record) => record.value)
      .filter((value) => value.userId === owner.userId && parseFileFields(value));
    return records.nextCursor ? { items, nextCursor: records.nextCursor } : { items };
  }

  /** The file's bytes, checked against the recorded hash. */
  async bytes(owner: FileOwner, fileId: string): Promise<{ file: FileRecord; bytes: Uint8Array }> {
    const file = await this.get(owner, fileId);
    const bytes = await this.store.read(file.storage.key);
    if (createHash('sha256').update(bytes).digest('hex') !== file.sha256) {
      throw new FileReadError(
        `File ${fileId} ("${file.name}") is damaged: its bytes no longer match its hash.`,
      );
    }
    return { file, bytes };
  }

  /** One page of a text file, for the model: bounded, and a clear error for binary or oversized files. */
  async readText(owner: FileOwner, fileId: string, offset = 0): Promise<TextPage> {
    const { maxReadBytes, readChunkChars } = this.limits;
    const found = await this.get(owner, fileId);
    if (found.size > maxReadBytes) {
      throw new FileReadError(
        `File ${fileId} ("${found.name}") is ${formatBytes(found.size)}, more than the ${formatBytes(maxReadBytes)} that can be read; rely on its summary.`,
      );
    }
    const { file, bytes } = await this.bytes(owner, fileId);
    const text = decodeText(bytes);
    if (text === undefined) {
      throw new FileReadError(
        `File ${fileId} ("${file.name}", ${file.mediaType}) is binary, not text; it cannot be read.`,
      );
    }
    const start = Math.min(offset, text.length);
    const end = Math.min(start + readChunkChars, text.length);
    return {
      fileId,
      name: file.name,
      mediaType: file.mediaType,
      totalChars: text.length,
      offset: start,
      text: text.slice(start, end),
      ...(end < text.length && { nextOffset: end }),
    };
  }

  #derivedSummary(head: Uint8Array, size: number, lines: number): string | undefined {
    const text = decodeText(head, { truncated: size > head.byteLength });
    return text === undefined ? undefined : deriveTextSummary(text, { lines });
  }
}

/** The file service in the app's container, registered by `filesPlugin`. */
export const FileServiceToken: InjectionToken<FileService> = Symbol.for('tessera.plugin-files.service');
