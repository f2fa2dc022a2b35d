const strict = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text if they are UTF-8 without NUL bytes (what binary formats almost always contain). */
export function decodeText(bytes: Uint8Array, options: { truncated?: boolean } = {}): string | undefined {
  if (bytes.includes(0)) return undefined;
  // A head cut mid-character ends in an incomplete sequence: drop up to 3 trailing bytes and retry.
  const attempts = options.truncated ? 4 : 1;
  for (let drop = 0; drop < attempts && drop < bytes.byteLength + 1; drop++) {
    try {
      return strict.decode(bytes.subarray(0, bytes.byteLength - drop));
    } catch {}
  }
  return undefined;
}

/** A one-line description of a text file: its line count and how it starts. */
export function deriveTextSummary(head: string, options: { lines: number; maxChars?: number }): string {
  const maxChars = options.maxChars ?? 200;
  const start = head.replace(/\s+/g, ' ').trim();
  if (start === '') return 'Empty text.';
  const shown = start.length > maxChars ? `${start.slice(0, maxChars)}…` : start;
  return `Text, ${options.lines} line${options.lines === 1 ? '' : 's'}: ${shown}`;
}
