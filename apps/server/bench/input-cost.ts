// What one prompt's input costs each built-in plugin, at the longest input the server takes
// (`limits.maxInputChars`), for the inputs worst for each: one long word, many distinct short words, near-matches
// of indexed words, mixed scripts, stop words only, a `/` command that never ends, a keyword and spaces. Each
// case × input runs in a process of its own (so that its peak memory is its own), on a platform with a
// scripted model (a tool call, then an answer: two rounds), each prompt in a new conversation (no cache from an
// earlier one). Measured per prompt: the CPU time of the plugins' prepare() over both rounds (between two probe
// plugins), of the whole prompt (core included), the process's peak RSS growth over the measured prompts, each
// started after a full GC (so the peak is the most one prompt took, after a warm-up on a short input of the same
// kind), and the heap kept per prompt after a GC (the record; the input string itself is one, shared by the
// prompts). `server set` is the server's default plugins together;
// `server over HTTP` the server with no configuration (demo model, embedded database), from the request to the
// prompt's end. Run:
// `pnpm --filter @tessera/server bench:input [--runs 10] [--plugins blueprints,skills] [--inputs 'long word'] [--chars 100000]`.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type AnyPlugin, createPlatform, createTool, definePlugin, type Platform } from '@tessera/core';
import { blueprintService, blueprintsPlugin, SHARED } from '@tessera/plugin-blueprints';
import { filesPlugin } from '@tessera/plugin-files';
import { mcpPlugin } from '@tessera/plugin-mcp';
import { createSkillsPlugin } from '@tessera/plugin-skills';
import { triggersPlugin } from '@tessera/plugin-triggers';
import { widgetsPlugin } from '@tessera/plugin-widgets';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { z } from 'zod';
import { composePlugins } from '../src/compose-plugins.ts';
import { parseServerConfig } from '../src/config.ts';
import { createServer } from '../src/create-server.ts';

const DEFAULT_CHARS = parseServerConfig({}, 'defaults').limits.maxInputChars;
const PLUGINS = [
  'none',
  'blueprints',
  'skills',
  'triggers',
  'widgets',
  'files',
  'mcp',
  'server set',
  'server over HTTP',
] as const;
type PluginName = (typeof PLUGINS)[number];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    plugins: { type: 'string', default: PLUGINS.join(',') },
    inputs: { type: 'string' },
    chars: { type: 'string', default: String(DEFAULT_CHARS) },
    /** Internal: run one plugin × input in this process and print its figures as JSON. */
    case: { type: 'string' },
  },
});
const runs = Number(values.runs);
const chars = Number(values.chars);

// The words of the blueprints the bench indexes: every blueprint shares some, so a match scores many of them.
const VOCABULARY =
  'deploy report invoice customer database backup security newsletter hiring travel budget release incident contract design monitoring payroll campaign training certificate'.split(
    ' ',
  );

/** Words joined by `separator`, repeated or cut to exactly `length` characters. */
const fill = (words: readonly string[], length: number, separator = ' ') => {
  const parts: string[] = [];
  let size = -separator.length; // the length of parts joined
  for (let i = 0; size < length; i++) {
    const word = words[i % words.length]!;
    parts.push(word);
    size += separator.length + word.length;
  }
  return parts.join(separator).slice(0, length);
};

/** Every word one typo away from a vocabulary word (a letter replaced): what fuzzy matching finds. */
const nearMatches = () =>
  VOCABULARY.flatMap((word) =>
    [...word].flatMap((letter, i) =>
      'aeiourst'.includes(letter) ? [] : [`${word.slice(0, i)}${'aeiou'[i % 5]}${word.slice(i + 1)}`],
    ),
  );

/** `count` distinct words of 5-7 letters (base 26), none a stop word. */
const distinctWords = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `qx${(i + 26 ** 3).toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[+d]!)}`,
  );

const UNICODE = [
  'İstanbul',
  'Größenänderung',
  'naïve',
  '東京都庁の予約',
  'Ελληνικά',
  'русский',
  'עברית',
  'العربية',
  '😀🚀👩‍💻',
  'e\u0301e\u0301e\u0301',
  'ǅemal',
  'ﬁnance',
  '𝔡𝔢𝔭𝔩𝔬𝔶',
];

/** The inputs, each of exactly `length` characters but the first: an ordinary message, for reference. */
const INPUTS: Record<string, (length: number) => string> = {
  'a sentence': () => 'Our TLS certificate expires next week: please renew it and deploy the release.',
  'long word': (length) => fill(['deployment'], length, ''),
  'short words': (length) => fill(distinctWords(Math.ceil(length / 6)), length),
  'near-matches': (length) => fill(nearMatches(), length),
  unicode: (length) =>
    fill(
      UNICODE.map((word, i) => `${word}${'αβγδεζηθ'[i % 8]}`),
      length,
      '\u3000',
    ),
  'stop words': (length) => fill(['the', 'and', 'of', 'to', 'please'], length),
  '/command': (length) => `/${fill(['pdf-processing'], length - 1, '-')}`,
  // What made a rule of the demo model backtrack quadratically.
  'pay + spaces': (length) => `pay${' '.repeat(length - 3)}`,
};

/** The tool the scripted model calls, so that each prompt has two rounds (the second reads the caches). */
const noop = createTool({
  id: 'bench.noop',
  description: 'Does nothing.',
  input: z.object({}),
  invoke: () => 'ok',
});

/** Two plugins that bracket the measured ones: the CPU time spent between them is the plugins' prepare(). */
function probes() {
  let started: NodeJS.CpuUsage | undefined;
  let micros = 0;
  const before = definePlugin({
    id: 'bench.before',
    tools: [noop],
    prepare: () => {
      started = process.cpuUsage();
    },
  });
  const after = definePlugin({
    id: 'bench.after',
    prepare: () => {
      const used = process.cpuUsage(started);
      micros += used.user + used.system;
    },
  });
  /** Milliseconds of CPU in the measured plugins' prepare() since the last take. */
  const take = () => {
    const taken = micros / 1000;
    micros = 0;
    return taken;
  };
  return { before, after, take };
}

type Measured = {
  plugins: AnyPlugin[];
  setup?: (platform: Platform) => Promise<void>;
  cleanup?: () => Promise<void>;
};

const EXAMPLES = fileURLToPath(new URL('../examples', import.meta.url));

async function blueprintsWith(platform: Platform): Promise<void> {
  const service = blueprintService(platform.services);
  const examples = JSON.parse(await readFile(join(EXAMPLES, 'blueprints.json'), 'utf8'));
  for (const example of examples) await service.save(SHARED, example);
  const pick = (i: number, k: number) => VOCABULARY[(i * 7 + k * 13) % VOCABULARY.length]!;
  for (let i = 0; i < 1_000; i++) {
    await service.save(SHARED, {
      title: `${pick(i, 0)} ${pick(i, 1)} procedure ${i}`,
      summary: `How to handle the ${pick(i, 2)} and the ${pick(i, 3)} for case ${i}.`,
      steps: `1. Check the ${pick(i, 4)}.\n2. Update the ${pick(i, 5)}.\n3. Tell the team.`,
      tags: [pick(i, 6), pick(i, 7)],
    });
  }
}

async function pluginsFor(name: Exclude<PluginName, 'server over HTTP'>): Promise<Measured> {
  const directory = await mkdtemp(join(tmpdir(), 'tessera-bench-input-'));
  const cleanup = () => rm(directory, { recursive: true, force: true });
  switch (name) {
    case 'none':
      return { plugins: [], cleanup };
    case 'blueprints':
      return { plugins: [blueprintsPlugin()], setup: blueprintsWith, cleanup };
    case 'skills': {
      const skills = await createSkillsPlugin({ directories: [join(EXAMPLES, 'skills')] });
      return { plugins: [skills.plugin], cleanup };
    }
    case 'triggers':
      return { plugins: [triggersPlugin({ scheduler: false })], cleanup };
    case 'widgets':
      return { plugins: [widgetsPlugin], cleanup };
    case 'files':
      return { plugins: [filesPlugin({ directory })], cleanup };
    case 'mcp': {
      const require = createRequire(import.meta.url);
      const everything = join(
        dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
        'dist/index.js',
      );
      const servers = { everything: { command: process.execPath, args: [everything, 'stdio'] } };
      return { plugins: [mcpPlugin({ servers })], cleanup };
    }
    case 'server set': {
      // What the server runs by default (widgets, files, triggers, skills, blueprints, the user's instructions).
      const config = parseServerConfig({ dataDir: directory }, 'bench');
      const { plugins } = await composePlugins({
        config,
        plugins: [],
        defaultPlugins: true,
        demo: false,
        log: undefined,
      });
      return { plugins, setup: blueprintsWith, cleanup };
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

type Figures = { prepareMs: number[]; promptMs: number[]; peakMb: number; keptKb: number };

/** A prompt: its CPU time in the measured plugins' prepare() (undefined: not measured) and in all. */
type Send = (input: string) => Promise<{ prepareMs?: number; promptMs: number }>;

/** One plugin × input, on a platform with a scripted model: a tool call, then an answer. */
async function platformCase(
  name: Exclude<PluginName, 'server over HTTP'>,
): Promise<{ send: Send; close: () => Promise<void> }> {
  const { plugins, setup, cleanup } = await pluginsFor(name);
  const probe = probes();
  const model = new ScriptedModel();
  const platform = createPlatform({ plugins: [probe.before, ...plugins, probe.after], model });
  await platform.open();
  await setup?.(platform);
  const send: Send = async (input) => {
    const { id } = await platform.conversations.create({ userId: 'bench' });
    model.push(callTool('bench.noop'), reply('Done.'));
    const started = process.cpuUsage();
    const prompt = await platform.send({ conversationId: id, userId: 'bench', input });
    const used = process.cpuUsage(started);
    if (prompt.state !== 'completed') throw new Error(`${name}: the prompt ended ${prompt.state}`);
    return { prepareMs: probe.take(), promptMs: (used.user + used.system) / 1000 };
  };
  const close = async () => {
    await platform.close();
    await cleanup?.();
  };
  return { send, close };
}

/**
 * The server as it runs with no configuration (the built-in plugins, the offline demo model, the embedded
 * database), sent the input over HTTP (`app.fetch`, in this process): from the request to the prompt's end.
 */
async function serverCase(): Promise<{ send: Send; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-input-server-'));
  const token = 'bench-token-0123456789';
  const server = await createServer({ dataDir, auth: { tokens: { [token]: 'bench' } }, webDir: null });
  const request = async (path: string, body: unknown) => {
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
    const response = await server.app.fetch(new Request(`http://bench${path}`, init));
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const send: Send = async (input) => {
    const conversation = (await request('/api/conversations', {})) as { id: string };
    const ended = new Promise<void>((resolve) => {
      const stop = server.platform.events.subscribe({ conversationId: conversation.id }, (event) => {
        if (event.type !== 'prompt.completed' && event.type !== 'prompt.failed') return;
        stop();
        resolve();
      });
    });
    const started = process.cpuUsage();
    await request(`/api/conversations/${conversation.id}/prompts`, { input });
    await ended;
    const used = process.cpuUsage(started);
    return { promptMs: (used.user + used.system) / 1000 };
  };
  const close = async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { send, close };
}

/** One case × input, in this process: warm up, then `runs` prompts, each in a new conversation. */
async function measure(name: PluginName, inputName: string): Promise<Figures> {
  const input = INPUTS[inputName]!(chars);
  if (input.length !== chars && inputName !== 'a sentence')
    throw new Error(`${inputName}: ${input.length} characters, not ${chars}`);
  const { send, close } = name === 'server over HTTP' ? await serverCase() : await platformCase(name);
  // Warm up (JIT, the index, the MCP listing) on the same kind of input, shorter: the peak of the first long
  // one is measured too.
  for (let i = 0; i < 3; i++) await send(INPUTS[inputName]!(1_000));
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const peakBefore = process.resourceUsage().maxRSS;
  const figures: Figures = { prepareMs: [], promptMs: [], peakMb: 0, keptKb: 0 };
  for (let i = 0; i < runs; i++) {
    // Each prompt starts with no garbage of the one before (the peak is one prompt's), and once V8's threads
    // have swept after that GC (process.cpuUsage counts every thread).
    gc();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { prepareMs, promptMs } = await send(input);
    if (prepareMs !== undefined) figures.prepareMs.push(prepareMs);
    figures.promptMs.push(promptMs);
  }
  figures.peakMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
  gc();
  figures.keptKb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / runs;
  await close();
  return figures;
}

if (values.case) {
  const [name, inputName] = values.case.split(':') as [PluginName, string];
  console.log(JSON.stringify(await measure(name, inputName)));
  process.exit(0);
}

const plugins = values.plugins.split(',') as PluginName[];
const inputs = values.inputs?.split(',') ?? Object.keys(INPUTS);
const here = fileURLToPath(import.meta.url);
const fixed = (value: number, digits = 1) => value.toFixed(digits);
console.log(
  `Input of ${chars.toLocaleString('en')} characters, ${runs} prompts each (2 rounds), Node ${process.version}\n`,
);
console.log(
  '| plugin | input | prepare() CPU ms, median / max | whole prompt CPU ms, median / max | peak RSS growth MB | heap kept per prompt KB |',
);
console.log('|---|---|---:|---:|---:|---:|');
const worst = new Map<string, number>();
for (const name of plugins) {
  for (const inputName of inputs) {
    const args = [
      '--expose-gc',
      here,
      '--case',
      `${name}:${inputName}`,
      '--runs',
      String(runs),
      '--chars',
      String(chars),
    ];
    const output = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
    const f: Figures = JSON.parse(output.trim().split('\n').at(-1)!);
    // The plugins' prepare(), or for the server (whose plugins are not bracketed) the whole prompt.
    const measured = f.prepareMs.length > 0 ? f.prepareMs : f.promptMs;
    worst.set(name, Math.max(worst.get(name) ?? 0, ...measured));
    const prepare =
      f.prepareMs.length > 0
        ? `${fixed(median(f.prepareMs), 2)} / ${fixed(Math.max(...f.prepareMs), 2)}`
        : '—';
    console.log(
      `| ${name} | ${inputName} | ${prepare} | ${fixed(median(f.promptMs))} / ${fixed(Math.max(...f.promptMs))} | ${fixed(f.peakMb)} | ${fixed(f.keptKb, 0)} |`,
    );
  }
}
// The goal is for the plugins; the server's whole prompt (its store, HTTP) is shown beside its reference.
const over = [...worst].filter(([name, ms]) => name !== 'none' && name !== 'server over HTTP' && ms >= 50);
console.log(
  `\nWorst CPU per case (the plugins' prepare(); for the server, its whole prompt): ${[...worst].map(([name, ms]) => `${name} ${fixed(ms, 2)} ms`).join(', ')}` +
    (over.length > 0
      ? `\nOVER 50 ms: ${over.map(([name]) => name).join(', ')}`
      : '\nEvery plugin under 50 ms.'),
);
if (over.length > 0) process.exitCode = 1;
