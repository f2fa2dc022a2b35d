import type { InjectionToken } from '@tessera/core';

/** Where a file's bytes are: the store's name and the key it issued. Never derived from user input. */
export type FileLocation = { store: string; key: string };

export type StoredBlob = FileLocation & { size: number; sha256: string };

/**
 * Where file bytes live. Keys are issued by the store itself (never taken from a file name), so an
 * S3-compatible store can implement this as PutObject/GetObject/DeleteObject under a prefix.
 */
export interface FileStore {
  /** Recorded with each file, e.g. `local` or `s3`. */
  readonly name: string;
  /**
   * Writes the bytes under a new key, all or nothing: after a failure or a crash there is no file under
   * that key. Refuses more than `maxBytes` with `FileTooLargeError` (use `meter`).
   */
  put(chunks: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<StoredBlob>;
  /** The whole file; `FileNotFoundError` for a key that is malformed or unknown. */
  read(key: string): Promise<Uint8Array>;
  /** The file as a stream, e.g. to serve a download. */
  stream(key: string): AsyncIterable<Uint8Array>;
  /** Removes the file; false if there was none. */
  delete(key: string): Promise<boolean>;
}

/** The app's file store in the service container. */
export const FileStoreToken: InjectionToken<FileStore> = Symbol.for('tessera.plugin-files.store');
