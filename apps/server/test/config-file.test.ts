import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FileServiceToken } from '@tessera/plugin-files';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createServer, loadConfig } from '../src/index.ts';
import { ALICE } from './harness.ts';
import { appFolder } from './support/app-folder.ts';

let app: Awaited<ReturnType<typeof appFolder>>;

// Three plugin packages as a team would publish them: a factory with options, an ESM-only package exporting
// `plugin`, and a package that exports no plugin at all.
const GREETINGS = `
import { createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';

const Options = z.object({ greeting: z.string().min(1) }).strict();

export default function greetings(options) {
  const { greeting } = Options.parse(options ?? {});
  return definePlugin({
    id: 'greet',
    tools: [
      createTool({
        id: 'greet.hello',
        description: 'Greets someone by name.',
        input: z.object({ name: z.string() }),
        invoke: ({ input }) => \`\${greeting}, \${input.name}!\`,
      }),
    ],
  });
}
greetings.options = Options;
`;
const STOCK = `
import { definePlugin } from '@tessera/core';
export const plugin = definePlugin({
  id: 'stock',
  prepare: ({ context }) => void context.push({ text: 'Stock levels: 12 bolts.' }),
});
`;

beforeAll(async () => {
  app = await appFolder();
  await app.addPackage('acme-greetings', { 'index.js': GREETINGS });
  await app.addPackage(
    '@acme/stock',
    { 'esm/index.js': STOCK },
    { exports: { '.': { import: './esm/index.js' } } },
  );
  await app.addPackage('acme-nothing', { 'index.js': 'export const helper = 1;\n' });
  await app.write(
    'plugins/clock.js',
    `import { definePlugin } from '@tessera/core';
export default definePlugin({ id: 'clock', prepare: ({ context }) => void context.push({ text: 'It is noon.' }) });
`,
  );
});
afterAll(async () => app?.remove());

/** The command's configuration for a config file written into the app folder. */
const loadFile = async (name: string, text: string) => {
  const file = await app.write(name, text);
  return loadConfig({ env: { TESSERA_CONFIG: file }, cwd: app.root });
};

describe('a config file', () => {
  it('tessera.config.json names plugin packages (with options) and local files, resolved from its folder', async () => {
    const { options } = await loadFile(
      'tessera.config.json',
      JSON.stringify({
        plugins: [
          { package: 'acme-greetings', options: { greeting: 'Ahoy' } },
          '@acme/stock',
          './plugins/clock.js',
        ],
        defaultPlugins: false,
        dataDir: join(app.root, 'data-json'),
        auth: { tokens: { [ALICE]: 'alice' } },
      }),
    );
    expect(options.plugins?.map((plugin) => plugin.id)).toEqual(['greet', 'stock', 'clock']);
    const model = new ScriptedModel([callTool('greet.hello', { name: 'Ada' }), reply('Done.')]);
    const server = await createServer({ ...options, model, webDir: null });
    try {
      const conversation = await server.platform.conversations.create({ userId: 'alice' });
      const prompt = await server.platform.send({
        conversationId: conversation.id,
        userId: 'alice',
        input: 'hi',
      });
      expect(prompt.output[0]).toMatchObject({
        toolId: 'greet.hello',
        result: { type: 'success', output: 'Ahoy, Ada!' },
      });
      expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['greet.hello']);
      expect(model.requests[0]?.instructions).toContain('Stock levels: 12 bolts.');
      expect(model.requests[0]?.instructions).toContain('It is noon.');
    } finally {
      await server.close({ graceMs: 50 });
    }
  });

  it('names the built-in plugin packages, with options, by their default exports', async () => {
    const directory = join(app.root, 'files-json');
    const { options } = await loadFile(
      'builtins.json',
      JSON.stringify({
        plugins: [
          '@tessera/plugin-widgets',
          { package: '@tessera/plugin-files', options: { directory, maxFileBytes: 100 } },
        ],
        defaultPlugins: false,
        dataDir: join(app.root, 'data-builtins'),
      }),
    );
    expect(options.plugins?.map((plugin) => plugin.id)).toEqual(['widgets', 'files']);
    const server = await createServer({ ...options, model: new ScriptedModel([]), webDir: null });
    try {
      const files = server.platform.services.resolve(FileServiceToken);
      const owner = { userId: 'alice', conversationId: 'cnv_1' };
      const upload = await files.upload({ name: 'a.txt', content: 'small' }, owner);
      expect(await readdir(directory)).toContain(upload.storage.key);
      await expect(files.upload({ name: 'b.txt', content: 'x'.repeat(200) }, owner)).rejects.toThrow(
        'larger than the limit of 100 B',
      );
    } finally {
      await server.close({ graceMs: 50 });
    }

    const error = await loadFile(
      'builtins-invalid.json',
      JSON.stringify({ plugins: [{ package: '@tessera/plugin-files', options: { maxFileBytes: 'big' } }] }),
    ).catch((caught: unknown) => caught);
    expect((error as Error).message.split('\n').slice(1)).toEqual([
      `  plugins[0] "@tessera/plugin-files": its plugin factory failed on the options given: Plugin 'files': its options are not valid:`,
      '  - maxFileBytes: Invalid input: expected number, received string.',
    ]);
  });

  it('tessera.config.ts, typed with defineConfig, is found in the current folder and holds plugin objects', async () => {
    await app.write(
      'ts-app/tessera.config.ts',
      `import { createTool, definePlugin } from '@tessera/core';
import { defineConfig } from '@tessera/server';
import { z } from 'zod';

const notes = definePlugin({
  id: 'notes',
  tools: [
    createTool({
      id: 'notes.add',
      description: 'Adds a note.',
      input: z.object({ text: z.string() }),
      invoke: ({ input }) => ({ added: input.text }),
    }),
  ],
});

export default defineConfig({
  plugins: [notes, { package: 'acme-greetings', options: { greeting: 'Hi' } }],
  historyTokens: 50_000,
  limits: { maxBodyBytes: 2_000_000, maxUploadBytes: 30_000_000 },
});
`,
    );
    const { file, options } = await loadConfig({ env: { PORT: '4555' }, cwd: join(app.root, 'ts-app') });
    expect(file).toBe(join(app.root, 'ts-app', 'tessera.config.ts'));
    expect(options.plugins?.map((plugin) => plugin.id)).toEqual(['notes', 'greet']);
    expect(options).toMatchObject({ historyTokens: 50_000, port: 4555, defaultPlugins: true });
    expect(options.limits).toMatchObject({ maxBodyBytes: 2_000_000, maxUploadBytes: 30_000_000 });
  });

  it('names each plugin that cannot be loaded, and what is wrong, in one error', async () => {
    const error = await loadFile(
      'broken.json',
      JSON.stringify({
        plugins: [
          '@acme/missing',
          'acme-nothing',
          { package: 'acme-greetings', options: { greeting: 42 } },
          { package: '@acme/stock', options: { level: 1 } },
          './plugins/nowhere.js',
          17,
        ],
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toBe(`Cannot load 6 plugins of ${join(app.root, 'broken.json')}:`);
    const problem = (i: number) => lines.find((line) => line.startsWith(`  plugins[${i}] `)) ?? '';
    expect(problem(0)).toBe(
      `  plugins[0] "@acme/missing": the package is not installed where the config file is (looked in node_modules from ${app.root} up); install it there (npm install @acme/missing) or correct the name.`,
    );
    expect(problem(1)).toBe(
      '  plugins[1] "acme-nothing": it has no plugin export: give it a default export or an export named "plugin" (a plugin from definePlugin, or a plugin factory); its exports are helper.',
    );
    expect(problem(2)).toContain(
      'plugins[2] "acme-greetings": its plugin factory failed on the options given:',
    );
    expect((error as Error).message).toContain('greeting');
    expect(problem(3)).toBe(
      '  plugins[3] "@acme/stock": it exports a plugin, not a plugin factory, so it takes no options: remove "options".',
    );
    expect(problem(4)).toBe(
      `  plugins[4] "./plugins/nowhere.js": there is no such file (looked for ${join(app.root, 'plugins/nowhere.js')}).`,
    );
    expect(problem(5)).toContain(
      'plugins[5] "?": it is number 17: give a plugin (TS/JS config), a package name',
    );
  });

  it('refuses unknown keys and values a JSON file cannot give', async () => {
    const error = await loadFile(
      'typo.json',
      JSON.stringify({ plugin: ['acme-greetings'], model: 'gpt-5' }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('Unrecognized key: "plugin"');
    expect((error as Error).message).toContain('in JSON, use "openai" instead');
  });
});

/** Runs `tessera-server` in a folder; resolves with its URL once it listens, or with how it exited. */
function runCommand(cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../src/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const link = /Tessera is running: (\S+)/.exec(line)?.[1];
      if (link) resolve(link);
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  listening.catch(() => {}); // a run expected to fail reads `exited` only
  return { child, listening, exited };
}

describe('the tessera-server command', () => {
  it('serves the plugins of tessera.config.ts in its folder (with the demo model, as no model is configured)', async () => {
    const run = runCommand(join(app.root, 'ts-app'), { TESSERA_DATA_DIR: join(app.root, 'data-command') });
    try {
      const link = new URL(await run.listening);
      const token = new URLSearchParams(link.hash.slice(1)).get('token')!;
      const me = await fetch(`${link.origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      const info = (await me.json()) as { model: { demo: boolean }; plugins: string[] };
      expect(info.model.demo).toBe(true);
      expect(info.plugins).toEqual([
        'widgets',
        'files',
        'triggers',
        'goals',
        'skills',
        'blueprints',
        'instructions',
        'doom-loop',
        'notes',
        'greet',
        'demo',
      ]);
    } finally {
      run.child.kill('SIGTERM');
    }
    expect((await run.exited).code).toBe(0);
  });

  it('stops at start with the one error when a plugin cannot be loaded', async () => {
    await app.write('bad-app/tessera.config.json', JSON.stringify({ plugins: ['@acme/missing'] }));
    const { code, stderr } = await runCommand(join(app.root, 'bad-app'), {}).exited;
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `Cannot load a plugin of ${join(app.root, 'bad-app', 'tessera.config.json')}:`,
      `  plugins[0] "@acme/missing": the package is not installed where the config file is (looked in node_modules from ${join(app.root, 'bad-app')} up); install it there (npm install @acme/missing) or correct the name.`,
    ]);
  });
});
