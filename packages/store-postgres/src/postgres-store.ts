import type { ConversationStore, PromptStore, RecordStore, Store } from '@tessera/core';
import { conversationStore } from './conversations.ts';
import type { SqlDriver } from './driver.ts';
import { promptStore } from './prompts.ts';
import { recordStore } from './records.ts';

/** A Tessera store on PostgreSQL (PGlite or a server): the same queries whatever the driver. */
export class PostgresStore implements Store {
  readonly conversations: ConversationStore;
  readonly prompts: PromptStore;
  readonly records: RecordStore;
  /** The driver underneath, for apps and tests that need to run their own SQL next to the store's. */
  readonly driver: SqlDriver;
  /** The PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** The schema version the database is at (this package's newest once started). */
  readonly schemaVersion: number;

  constructor(driver: SqlDriver, schema: { name: string; quoted: string; version: number }) {
    this.driver = driver;
    this.schema = schema.name;
    this.schemaVersion = schema.version;
    this.conversations = conversationStore(driver, schema.quoted);
    this.prompts = promptStore(driver, schema.quoted);
    this.records = recordStore(driver, schema.quoted);
  }

  /** Closes the connection pool or PGlite instance if the store opened it; one passed in stays open. */
  close(): Promise<void> {
    return this.driver.close();
  }
}
