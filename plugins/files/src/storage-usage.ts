import { type RecordStore, VersionConflictError } from '@tessera/core';
import { StorageQuotaExceededError } from './errors.ts';

/**
 * The bytes each user stores, one record per user keyed by the user id (a record id is any string, so ids
 * such as `__proto__` or `constructor` are ordinary keys). Every change is a compare-and-set, retried when
 * another write won, so servers sharing a store keep one correct count.
 */
const USAGE = 'files.usage';

type Usage = { bytes: number };

const bytesOf = (value: Usage | undefined): number =>
  Number.isSafeInteger(value?.bytes) && value!.bytes > 0 ? value!.bytes : 0;

export class StorageUsage {
  readonly #records: () => RecordStore;
  readonly #quota: number;

  constructor(records: () => RecordStore, quota: number) {
    this.#records = records;
    this.#quota = quota;
  }

  /** Bytes the user stores now. */
  async used(userId: string): Promise<number> {
    return bytesOf((await this.#records().get<Usage>(USAGE, userId))?.value);
  }

  /** Counts `bytes` more for the user, or `StorageQuotaExceededError` (nothing counted) past the quota. */
  charge(userId: string, bytes: number, what?: string): Promise<void> {
    return this.#update(userId, (used) => {
      if (used + bytes > this.#quota) throw new StorageQuotaExceededError(used, this.#quota, what);
      return used + bytes;
    });
  }

  /** Counts `bytes` fewer for the user (never below zero: files stored before the count began). */
  credit(userId: string, bytes: number): Promise<void> {
    return this.#update(userId, (used) => Math.max(0, used - bytes));
  }

  async #update(userId: string, next: (used: number) => number): Promise<void> {
    for (;;) {
      const current = await this.#records().get<Usage>(USAGE, userId);
      const value: Usage = { bytes: next(bytesOf(current?.value)) };
      try {
        await this.#records().put(USAGE, userId, value, { expectedVersion: current?.version ?? 0 });
        return;
      } catch (error) {
        if (!VersionConflictError.is(error)) throw error;
      }
    }
  }
}
