// CPU time per run of one library in the peer harness's workload (a separate project, see bench/README.md):
// process.cpuUsage() moves far less than wall time on a shared, loaded machine, so ratios measured with it in
// interleaved processes hold when the harness's wall-clock figures swing.
//   node --expose-gc bench/peers/cpu.mjs <harness dir> <adapter.mjs> <a|b|c|conc> [runs]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [harness, adapterPath, id, runsArg] = process.argv.slice(2);
if (!harness || !adapterPath || !['a', 'b', 'c', 'conc'].includes(id)) {
  console.error(
    'usage: node --expose-gc bench/peers/cpu.mjs <harness dir> <adapter.mjs> <a|b|c|conc> [runs]',
  );
  process.exit(2);
}
const url = (file) => pathToFileURL(path.resolve(file)).href;
const workload = await import(url(path.join(harness, 'src/workload.mjs')));
const adapter = await import(url(adapterPath));
const conc = id === 'conc';
const scenario = workload.SCENARIOS[conc ? 'a' : id];
const runner = await adapter.createRunner({
  scenario: { ...scenario, id: conc ? 'a' : id },
  tools: workload.makeTools(scenario.T),
  history: workload.makeHistory(scenario.H, scenario.T),
  model: workload.makeFakeModel(scenario),
  countRoundsDone: workload.countRoundsDone,
  system: workload.SYSTEM_PROMPT,
  prompt: workload.USER_PROMPT,
});
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const runs = Number(runsArg ?? (conc ? 5 : 10_000));
if (conc) {
  // 1,000 runs at once, as the harness's concurrency scenario: the median batch of `runs`.
  const batch = () => Promise.all(Array.from({ length: 1000 }, () => runner.run()));
  await batch();
  const batches = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const since = process.cpuUsage();
    await batch();
    batches.push(cpuMs(since));
  }
  batches.sort((a, b) => a - b);
  console.log(
    JSON.stringify({ lib: adapter.meta.id, scenario: id, cpuMsPerBatch: batches[batches.length >> 1] }),
  );
} else {
  for (let i = 0; i < Math.min(3_000, runs); i++) await runner.run();
  globalThis.gc?.();
  const since = process.cpuUsage();
  for (let i = 0; i < runs; i++) await runner.run();
  console.log(
    JSON.stringify({ lib: adapter.meta.id, scenario: id, cpuUsPerRun: (cpuMs(since) * 1000) / runs }),
  );
}
