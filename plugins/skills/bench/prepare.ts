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
let started = performance.now();
const skills = await createSkillsPlugin({ directories: [root] });
const loadMs = performance.now() - started;
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
const run = async () => {
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
  await skills.plugin.prepare!(context as never);
  return context;
};
for (let i = 0; i < 1_000; i++) await run();
const rounds = 10_000;
started = performance.now();
for (let i = 0; i < rounds; i++) await run();
const perRound = (performance.now() - started) / rounds;
const sample = await run();
console.log(
  `200 skill folders: loaded in ${loadMs.toFixed(0)} ms (once, at start); prepare() ${(perRound * 1000).toFixed(1)} µs per round ` +
    `(${sample.tools.length} tools, ${sample.context.length} context items, ${sample.context.reduce((n, c) => n + c.text.length, 0)} chars)`,
);
await rm(root, { recursive: true, force: true });
