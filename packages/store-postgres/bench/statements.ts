/**
 * Statements per prompt, on both drivers: `pnpm bench:statements` in this package. A platform on the
 * store runs prompts as the peers server benchmark's agent does (issue 36: one tool call, then a text answer,
 * so two model calls), 10 in each of 10 conversations, one after another; every statement the store's driver
 * is sent is counted, by its first words. The server's routes (the conversation's creation, its title, its
 * event stream) are not in it: only the platform's own statements. PGlite has no relay (no `pg_notify`).
 */
import { createPlatform, newId } from '@tessera/core';
import { callTool, reply, scriptedModel } from '@tessera/testing';
import type { SqlExecutor } from '../src/driver.ts';
import type { PostgresStore } from '../src/index.ts';
import { echoPlugin } from './echo-plugin.ts';
import { onBothDrivers } from './on-both-drivers.ts';

const CONVERSATIONS = 10;
const PROMPTS = 10;

/** Counts, by its first words, every statement sent through `executor` from now on. */
function count(executor: SqlExecutor, counts: Map<string, number>): void {
  const query = executor.query.bind(executor);
  executor.query = (sql, params) => {
    const key = sql.replace(/\s+/g, ' ').trim().slice(0, 60);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return query(sql, params);
  };
}

async function run(store: PostgresStore) {
  const counts = new Map<string, number>();
  const { driver } = store;
  count(driver, counts);
  const transaction = driver.transaction.bind(driver);
  driver.transaction = (fn) =>
    transaction((tx) => {
      count(tx, counts);
      return fn(tx);
    });
  const turns = Array.from({ length: CONVERSATIONS * PROMPTS }, () => [
    callTool('bench.echo', { text: 'hi' }),
    reply('Done.'),
  ]).flat();
  const platform = createPlatform({ store, plugins: [echoPlugin], model: scriptedModel(turns) });
  const userId = 'bench';
  for (let c = 0; c < CONVERSATIONS; c++) {
    const conversation = await platform.conversations.create({ userId });
    for (let p = 0; p < PROMPTS; p++) {
      const done = await platform.send({ conversationId: conversation.id, userId, input: newId('in') });
      if (done.state !== 'completed') throw new Error(`A prompt ended ${done.state}.`);
    }
  }
  await platform.close();
  const prompts = CONVERSATIONS * PROMPTS;
  const figures: Record<string, string> = {};
  for (const [statement, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    figures[statement] = (n / prompts).toFixed(2);
  }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  figures['all statements, per prompt'] = (total / prompts).toFixed(2);
  return figures;
}

const results = await onBothDrivers('tessera-statements', run);
for (const [driver, figures] of Object.entries(results)) {
  console.log(`\n${driver}`);
  for (const [statement, figure] of Object.entries(figures))
    console.log(`${figure.padStart(6)}  ${statement}`);
}
