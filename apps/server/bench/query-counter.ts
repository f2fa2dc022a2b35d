// Counts the SQL statements a store runs (the bench mode of the throughput benchmark): the driver's
// `query` and `transaction` are wrapped in place, so every query the store's parts make is seen.
import type { SqlDriver, SqlExecutor } from '@tessera/store-postgres';

export type QueryCounts = {
  snapshot(): { total: number; transactions: number; byStatement: Record<string, number> };
};

/** The statement's first words, enough to tell the store's queries apart. */
const label = (sql: string) => {
  const words = sql.replace(/\s+/g, ' ').trim();
  const table = /\b(?:FROM|INTO|UPDATE)\s+("?[\w]+"?\.)?"?(\w+)/i.exec(words)?.[2] ?? '';
  return `${words.split(' ', 2).join(' ')} ${table}`.trim();
};

export function countQueries(driver: SqlDriver): QueryCounts {
  const byStatement: Record<string, number> = {};
  let total = 0;
  let transactions = 0;
  const count = (sql: string) => {
    total++;
    const key = label(sql);
    byStatement[key] = (byStatement[key] ?? 0) + 1;
  };
  const counted = (executor: SqlExecutor): SqlExecutor => ({
    query: (sql, params) => {
      count(sql);
      return executor.query(sql, params);
    },
  });
  const query = driver.query.bind(driver);
  const transaction = driver.transaction.bind(driver);
  Object.assign(driver, {
    query: (sql: string, params?: readonly unknown[]) => counted({ query }).query(sql, params),
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>) =>
      transaction((tx) => {
        transactions++;
        // BEGIN and COMMIT are two more round trips on a server.
        total += 2;
        return fn(counted(tx));
      }),
  });
  return { snapshot: () => ({ total, transactions, byStatement: { ...byStatement } }) };
}
