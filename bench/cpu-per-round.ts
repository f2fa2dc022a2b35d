// CPU time per round of scenario (a) (5 tools, R=10 tool rounds + 1 answer, instant model):
// process.cpuUsage() is not disturbed by other processes on a shared machine the way wall-clock
// time is (GC threads count too). `node --expose-gc bench/cpu-per-round.ts [runs]`; also printed by `pnpm bench`.
import { z } from 'zod';
import { benchAgent, roundsDone } from './src/tessera-agent.ts';

const R = 10;

export async function cpuPerRound(runs = 20_000) {
  const agent = benchAgent({
    tools: Array.from({ length: 5 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Benchmark tool number ${i}.`,
      schema: z.object({ id: z.number().int(), query: z.string() }),
      execute: async (args: { id: number; query: string }) => ({ ok: true, id: args.id, echo: args.query }),
    })),
    decide: (messages) => {
      const k = roundsDone(messages);
      return k < R
        ? {
            type: 'tool_call',
            callId: `call_${k}`,
            toolName: `tool_${k % 5}`,
            args: { id: k, query: `q${k}` },
          }
        : { type: 'text', text: 'done' };
    },
  });
  for (let i = 0; i < Math.min(2_000, runs); i++) await agent.run('go');
  globalThis.gc?.();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) await agent.run('go');
  const cpu = process.cpuUsage(cpu0);
  const rounds = runs * (R + 1);
  return {
    runs,
    cpuUsPerRound: (cpu.user + cpu.system) / rounds,
    cpuMsPerRun: (cpu.user + cpu.system) / 1000 / runs,
  };
}

if (import.meta.main) {
  const runs = Number(process.argv[2] ?? 20_000);
  const r = await cpuPerRound(runs);
  console.log(
    `CPU per round ${r.cpuUsPerRound.toFixed(2)} µs (${r.cpuMsPerRun.toFixed(4)} ms per run), ${runs} runs`,
  );
}
