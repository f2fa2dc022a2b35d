// prepare() time with 10,000 blueprints: `node plugins/blueprints/bench/prepare.ts`.
import { createPlatform, emptyUsage } from '@tessera/core';
import { memoryState, ScriptedModel } from '@tessera/testing';
import { blueprintService, blueprintsPlugin, SHARED } from '../src/index.ts';

const words = [
  'deploy',
  'report',
  'invoice',
  'customer',
  'database',
  'backup',
  'security',
  'newsletter',
  'hiring',
  'travel',
  'budget',
  'release',
  'incident',
  'contract',
  'design',
  'api',
  'monitoring',
  'payroll',
  'campaign',
  'training',
];
const pick = (i: number, k: number) => words[(i * 7 + k * 13) % words.length]!;
const plugin = blueprintsPlugin();
const platform = createPlatform({ plugins: [plugin], model: new ScriptedModel() });
const service = blueprintService(platform.services);
let started = performance.now();
for (let i = 0; i < 10_000; i++) {
  // Shared, which every search of ada's reads: one index of 10,000, far past one user's cap (200).
  await service.save(SHARED, {
    title: `${pick(i, 0)} ${pick(i, 1)} procedure ${i}`,
    summary: `How to handle the ${pick(i, 2)} and the ${pick(i, 3)} for case ${i}.`,
    steps: `1. Check the ${pick(i, 4)}.\n2. Update the ${pick(i, 5)}.\n3. Tell the team.`,
    tags: [pick(i, 6), pick(i, 7)],
  });
}
const saveMs = performance.now() - started;
const fresh = createPlatform({
  plugins: [blueprintsPlugin()],
  store: platform.store,
  model: new ScriptedModel(),
});
started = performance.now();
await blueprintService(fresh.services).search('ada', 'warm up');
const rebuildMs = performance.now() - started;

const prepareOnce = async (input: string, state = memoryState<{ lastSearch?: never }>({})) => {
  const prompt = {
    id: 'p',
    conversationId: 'c',
    userId: 'ada',
    model: 'normal',
    visible: true,
    state: 'running',
    input,
    output: [],
    usage: emptyUsage(),
    createdAt: '',
    updatedAt: '',
  };
  const context = {
    userId: 'ada',
    conversationId: 'c',
    prompt,
    history: [],
    round: 0,
    state,
    tools: [],
    context: [] as { text: string }[],
    services: fresh.services,
    signal: new AbortController().signal,
  };
  await plugin.prepare!(context as never);
  return context;
};
const inputs = Array.from(
  { length: 200 },
  (_, i) => `please help with the ${pick(i, 8)} ${pick(i, 9)} for the customer`,
);
for (const input of inputs.slice(0, 20)) await prepareOnce(input);
started = performance.now();
for (const input of inputs) await prepareOnce(input);
const searchMs = (performance.now() - started) / inputs.length;
const cachedState = memoryState<{ lastSearch?: never }>({});
await prepareOnce(inputs[0]!, cachedState);
started = performance.now();
for (let i = 0; i < 1_000; i++) await prepareOnce(inputs[0]!, cachedState);
const cachedMs = (performance.now() - started) / 1_000;
console.log(
  `10,000 blueprints: saved in ${saveMs.toFixed(0)} ms; index rebuilt from the store in ${rebuildMs.toFixed(0)} ms; ` +
    `prepare() ${searchMs.toFixed(2)} ms for a new input (one search), ${(cachedMs * 1000).toFixed(1)} µs for the same input again (cached)`,
);
