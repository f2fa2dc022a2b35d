import { type RecordStore, type StoredRecord, VersionConflictError } from '@tessera/core';
import type { Trigger } from './trigger.ts';

export const TRIGGERS_NAMESPACE = 'triggers';

export type TriggerRecord = StoredRecord<Trigger>;

// Keys start with the user, so a user's triggers are one prefix scan and another user's id finds nothing.
const userPrefix = (userId: string) => `${encodeURIComponent(userId)}/`;
const keyOf = (userId: string, id: string) => `${userPrefix(userId)}${id}`;

/**
 * Triggers in the platform's record store. Every write the scheduler makes is a compare-and-set on the
 * record's version, which a SQL store runs as one `UPDATE ... WHERE version = $expected`.
 */
export class TriggerRecords {
  readonly #records: RecordStore;

  constructor(records: RecordStore) {
    this.#records = records;
  }

  get(userId: string, id: string): Promise<TriggerRecord | undefined> {
    return this.#records.get<Trigger>(TRIGGERS_NAMESPACE, keyOf(userId, id));
  }

  /** Inserts a new trigger; fails if one with that id exists. */
  async insert(trigger: Trigger): Promise<void> {
    await this.#records.put(TRIGGERS_NAMESPACE, keyOf(trigger.userId, trigger.id), trigger, {
      expectedVersion: 0,
    });
  }

  async listByUser(userId: string): Promise<Trigger[]> {
    const triggers: Trigger[] = [];
    for await (const record of this.#scan(userPrefix(userId))) triggers.push(record.value);
    return triggers;
  }

  /** Every trigger of every user, page by page. */
  all(): AsyncGenerator<TriggerRecord> {
    return this.#scan(undefined);
  }

  async *#scan(prefix: string | undefined): AsyncGenerator<TriggerRecord> {
    let cursor: string | undefined;
    do {
      const page = await this.#records.list<Trigger>(TRIGGERS_NAMESPACE, {
        ...(prefix && { prefix }),
        limit: 200,
        ...(cursor && { cursor }),
      });
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /**
   * Writes `next` only if the record is still the version that was read. Returns the new record, or
   * undefined when someone else wrote (or deleted) it first: they won, the caller backs off.
   */
  async replace(current: TriggerRecord, next: Trigger): Promise<TriggerRecord | undefined> {
    try {
      return await this.#records.put(TRIGGERS_NAMESPACE, current.id, next, {
        expectedVersion: current.version,
      });
    } catch (error) {
      if (VersionConflictError.is(error)) return undefined;
      throw error;
    }
  }

  /**
   * Read, change, compare-and-set, retried on conflict. `change` returns undefined to leave the record
   * alone. Resolves with the trigger as written, or undefined if it does not exist (any more).
   */
  async change(
    userId: string,
    id: string,
    change: (trigger: Trigger) => Trigger | undefined,
  ): Promise<Trigger | undefined> {
    for (;;) {
      const current = await this.get(userId, id);
      if (!current) return undefined;
      const next = change(current.value);
      if (!next) return current.value;
      const written = await this.replace(current, next);
      if (written) return written.value;
    }
  }

  delete(userId: string, id: string): Promise<boolean> {
    return this.#records.delete(TRIGGERS_NAMESPACE, keyOf(userId, id));
  }
}
