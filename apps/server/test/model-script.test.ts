import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createServer, loadConfig } from '../src/index.ts';
import { stripJsonComments } from '../src/model-script.ts';
import { ALICE } from './harness.ts';
import { appFolder } from './support/app-folder.ts';

let app: Awaited<ReturnType<typeof appFolder>>;

const NOTES = `
import { createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';

const notes = [];
export default definePlugin({
  id: 'notes',
  tools: [
    createTool({
      id: 'notes.add',
      description: 'Adds a note.',
      input: z.object({ text: z.string().min(1) }),
      invoke: ({ input }) => {
        notes.push(input.text);
        return { count: notes.length };
      },
    }),
  ],
});
`;

// What a plugin author writes: rules tried in order, with comments.
const TURNS = `// The scripted model of this app: no API key needed.
[
  {
    "when": "^add (?<text>.+)$", // a note, then what the tool said
    "call": { "tool": "notes.add", "input": { "text": "$<text>" } },
    "reply": "Added “$<text>”.",
  },
  { "when": "^count$", "call": { "tool": "notes.add", "input": { "text": "counted" } } },
  /* anything else */
  { "when": "^hello", "reply": "Hello! Say “add <a note>”." },
]
`;

beforeAll(async () => {
  app = await appFolder();
  await app.write('plugins/notes.js', NOTES);
  await app.write('turns.jsonc', TURNS);
});
afterAll(async () => app?.remove());

const loadFile = async (name: string, config: unknown) => {
  const file = await app.write(name, typeof config === 'string' ? config : JSON.stringify(config));
  return loadConfig({ env: { TESSERA_CONFIG: file }, cwd: app.root });
};

describe('a scripted model a config names', () => {
  it('answers prompts from a file of rules: a call with the match’s groups, then the reply', async () => {
    const { options } = await loadFile('tessera.config.json', {
      model: { script: './turns.jsonc' },
      plugins: ['./plugins/notes.js'],
      defaultPlugins: false,
      dataDir: `${app.root}/.tessera`,
      auth: { tokens: { [ALICE]: 'alice' } },
    });
    const server = await createServer({ ...options, webDir: null });
    try {
      expect(server.model).toEqual({ id: 'scripted', label: 'Scripted model (turns.jsonc)', demo: false });
      const { url } = await server.listen({ port: 0 });
      const headers = { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' };
      // biome-ignore lint/suspicious/noExplicitAny: the test reads whichever fields it asserts on
      type Body = any;
      const post = async (path: string, body: unknown): Promise<Body> =>
        (await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
      const { id } = await post('/api/conversations', {});
      const send = async (input: string): Promise<Body> => {
        const { prompt } = await post(`/api/conversations/${id}/prompts`, { input });
        for (;;) {
          const read: Body = await (await fetch(`${url}/api/prompts/${prompt.id}`, { headers })).json();
          if (read.state !== 'running') return read;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      const added = await send('add buy milk');
      expect(added.state).toBe('completed');
      expect(added.output).toMatchObject([
        { type: 'tool', toolId: 'notes.add', input: { text: 'buy milk' }, result: { output: { count: 1 } } },
        { type: 'text', text: 'Added “buy milk”.' },
      ]);
      // A rule that calls without a reply answers with what the tool returned.
      expect((await send('count')).output.at(-1)).toMatchObject({
        type: 'text',
        text: 'notes.add returned: {"count":2}',
      });
      expect((await send('hello there')).output).toMatchObject([
        { type: 'text', text: 'Hello! Say “add <a note>”.' },
      ]);
      expect((await send('what?')).output[0].text).toBe(
        'No rule of the script (Scripted model (turns.jsonc)) matches “what?”. Its rules answer: /^add (?<text>.+)$/, /^count$/, /^hello/.',
      );
    } finally {
      await server.close({ graceMs: 50 });
    }
  });

  it('says what is wrong with a script, naming the file and the rule', async () => {
    await app.write('bad.json', JSON.stringify([{ when: '(' }, { reply: 'ok', call: { input: {} } }, {}]));
    const error = await loadFile('bad-config.json', { model: { script: 'bad.json' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`Invalid model script ${app.root}/bad.json:`);
    expect(error.message).toContain('not a valid regular expression\n  → at [0].when');
    expect(error.message).toContain('→ at [1].call.tool');
    expect(error.message).toContain('a rule needs "reply", "call" or both\n  → at [2]');

    await app.write('broken.json', '[{ "reply": }]');
    const broken = await loadFile('broken-config.json', { model: { script: 'broken.json' } }).catch((e) => e);
    expect(broken.message).toContain(`The model script ${app.root}/broken.json is not JSON:`);
    const missing = await loadFile('missing-config.json', { model: { script: 'nowhere.json' } }).catch(
      (e) => e,
    );
    expect(missing.message).toContain(`Cannot read the model script ${app.root}/nowhere.json`);
    const wrong = await loadFile('wrong-config.json', { model: 'gpt-5' }).catch((e) => e);
    expect(wrong.message).toContain('or { "script": "./turns.json" }');
    expect(wrong.message).toContain('→ at model');
  });

  it('reads JSON with comments and trailing commas, leaving strings as they are', () => {
    const text = '{ "a": "x // not a comment /* nor this */", // a comment\n "b": [1, 2, /* two */ ], }';
    expect(JSON.parse(stripJsonComments(text))).toEqual({
      a: 'x // not a comment /* nor this */',
      b: [1, 2],
    });
    expect(JSON.parse(stripJsonComments('"a \\" // b"'))).toBe('a " // b');
  });
});
