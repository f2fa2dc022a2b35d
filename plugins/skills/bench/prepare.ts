// prepare() time with 200 skill folders (10 of them active): `node plugins/skills/bench/prepare.ts`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceContainer, emptyUsage } from '@tessera/core';
import { memoryState } from '@tessera/testing';
import { createSkillsPlugin } from '../src/index.ts';

const root = await mkdtemp(join(tmpdir(), 'skills-bench-'));
for (let i = 0; i < 200; i++) {
  const name = `skill-${i}`;
  await mkdir(join(root, name, 'references'), { recursive: true });
  await writeFile(
    join(root, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Does task number ${i} for the user.\n---\n\n${'Step. '.repeat(200)}\n`,
  );
  await writeFile(join(root, name, 'references', 'guide.md'), '# Guide\n');
}
const started = performance.now();
const skills = await createSkillsPlugin({ directories: [root] });
const loadMs = performance.now() - started;
// The same catalogue, checked for changes on disk before every round (`refreshInterval: 0`).
const checking = await createSkillsPlugin({ directories: [root], refreshInterval: 0 });
// prepare() on its own, as the loop calls it before every model call, with 10 skills active.
const state = memoryState({ active: Array.from({ length: 10 }, (_, i) => `skill-${i * 20}`) });
const prompt = {
  id: 'p',
  conversationId: 'c',
  userId: 'u',
  model: 'normal',
  visible: true,
  state: 'running',
  input: 'hi',
  output: [],
  usage: emptyUsage(),
  createdAt: '',
  updatedAt: '',
} as const;
const run = async (plugin = skills.plugin) => {
  const context = {
    userId: 'u',
    conversationId: 'c',
    prompt,
    history: [],
    round: 1,
    state,
    tools: [] as unknown[],
    context: [] as { text: string }[],
    services: createServiceContainer(),
    signal: new AbortController().signal,
  };
  await plugin.prepare!(context as never);
  return context;
};
const timePerRound = async (rounds: number, plugin = skills.plugin) => {
  for (let i = 0; i < rounds / 10; i++) await run(plugin);
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run(plugin);
  return (performance.now() - started) / rounds;
};
const perRound = await timePerRound(10_000);
const perCheckedRound = await timePerRound(200, checking.plugin);
const sample = await run();
console.log(
  `200 skill folders: loaded in ${loadMs.toFixed(0)} ms (once, at start); prepare() ${(perRound * 1000).toFixed(1)} µs per round ` +
    `(${sample.tools.length} tools, ${sample.context.length} context items, ${sample.context.reduce((n, c) => n + c.text.length, 0)} chars); ` +
    `${(perCheckedRound * 1000).toFixed(0)} µs in a round that checks the folders for changes (at most once a second by default)`,
);
await rm(root, { recursive: true, force: true });
