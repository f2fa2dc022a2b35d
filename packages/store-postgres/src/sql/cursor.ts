import { TesseraError } from '@tessera/core';

/** Page cursors are opaque to callers: the sort key of the last item, as base64url JSON. */
export const encodeCursor = (key: readonly string[]): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string | undefined, length: number): string[] | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(key) && key.length === length && key.every((k) => typeof k === 'string')) return key;
  } catch {
    // reported below
  }
  throw new TesseraError('invalid_input', `'${cursor}' is not a cursor this store returned.`);
}

export const DEFAULT_PAGE_SIZE = 50;
