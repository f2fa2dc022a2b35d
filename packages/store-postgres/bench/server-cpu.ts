/**
 * PostgreSQL server CPU per prompt: `pnpm bench:cpu` in this package (issue 36). A platform on the store runs
 * prompts as the peers server benchmark's agent does (one tool call, then a text answer: two model calls),
 * conversations of `BENCH_PROMPTS` (default 10) prompts, `BENCH_CONCURRENCY` (default 10) at a time, on a
 * fresh database of BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) on this machine,
 * dropped after. The figure is the CPU time of the database's backends (`/proc/<pid>/schedstat`,
 * nanoseconds), not wall time, so a machine loaded by other work changes it little; rounds are repeated and
 * the median is given. Then each statement's CPU, one prompt at a time (`BENCH_PLAN=1` prints the plans too),
 * and `EXPLAIN (ANALYZE, BUFFERS)` of a prompt's start and of the history read, at a conversation's length.
 */
import { createPlatform, type ModelRequest, newId } from '@tessera/core';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import pg from 'pg';
import type { Row } from '../src/driver.ts';
import { echoPlugin } from './echo-plugin.ts';
import { backendCpu, cpuSince, onServerDatabase, pidsCpu } from './on-both-drivers.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONVERSATIONS = 20; // a round's
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 10); // a conversation's
const WARM_UP_MS = 7_000;

/** Calls the tool, then answers once its result is in: right for any number of prompts at once. */
const turn = (request: ModelRequest) =>
  request.messages.at(-1)?.type === 'function_call_output'
    ? reply('Done.')
    : callTool('bench.echo', { text: 'hi' });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  await onServerDatabase('tessera-cpu', async (store, { admin, database, url }) => {
    const opened = performance.now();
    // The statements that start a prompt and read a history, as last sent: explained again below.
    const explained: Record<string, Statement> = {};
    // While set (one prompt at a time), each statement's backends' CPU (ms), by its first words.
    let profile: { pids: number[]; byStatement: Map<string, number[]>; byPrompt: number[] } | undefined;
    const query = store.driver.query.bind(store.driver);
    store.driver.query = async <R extends Row>(sql: string, params?: readonly unknown[]) => {
      if (sql.trimStart().startsWith('WITH conversation AS ('))
        explained.start = { sql, params: params ?? [] };
      if (sql.trimStart().startsWith('SELECT c.id AS c_id'))
        explained.history = { sql, params: params ?? [] };
      if (!profile) return query<R>(sql, params);
      const { pids, byStatement } = profile;
      const before = await pidsCpu(pids);
      const rows = await query<R>(sql, params);
      const key = sql.replace(/\s+/g, ' ').trim().slice(0, 50);
      byStatement.set(key, [...(byStatement.get(key) ?? []), (await pidsCpu(pids)) - before]);
      return rows;
    };
    const platform = createPlatform({
      store,
      plugins: [echoPlugin],
      // More turns than any run takes (two a prompt).
      model: new ScriptedModel(Array.from({ length: 100_000 }, () => turn)),
    });
    const userId = 'bench';
    const conversation = async () => {
      const { id } = await platform.conversations.create({ userId });
      for (let p = 0; p < PROMPTS; p++) {
        const before = profile && (await pidsCpu(profile.pids));
        const done = await platform.send({ conversationId: id, userId, input: newId('in') });
        if (done.state !== 'completed') throw new Error(`A prompt ended ${done.state}.`);
        if (profile) profile.byPrompt.push((await pidsCpu(profile.pids)) - before!);
      }
      return id;
    };
    const round = async (concurrency = CONCURRENCY) => {
      let next = 0;
      const ids: string[] = [];
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next++ < CONVERSATIONS) ids.push(await conversation());
        }),
      );
      return ids;
    };
    // Rounds: a warm-up, ROUNDS measured, one profiled. The warm-up opens the connections, prepares the
    // statements and caches their plans, and lasts out the relay's first window (its expiry, 6 s by
    // default), when a process that may have missed another's hello sends every event: after it, alone,
    // the relay sends none, as in a one-process deployment's steady state.
    do await round();
    while (performance.now() - opened < WARM_UP_MS);
    const perPrompt: number[] = [];
    let last: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const before = await backendCpu(admin, database);
      last = await round();
      perPrompt.push((await cpuSince(admin, database, before)) / (CONVERSATIONS * PROMPTS));
    }
    console.log(
      `PostgreSQL backends' CPU per prompt (ms), ${ROUNDS} rounds of ${CONVERSATIONS} conversations × ${PROMPTS} prompts, ${CONCURRENCY} at a time:`,
    );
    console.log(
      `  median ${median(perPrompt).toFixed(3)}  (rounds: ${perPrompt.map((ms) => ms.toFixed(3)).join(', ')})`,
    );
    profile = { pids: [...(await backendCpu(admin, database)).keys()], byStatement: new Map(), byPrompt: [] };
    await round(1);
    console.log(
      `\nOne prompt at a time (${profile.byPrompt.length} prompts): CPU per prompt (ms), median ${median(profile.byPrompt).toFixed(3)};`,
    );
    console.log('each statement: CPU ms per prompt (median ms a statement × statements a prompt):');
    for (const [statement, ms] of [...profile.byStatement].sort((a, b) => b[1].length - a[1].length)) {
      const n = ms.length / (CONVERSATIONS * PROMPTS);
      console.log(
        `  ${(median(ms) * n).toFixed(3)}  (${median(ms).toFixed(3)} × ${n.toFixed(2)})  ${statement}`,
      );
    }
    profile = undefined;
    const conversationId = last.at(-1)!;
    await store.conversations.getWithHistory!(conversationId, userId);
    explained.start = { ...explained.start!, params: explained.start!.params.with(1, conversationId) };
    await explainHistory(url, explained);
    await platform.close();
  });
}

type Statement = { sql: string; params: readonly unknown[] };
/** What the bench reads of `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`. */
type Explained = {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Planning Time': number;
  'Execution Time': number;
};

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of `statements` in a conversation of PROMPTS prompts, each in a transaction
 * rolled back: a prompt's start (a new prompt id each time) and the history read alone (`getWithHistory`).
 */
async function explainHistory(url: string, statements: Record<string, Statement>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const explain = async <R extends pg.QueryResultRow>(
    options: string,
    label: string,
    { sql, params }: Statement,
  ) => {
    await client.query('BEGIN');
    try {
      const values = params.with(0, label === 'start' ? newId('p') : params[0]);
      return (await client.query<R>(`EXPLAIN (${options}) ${sql}`, values)).rows;
    } finally {
      await client.query('ROLLBACK');
    }
  };
  try {
    console.log(
      `\nAt ${PROMPTS} prompts of history, EXPLAIN (ANALYZE, BUFFERS), median of 5 (a prepared statement's generic plan is not planned again):`,
    );
    for (const [label, statement] of Object.entries(statements)) {
      const runs: Explained[] = [];
      for (let i = 0; i < 5; i++) {
        const [row] = await explain<{ 'QUERY PLAN': Explained[] }>(
          'ANALYZE, BUFFERS, FORMAT JSON',
          label,
          statement,
        );
        runs.push(row!['QUERY PLAN'][0]!);
      }
      const buffers = median(runs.map((r) => r.Plan['Shared Hit Blocks'] + r.Plan['Shared Read Blocks']));
      const planning = median(runs.map((r) => r['Planning Time']));
      const execution = median(runs.map((r) => r['Execution Time']));
      console.log(
        `  ${label.padEnd(8)} shared buffers ${buffers}, planning ${planning.toFixed(3)} ms, execution ${execution.toFixed(3)} ms`,
      );
      if (process.env.BENCH_PLAN) {
        const plan = await explain<{ 'QUERY PLAN': string }>('ANALYZE, BUFFERS', label, statement);
        console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
      }
    }
  } finally {
    await client.end();
  }
}

await main();
