// Tessera's loop overhead with an instant in-process model: per-round cost for 5 and 50 tools, and with 0,
// 200 and 2,000 prior prompts of history. `pnpm bench` from the root. Writes results/latest.{md,json}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { cpuPerRound } from './cpu-per-round.ts';
import { importTime } from './import-time.ts';
import { type BenchTool, benchAgent, type HistoryTurn, roundsDone } from './src/tessera-agent.ts';

const R = 10;
const QUICK = process.argv.includes('--quick');
const MIN_MS = QUICK ? 300 : 3_000;
const WARMUP_MS = QUICK ? 100 : 1_000;

const tools = (count: number): BenchTool[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Benchmark tool number ${i}. Looks up a record by id and echoes the query.`,
    schema: z.object({
      id: z.number().int().describe('Record id'),
      query: z.string().describe('Free text query'),
    }),
    execute: async (args: { id: number; query: string }) => ({ ok: true, id: args.id, echo: args.query }),
  }));

const history = (count: number): HistoryTurn[] =>
  Array.from({ length: count }, (_, i) => ({
    user: `Earlier question ${i}`,
    call: { callId: `call_${i}`, toolName: 'tool_0', args: { id: i, query: `q${i}` } },
    result: { ok: true, id: i, echo: `q${i}` },
    assistant: `Earlier answer ${i}.`,
  }));

async function measure(name: string, T: number, H: number) {
  const agent = benchAgent({
    tools: tools(T),
    history: history(H),
    decide: (messages) => {
      const k = roundsDone(messages);
      return k < R
        ? {
            type: 'tool_call',
            callId: `call_${k}`,
            toolName: `tool_${k % T}`,
            args: { id: k, query: `q${k}` },
          }
        : { type: 'text', text: `Done after ${R} tool calls.` };
    },
  });
  const expected = `Done after ${R} tool calls.`;
  const check = (text: string) => {
    if (text !== expected) throw new Error(`unexpected answer: ${text}`);
  };
  for (const start = performance.now(); performance.now() - start < WARMUP_MS; ) check(await agent.run('go'));
  globalThis.gc?.();
  const heapBase = process.memoryUsage().heapUsed;
  const times: number[] = [];
  for (const start = performance.now(); performance.now() - start < MIN_MS || times.length < 30; ) {
    const t0 = performance.now();
    check(await agent.run('go'));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return {
    name,
    T,
    H,
    runs: times.length,
    medianMs: q(0.5),
    p10Ms: q(0.1),
    p90Ms: q(0.9),
    perRoundMs: q(0.5) / (R + 1),
    heapBaseMb: heapBase / 2 ** 20,
  };
}

const results = [];
for (const [name, T, H] of [
  ['a: 5 tools', 5, 0],
  ['b: 50 tools', 50, 0],
  ['c: 5 tools, 200 prior prompts', 5, 200],
  ['d: 5 tools, 2,000 prior prompts', 5, 2_000],
] as const) {
  results.push(await measure(name, T, H));
}

const base = results[0]!.perRoundMs;
const lines = [
  `Tessera loop overhead, instant model, R=${R} rounds + 1 answer per run. Node ${process.version}, ${new Date().toISOString().slice(0, 10)}${QUICK ? ' (quick)' : ''}.`,
  '',
  '| scenario | runs | run ms median (p10–p90) | per round ms | vs (a) | heap MB after warm-up |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${r.runs} | ${r.medianMs.toFixed(3)} (${r.p10Ms.toFixed(3)}–${r.p90Ms.toFixed(3)}) | ${r.perRoundMs.toFixed(4)} | ${(r.perRoundMs / base).toFixed(2)}× | ${r.heapBaseMb.toFixed(1)} |`,
  ),
];
// CPU time rather than wall-clock: what other processes on a shared machine do moves it far less.
const cpu = await cpuPerRound(QUICK ? 2_000 : 20_000);
const imported = importTime(QUICK ? 3 : 20);
lines.push(
  '',
  `CPU per round, (a) 5 tools: ${cpu.cpuUsPerRound.toFixed(2)} µs (${cpu.cpuMsPerRun.toFixed(4)} ms per run of ${R} rounds + 1 answer, ${cpu.runs} runs, process.cpuUsage()).`,
  `Cold import of @tessera/core (median of ${imported.runs} fresh processes): ${imported.plain.wallMs.toFixed(1)} ms wall, ${imported.plain.cpuMs.toFixed(1)} ms CPU from the TypeScript sources; ${imported.cached.wallMs.toFixed(1)} ms wall, ${imported.cached.cpuMs.toFixed(1)} ms CPU with Node's compile cache; ${imported.built.wallMs.toFixed(1)} ms wall, ${imported.built.cpuMs.toFixed(1)} ms CPU built (dist, as published).`,
);
console.log(lines.join('\n'));
if (!QUICK) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/latest.md', import.meta.url), `${lines.join('\n')}\n`);
  writeFileSync(
    new URL('./results/latest.json', import.meta.url),
    `${JSON.stringify({ scenarios: results, cpuPerRound: cpu, importTime: imported }, null, 2)}\n`,
  );
}
