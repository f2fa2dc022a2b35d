import { randomUUID } from 'node:crypto';
import { describeRelayConformance } from '@tessera/testing/relay-conformance';
import { pgDriver } from '../src/drivers/pg-driver.ts';
import { openRelay } from '../src/relay.ts';
import { uniqueSchema, useServerDatabase } from './support/databases.ts';

/** Each relay as one process's: its own origin, listening on its own connection of the suite's pool. */
function relays(shards?: number) {
  const database = useServerDatabase();
  const schema = uniqueSchema();
  return {
    open() {
      const driver = pgDriver(database.pool, { owned: false });
      return openRelay(driver, driver.listen!, schema, randomUUID(), { shards });
    },
    // The listening connection's backend ends, as in a server restart or a network cut.
    async disconnect() {
      await database.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%LISTEN%'`,
      );
    },
  };
}

describeRelayConformance('PostgreSQL LISTEN/NOTIFY', relays());
// Two channels for every topic: most messages share a listened channel, and are told apart by their topics.
describeRelayConformance('PostgreSQL LISTEN/NOTIFY, two shards', relays(2));
