/**
 * A long conversation's cost with and without the history cache (`historyCacheBytes`): `node
 * bench/long-history.ts` in this package. One conversation of BENCH_PROMPTS (default 60) prompts, each a tool
 * call whose result is BENCH_RESULT_CHARS (default 8,000) characters, then a text answer; the last half's
 * prompts are measured: this process's CPU and the database backends' CPU per prompt, alternating the two
 * settings, on a fresh database of BENCH_POSTGRES_URL each (see on-both-drivers.ts).
 */

import { createPlatform, createTool, definePlugin, type ModelRequest, newId } from '@tessera/core';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { z } from 'zod';
import { backendCpu, cpuSince, onServerDatabase } from './on-both-drivers.ts';

const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 60);
const RESULT_CHARS = Number(process.env.BENCH_RESULT_CHARS ?? 8_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const reader = definePlugin({
  id: 'bench',
  tools: [
    createTool({
      id: 'read',
      description: 'Reads a page.',
      input: z.object({ page: z.number() }),
      readOnly: true,
      invoke: ({ input }) => `${input.page}:`.padEnd(RESULT_CHARS, 'lorem ipsum '),
    }),
  ],
});

const turn = (request: ModelRequest) =>
  request.messages.at(-1)?.type === 'function_call_output'
    ? reply('Read.')
    : callTool('bench.read', { page: 1 });

async function once(historyCacheBytes: number) {
  let result = { node: 0, pg: 0 };
  await onServerDatabase(
    'tessera-long',
    async (store, { admin, database }) => {
      const platform = createPlatform({
        store,
        plugins: [reader],
        model: new ScriptedModel(Array.from({ length: PROMPTS * 2 + 10 }, () => turn)),
      });
      const { id } = await platform.conversations.create({ userId: 'bench' });
      let node = 0;
      let pg = 0;
      for (let p = 0; p < PROMPTS; p++) {
        const measured = p >= PROMPTS / 2;
        const cpu = process.cpuUsage();
        const pgBefore = measured ? await backendCpu(admin, database) : undefined;
        const done = await platform.send({ conversationId: id, userId: 'bench', input: newId('in') });
        if (done.state !== 'completed') throw new Error(`A prompt ended ${done.state}.`);
        if (!measured) continue;
        const used = process.cpuUsage(cpu);
        node += (used.user + used.system) / 1000;
        pg += await cpuSince(admin, database, pgBefore!);
      }
      const n = PROMPTS - Math.ceil(PROMPTS / 2);
      result = { node: node / n, pg: pg / n };
      await platform.close();
    },
    { historyCacheBytes },
  );
  return result;
}

const runs: Record<string, { node: number; pg: number }[]> = { cache: [], none: [] };
for (let round = 0; round < ROUNDS; round++) {
  runs.none!.push(await once(0));
  runs.cache!.push(await once(16 * 1024 * 1024));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(
  `One conversation of ${PROMPTS} prompts, tool results of ${RESULT_CHARS} characters; the last half, per prompt (median of ${ROUNDS}):`,
);
for (const [label, list] of Object.entries(runs)) {
  console.log(
    `  ${label === 'cache' ? 'history cache (16 MiB)' : 'no history cache      '}  this process ${median(list.map((r) => r.node)).toFixed(2)} ms, PostgreSQL ${median(list.map((r) => r.pg)).toFixed(2)} ms`,
  );
}
