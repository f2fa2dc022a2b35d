import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  ConversationStore,
  EventRelay,
  MessageStore,
  PromptStore,
  RecordStore,
  Store,
} from '@tessera/core';
import { conversationStore } from './conversations.ts';
import type { SqlDriver } from './driver.ts';
import { HistoryCache } from './history-cache.ts';
import { messageStore } from './messages.ts';
import { promptStore, RUNNER_LOCK_SPACE } from './prompts.ts';
import { recordStore } from './records.ts';
import { openRelay } from './relay.ts';

/** A Tessera store on PostgreSQL (PGlite or a server): the same queries whatever the driver. */
export class PostgresStore implements Store {
  readonly conversations: ConversationStore;
  readonly prompts: PromptStore;
  readonly records: RecordStore;
  /** Steering and follow-up messages waiting for their conversation, shared by every process on the database. */
  readonly messages: MessageStore;
  /** The driver underneath, for apps and tests that need to run their own SQL next to the store's. */
  readonly driver: SqlDriver;
  /** The PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** The schema version the database is at (this package's newest once started). */
  readonly schemaVersion: number;

  /** This store instance as the runner of its platform's prompts: alive while `runnerLock` is held. */
  readonly runner: string;
  readonly #runnerLock: { release(): Promise<void> };
  /** Events and cancel requests between the processes on this database (a server only; PGlite is one process). */
  readonly relay?: EventRelay & { close(): Promise<void> };

  private constructor(
    driver: SqlDriver,
    schema: { name: string; quoted: string; version: number },
    runner: { id: string; lock: { release(): Promise<void> } },
    relay: (EventRelay & { close(): Promise<void> }) | undefined,
    historyCacheBytes: number,
    searchBytes?: number,
    pagePromptIds?: number,
  ) {
    this.driver = driver;
    this.schema = schema.name;
    this.schemaVersion = schema.version;
    this.runner = runner.id;
    this.#runnerLock = runner.lock;
    if (relay) this.relay = relay;
    const histories = new HistoryCache(historyCacheBytes);
    this.conversations = conversationStore(driver, schema.quoted, histories, searchBytes, pagePromptIds);
    this.prompts = promptStore(driver, schema.quoted, runner.id, histories);
    this.records = recordStore(driver, schema.quoted);
    this.messages = messageStore(driver, schema.quoted);
  }

  /**
   * Opens the store over a migrated database. It takes a session advisory lock that names it as a runner, so
   * that other processes see the prompts it runs as taken until it closes or its process dies.
   */
  static async open(
    driver: SqlDriver,
    schema: { name: string; quoted: string; version: number },
    options: {
      relayShards?: number;
      relayHeartbeatMs?: number;
      relayExpiryMs?: number;
      historyCacheBytes?: number;
      searchBytes?: number;
      pagePromptIds?: number;
    } = {},
  ) {
    const id = `${hostname()}:${process.pid}:${randomUUID()}`;
    const lock = await driver.hold(
      'SELECT pg_advisory_lock($1, hashtext($2))',
      [RUNNER_LOCK_SPACE, id],
      'SELECT pg_advisory_unlock($1, hashtext($2))',
    );
    const listen = driver.listen?.bind(driver);
    const relay = listen
      ? openRelay(driver, listen, schema.name, id, {
          shards: options.relayShards,
          heartbeatMs: options.relayHeartbeatMs,
          expiryMs: options.relayExpiryMs,
        })
      : undefined;
    // Listening before the store serves anyone: it hears the others' answers to its hello.
    await relay?.started;
    return new PostgresStore(
      driver,
      schema,
      { id, lock },
      relay,
      options.historyCacheBytes ?? 16 * 1024 * 1024,
      options.searchBytes,
      options.pagePromptIds,
    );
  }

  /** Closes the connection pool or PGlite instance if the store opened it; one passed in stays open. */
  async close(): Promise<void> {
    await this.relay?.close();
    await this.#runnerLock.release();
    await this.driver.close();
  }
}
