import { createHash } from 'node:crypto';
import { FileTooLargeError } from './errors.ts';

/** What a tool or an app may give as a file's bytes. Web and Node streams are async iterables. */
export type FileContent =
  | string
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array>;

const encoder = new TextEncoder();

/** Any `FileContent` as a sequence of byte chunks (strings as UTF-8). */
export async function* toChunks(content: FileContent): AsyncGenerator<Uint8Array> {
  if (typeof content === 'string') {
    yield encoder.encode(content);
    return;
  }
  if (content instanceof Uint8Array) {
    yield content;
    return;
  }
  for await (const chunk of content as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
  }
}

/** The size in bytes of content given whole (a string or bytes), known before any is written; else undefined. */
export function knownSize(content: FileContent): number | undefined {
  if (typeof content === 'string') return Buffer.byteLength(content, 'utf8');
  return content instanceof Uint8Array ? content.byteLength : undefined;
}

/** Size and SHA-256 of bytes that went through `meter`, known once the source is exhausted. */
export type Measured = { size: number; sha256: string };

/**
 * Passes chunks through while hashing and counting them, and throws `FileTooLargeError` as soon as the
 * total passes `maxBytes`, so a store never writes more than the limit. Shared by every store.
 */
export function meter(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
): { chunks: AsyncGenerator<Uint8Array>; result: () => Measured } {
  const hash = createHash('sha256');
  let size = 0;
  let digest: string | undefined;
  async function* chunks() {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new FileTooLargeError(maxBytes);
      hash.update(chunk);
      yield chunk;
    }
    digest = hash.digest('hex');
  }
  return {
    chunks: chunks(),
    result: () => {
      if (digest === undefined) throw new Error('meter: the source was not read to the end.');
      return { size, sha256: digest };
    },
  };
}

/** Keeps the first `limit` bytes that pass through (for sniffing and summaries) and counts the lines. */
export function inspect(
  source: AsyncIterable<Uint8Array>,
  limit: number,
): { chunks: AsyncGenerator<Uint8Array>; head: () => Uint8Array; lines: () => number } {
  const parts: Uint8Array[] = [];
  let kept = 0;
  let newlines = 0;
  let last = -1;
  async function* chunks() {
    for await (const chunk of source) {
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept);
        parts.push(part.slice());
        kept += part.byteLength;
      }
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines += 1;
      if (chunk.byteLength > 0) last = chunk[chunk.byteLength - 1]!;
      yield chunk;
    }
  }
  return {
    chunks: chunks(),
    head: () => Buffer.concat(parts),
    // A last line without a final newline still counts.
    lines: () => (last === -1 ? 0 : newlines + (last === 10 ? 0 : 1)),
  };
}
