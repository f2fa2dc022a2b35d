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
  throw notACursor(cursor);
}

const notACursor = (cursor: string) =>
  new TesseraError('invalid_input', `'${cursor.slice(0, 200)}' is not a cursor this store returned.`);

/** A cursor holding a prompt's `seq` (a bigint, as text), checked before it reaches a query; '0' for none. */
export function decodeSeqCursor(cursor: string | undefined): string {
  const [seq = '0'] = decodeCursor(cursor, 1) ?? [];
  if (!/^\d{1,18}$/.test(seq)) throw notACursor(cursor!);
  return seq;
}

/** A page's `limit`, checked (a positive integer; a negative one would be a database error). */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TesseraError('invalid_input', `A page's limit is a positive integer, not ${limit}.`);
  }
  return limit;
}

export const DEFAULT_PAGE_SIZE = 50;
