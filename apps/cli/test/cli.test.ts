import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/tessera.js', import.meta.url));
const TOKEN = 'cli-token-0123456789';

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let dataDir: string;
let workDir: string;

// The model's turns, in the order the tests below use them (they run one after another).
const model = new ScriptedModel([
  callTool('demo.report', { products: 3 }),
  reply('Here is the report.'),
  callTool('demo.delete_records', { names: ['alpha'] }),
  reply(['Deleted ', 'alpha.']),
  callTool('demo.delete_records', { names: ['beta'] }),
  reply('Understood: beta stays.'),
  callTool('demo.delete_records', { names: ['gamma'] }),
  reply('Noted: gamma was deleted by hand.'),
  callTool('demo.delete_records', { names: ['delta'] }),
  reply('Going on without deleting delta.'),
  reply(['Hello ', 'from ', 'Tessera.']),
  reply('Got your notes.'),
  // Streams its first words, then takes forever: until Ctrl-C stops it.
  reply(['Part one. ', 'part two.'], { streamMs: 600_000 }),
  reply('Found by the token file.'),
]);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-cli-server-'));
  workDir = await mkdtemp(join(tmpdir(), 'tessera-cli-work-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
  });
  ({ url } = await server.listen({ port: 0 }));
});
afterAll(async () => {
  await server?.close({ graceMs: 50 });
  await rm(dataDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

type Run = { code: number | null; stdout: string; stderr: string };

/** The real `tessera` command, in a child process (on this Node), against the server of this test. */
function start(args: string[], env: Record<string, string | undefined> = {}, cwd = workDir) {
  const { INIT_CWD, npm_lifecycle_event, TESSERA_TOKEN, TESSERA_URL, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...inherited, NO_COLOR: '1', TESSERA_URL: url, TESSERA_TOKEN: TOKEN, ...env },
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (run.stdout += chunk));
  child.stderr.on('data', (chunk) => (run.stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ ...run, code })));
  /** Resolves once stdout shows `text`. */
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => run.stdout.includes(text) && resolve();
      child.stdout.on('data', check);
      check();
    });
  return { child, done, printed };
}

const tessera = (args: string[], env: Record<string, string | undefined> = {}, cwd = workDir) =>
  start(args, env, cwd).done;

const conversationOf = (run: Run) => /\[conversation (\S+)\]/.exec(run.stderr)?.[1];

describe('help', () => {
  it('lists every command, and each command has its own help', async () => {
    const help = await tessera(['--help']);
    expect(help.code).toBe(0);
    const commands = [
      'send',
      'approve',
      'reject',
      'answer',
      'skip',
      'stop',
      'pending',
      'list',
      'show',
      'fork',
      'download',
    ];
    for (const command of commands) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(help.stdout).toContain('TESSERA_URL');
    for (const command of commands) {
      const own = await tessera([command, '--help']);
      expect(own.code).toBe(0);
      expect(own.stdout).toContain(`Usage: tessera ${command}`);
    }
    expect((await tessera(['send', '--help'])).stdout).toContain('--json');
  });

  it('answers a mistake with usage, not a stack', async () => {
    const wrong = await tessera(['approve']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("missing required argument 'toolCallId'");
  });
});

describe('send', () => {
  it('streams tool calls, widgets as text tables and file links', async () => {
    const run = await tessera(['send', 'make', 'a', 'sales', 'report']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('▸ demo.report {"products":3}');
    expect(run.stdout).toContain('Report ready: 100% (3/3) (done)');
    // The table widget: a header row and one row per product, in a grid.
    // Numbers right-aligned, under headers aligned the same way.
    expect(run.stdout).toMatch(/│ Product C\s+│\s+\d+ │\s+\d+ │/);
    expect(run.stdout).toMatch(/│ Product\s+│ Units │ Revenue \(\$\) │/);
    expect(run.stdout).toMatch(/✓ \{"products":3,"totalRevenue":\d+,"file":"file_/);
    const conversation = conversationOf(run);
    const fileId = /\/files\/(file_[\w-]+)/.exec(run.stdout)?.[1];
    expect(run.stdout).toContain(`📎 sales-report.csv (text/csv`);
    expect(run.stdout).toContain(`${url}/api/conversations/${conversation}/files/${fileId}`);
    expect(run.stdout).toContain(`tessera download ${conversation} ${fileId}`);
    expect(run.stdout.trimEnd().endsWith('Here is the report.')).toBe(true);

    // The link's command saves the file (the link itself needs the token).
    const saved = await tessera(['download', conversation!, fileId!]);
    expect(saved.code).toBe(0);
    expect(await readFile(join(workDir, 'sales-report.csv'), 'utf8')).toMatch(
      /^product,units,revenue\nProduct A,/,
    );
    const again = await tessera(['download', conversation!, fileId!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    // `show` renders the same record from the store.
    const shown = await tessera(['show', conversation!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('> make a sales report');
    expect(shown.stdout).toMatch(/│ Product B\s+│/);
    expect(shown.stdout).toContain('Here is the report.');
    const listed = await tessera(['list']);
    expect(listed.stdout).toMatch(new RegExp(`^${conversation}  .*make a sales report`, 'm'));
  });

  it('stops at an approval with its id; approve streams the answer that follows', async () => {
    const asked = await tessera(['send', 'delete records alpha']);
    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain(
      '⏸  demo.delete_records needs your approval: This permanently deletes 1 record(s): alpha.',
    );
    const toolCallId = /approve: tessera approve (\S+)/.exec(asked.stdout)?.[1];
    expect(toolCallId).toBeDefined();
    expect((await tessera(['pending'])).stdout).toContain(`${toolCallId}  demo.delete_records`);

    const approved = await tessera(['approve', toolCallId!]);
    expect(approved.code).toBe(0);
    expect(approved.stderr).toContain('Approved demo.delete_records.');
    expect(approved.stdout).toContain('✓ {"deleted":["alpha"]}');
    expect(approved.stdout).toContain('Deleted alpha.');
    expect(conversationOf(approved)).toBe(conversationOf(asked));

    const twice = await tessera(['approve', toolCallId!]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^tessera: .+\(conflict|^tessera: .+/);
    expect((await tessera(['pending'])).stdout).toContain('Nothing is waiting for your approval.');
  });

  it('reject sends the reason to the model and streams its answer', async () => {
    const asked = await tessera(['send', 'delete records beta']);
    const toolCallId = /approve: tessera approve (\S+)/.exec(asked.stdout)?.[1];
    const rejected = await tessera(['reject', toolCallId!, '--reason', 'keep beta']);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain('✗ rejected: keep beta\n');
    expect(rejected.stdout).toContain('Understood: beta stays.');
  });

  it('answer gives the call its result without running it (JSON, or else the text), and streams the answer', async () => {
    const asked = await tessera(['send', 'delete records gamma']);
    expect(asked.stdout).toMatch(/answer: {2}tessera answer call_\S+ '<result>'/);
    expect(asked.stdout).toMatch(/skip: {4}tessera skip call_\S+/);
    const toolCallId = /approve: tessera approve (\S+)/.exec(asked.stdout)?.[1];
    expect((await tessera(['answer', toolCallId!])).code).toBe(2); // the result is required
    const answered = await tessera(['answer', toolCallId!, '{"deleted": ["gamma"], "by": "hand"}']);
    expect(answered.code).toBe(0);
    expect(answered.stderr).toContain('Answered demo.delete_records.');
    expect(answered.stdout).toContain('✓ answered by you: {"deleted":["gamma"],"by":"hand"}');
    expect(answered.stdout).toContain('Noted: gamma was deleted by hand.');
    const request = model.requests.at(-1)!.messages.find((m) => m.type === 'function_call_output');
    expect(request?.type === 'function_call_output' && request.output).toContain(
      'The user answered this call',
    );
    const twice = await tessera(['skip', toolCallId!]);
    expect(twice.code).toBe(1);
  });

  it('skip does not run the call; the model goes on without it', async () => {
    const asked = await tessera(['send', 'delete records delta']);
    const toolCallId = /approve: tessera approve (\S+)/.exec(asked.stdout)?.[1];
    const skipped = await tessera(['skip', toolCallId!, '--reason', 'not today']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('Skipped demo.delete_records.');
    expect(skipped.stdout).toContain('↷ skipped: not today\n');
    expect(skipped.stdout).toContain('Going on without deleting delta.');
    const request = model.requests.at(-1)!.messages.findLast((m) => m.type === 'function_call_output');
    expect(request?.type === 'function_call_output' && request.output).toContain('chose to skip');
  });

  it('--json writes one event per line, the last one ending the prompt', async () => {
    const run = await tessera(['send', '--json', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0].type).toBe('prompt.started');
    expect(events.at(-1).type).toBe('prompt.completed');
    expect(events.at(-1).prompt.state).toBe('completed');
    const deltas = events.filter((event) => event.type === 'prompt.text-delta').map((event) => event.delta);
    expect(deltas.join('')).toBe('Hello from Tessera.');
    const list = JSON.parse((await tessera(['list', '--json'])).stdout);
    expect(list.map((c: { id: string }) => c.id)).toContain(events[0].conversationId);
  });
});

describe('attachments', () => {
  it('sends files with the message, shown as attached by the user', async () => {
    await writeFile(join(workDir, 'notes.txt'), 'buy milk\n');
    const run = await tessera(['send', '--file', 'notes.txt']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^📎 you attached notes\.txt \(text\/plain, 9 B\)$/m);
    expect(run.stdout).toContain('Got your notes.');
    // `show` heads the prompt by what started it: no text here, not a trigger.
    const shown = await tessera(['show', conversationOf(run)!]);
    expect(shown.stdout).toMatch(/^> \(no text\) {2}\[prm_/m);
  });

  it("shows a tool the user ran (the web UI's tool runner) as that, not as started by a trigger", async () => {
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/conversations`, { method: 'POST', headers, body: '{}' });
    const { id } = (await created.json()) as { id: string };
    const ran = await fetch(`${url}/api/conversations/${id}/tool-runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ toolId: 'demo.weather', input: { city: 'Oslo' } }),
    });
    expect(ran.status).toBe(202);
    let shown: Run;
    do shown = await tessera(['show', id]);
    while (shown.stdout.includes('(running)'));
    expect(shown.stdout).toMatch(/^> \(you ran demo\.weather\) {2}\[prm_/m);
    expect(shown.stdout).not.toContain('trigger');
  });

  it('refuses a missing file before creating anything', async () => {
    const before = JSON.parse((await tessera(['list', '--json'])).stdout).length;
    const run = await tessera(['send', '-f', 'missing.txt', 'read this']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `tessera: Cannot attach ${join(workDir, 'missing.txt')}: there is no such file.\n`,
    );
    expect(JSON.parse((await tessera(['list', '--json'])).stdout).length).toBe(before);
  });
});

describe('Ctrl-C', () => {
  it('stops the answer being streamed, as the stop button does', async () => {
    const running = start(['send', 'tell me a long story']);
    await running.printed('Part one.');
    running.child.kill('SIGINT');
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('Stopping the answer…');
    expect(run.stdout).toMatch(/^✗ cancelled: /m);
    expect(run.stdout).not.toContain('part two.');
    const { prompts } = JSON.parse((await tessera(['show', '--json', conversationOf(run)!])).stdout);
    expect(prompts[0].state).toBe('cancelled');
  });
});

describe('finding the server and its token', () => {
  it('reads the local token file, walking up to the workspace root', async () => {
    const workspace = join(workDir, 'checkout');
    await mkdir(join(workspace, 'apps', 'server', '.tessera'), { recursive: true });
    await mkdir(join(workspace, 'docs', 'deep'), { recursive: true });
    await writeFile(join(workspace, 'pnpm-workspace.yaml'), 'packages: []\n');
    await writeFile(join(workspace, 'apps', 'server', '.tessera', 'local-token'), `${TOKEN}\n`);
    const run = await tessera(
      ['send', 'hello'],
      { TESSERA_TOKEN: undefined },
      join(workspace, 'docs', 'deep'),
    );
    expect(run.stderr).not.toContain('tessera:');
    expect(run.stdout).toContain('Found by the token file.');
  });

  it('says that no token was found, and where tokens come from', async () => {
    const run = await tessera(['list'], { TESSERA_TOKEN: undefined }, tmpdir());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The server wants a token and none was found.');
    expect(run.stderr).toContain(
      'the server that wrote .tessera/local-token (an app, or the Tessera repository)',
    );
  });

  it('says that a token is refused, and where tokens come from', async () => {
    const run = await tessera(['list'], { TESSERA_TOKEN: 'wrong-token-000000000' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('This token is not valid.');
    expect(run.stderr).toContain('TESSERA_TOKEN');
  });

  it('names an unknown conversation instead of failing on its event stream', async () => {
    for (const args of [
      ['send', '-c', 'conv_nope', 'hi'],
      ['show', 'conv_nope'],
    ]) {
      const run = await tessera(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('tessera: Conversation conv_nope does not exist. (not found)\n');
    }
  });

  it('says how to start the server when none answers', async () => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const run = await tessera(['send', 'hi'], { TESSERA_URL: undefined, PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `tessera: No Tessera server at http://127.0.0.1:${port}: start it (\`npm start\` in an app, \`pnpm start\` in the Tessera repository), or point TESSERA_URL or PORT at it.\n`,
    );
  });
});

describe('fork', () => {
  it('branches a conversation at a prompt `show` names; the branch goes on without what came after', async () => {
    model.push(reply('Paris.'), reply('Rome.'), reply('Madrid.'));
    const first = await tessera(['send', 'Capital of France?']);
    const conversation = conversationOf(first)!;
    await tessera(['send', '-c', conversation, 'Capital of Italy?']);
    const shown = await tessera(['show', conversation]);
    const italy = /> Capital of Italy\? {2}\[(\S+)\]/.exec(shown.stdout)?.[1];
    expect(italy).toBeDefined();

    const forked = await tessera(['fork', conversation, italy!, '--title', 'Spain instead']);
    expect(forked.code).toBe(0);
    const branch = forked.stdout.trim();
    expect(forked.stderr).toContain(`sharing the 1 prompt before ${italy}`);
    const sent = await tessera(['send', '-c', branch, 'Capital of Spain?']);
    expect(sent.stdout).toContain('Madrid.');
    expect(model.read()).toContain('Paris.');
    expect(model.read()).not.toContain('Italy');
    const json = JSON.parse((await tessera(['show', '--json', branch])).stdout);
    expect(json.conversation).toMatchObject({
      title: 'Spain instead',
      forkOf: { conversationId: conversation },
    });
    expect(json.prompts.map((p: { input: string }) => p.input)).toEqual([
      'Capital of France?',
      'Capital of Spain?',
    ]);

    const refused = await tessera(['fork', conversation, 'prm_nope']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('prm_nope');
  });
});
