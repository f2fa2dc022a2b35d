import { NotFoundError, TesseraError } from '@tessera/core';

/** A file exceeds the configured size limit; nothing was stored. */
export class FileTooLargeError extends TesseraError {
  readonly maxBytes: number;
  constructor(maxBytes: number, what = 'The file') {
    super(
      'file_too_large',
      `${what} is larger than the limit of ${formatBytes(maxBytes)}; nothing was stored.`,
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * Storing a file would pass the user's storage quota (`maxBytesPerUser`); nothing was stored. Space comes back
 * when the user deletes files or conversations.
 */
export class StorageQuotaExceededError extends TesseraError {
  readonly usedBytes: number;
  readonly quotaBytes: number;
  /** `what`: e.g. `file "report.pdf" (2 MB)`, or `3 files (12 MB)`. */
  constructor(usedBytes: number, quotaBytes: number, what = 'the file') {
    super(
      'storage_quota_exceeded',
      `No room for ${what} in the storage quota: this user stores ${formatBytes(usedBytes)} of ${formatBytes(quotaBytes)}, and nothing was stored. Delete files or conversations to free space.`,
    );
    this.usedBytes = usedBytes;
    this.quotaBytes = quotaBytes;
  }
}

/** A store key that a store did not issue (wrong shape), or a stored file that is gone. */
export class FileNotFoundError extends NotFoundError {}

/** A file cannot be used as asked: binary where text is needed, too large to read, damaged. */
export class FileReadError extends TesseraError {
  constructor(message: string) {
    super('file_unreadable', message);
  }
}

/** `1536` → `1.5 KB`: sizes as people and models read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}
