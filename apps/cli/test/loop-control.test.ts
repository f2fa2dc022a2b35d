import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/tessera.js', import.meta.url));
const TOKEN = 'cli-loop-token-0123456789';

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let dataDir: string;
const model = new ScriptedModel();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-cli-loop-'));
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
});

type Run = { code: number | null; stdout: string; stderr: string };

/** The real `tessera` command, in a child process, against this test's server. */
function start(args: string[], env: Record<string, string | undefined> = {}) {
  const { INIT_CWD, npm_lifecycle_event, TESSERA_TOKEN, TESSERA_URL, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dataDir,
    env: { ...inherited, NO_COLOR: '1', TESSERA_URL: url, TESSERA_TOKEN: TOKEN, ...env },
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (run.stdout += chunk));
  child.stderr.on('data', (chunk) => (run.stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ ...run, code })));
  /** Resolves with stdout once it shows `text`. */
  const printed = (text: string) =>
    new Promise<string>((resolve) => {
      const check = () => run.stdout.includes(text) && resolve(run.stdout);
      child.stdout.on('data', check);
      check();
    });
  return { done, printed };
}

const tessera = (args: string[], env: Record<string, string | undefined> = {}) => start(args, env).done;

const conversationOf = (run: Run) => /\[conversation (\S+)\]/.exec(run.stderr)?.[1];
const toolCallOf = (run: Run) => /approve: tessera approve (\S+)/.exec(run.stdout)?.[1];

describe('loop control from the command line', () => {
  it('queues and steers while a prompt waits, lists and removes waiting messages', async () => {
    model.push(callTool('demo.delete_records', { names: ['alpha'] }), reply('Deleted alpha.'));
    const asked = await tessera(['send', 'delete records alpha']);
    expect(asked.code).toBe(3);
    const conversation = conversationOf(asked)!;

    const busy = await tessera(['send', '-c', conversation, 'more']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/send with --steer .* or --queue/);
    expect(busy.stderr).toContain(`or stop it first: tessera stop ${conversation}\n`);

    const queued = await tessera(['send', '-c', conversation, '--queue', 'and then this']);
    expect([queued.code, queued.stderr]).toEqual([0, expect.stringMatching(/^Queued msg_\S+: it runs when/)]);
    const steered = await tessera(['send', '-c', conversation, '--steer', 'keep a copy']);
    expect(steered.stderr).toMatch(/^Steering msg_\S+: the assistant reads it at its next step/);
    const listed = await tessera(['messages', conversation]);
    expect(listed.stdout).toMatch(/^msg_\S+ {2}queue {2}and then this\nmsg_\S+ {2}steer {2}keep a copy\n$/);

    const queuedId = /Queued (msg_\S+):/.exec(queued.stderr)![1]!;
    expect((await tessera(['messages', conversation, '--remove', queuedId])).stderr).toContain(
      `Removed ${queuedId}.`,
    );
    const gone = await tessera(['messages', conversation, '--remove', queuedId]);
    expect([gone.code, gone.stderr]).toEqual([1, expect.stringContaining('(not found)')]);
    const json = await tessera(['messages', conversation, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ mode: 'steer', input: 'keep a copy' }),
    ]);

    const approved = await tessera(['approve', toolCallOf(asked)!]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('(you, while it ran) keep a copy');
    expect(approved.stdout).toContain('Deleted alpha.');
    expect((await tessera(['messages', conversation])).stdout).toBe('No messages are waiting.\n');
  });

  it('approves with edited arguments given as JSON, and refuses arguments the tool does not take', async () => {
    model.push(callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Sent $50.'));
    const asked = await tessera(['send', 'send Ada $500']);
    const id = toolCallOf(asked)!;
    const notJson = await tessera(['approve', id, '--input', '{amount: 50}']);
    expect([notJson.code, notJson.stderr]).toEqual([1, expect.stringContaining('--input is not JSON')]);
    const invalid = await tessera(['approve', id, '--input', '{"amount": -1, "to": "Ada"}']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('invalid_approval_input');
    expect((await tessera(['pending'])).stdout).toContain(`${id}  demo.transfer`);

    const approved = await tessera(['approve', id, '--input', '{"amount": 50, "to": "Ada"}']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('"transferred":50');
    expect(approved.stdout).toContain('Sent $50.');
  });

  it('changes one argument with --set, and says Approved only once the server took it', async () => {
    model.push(callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Sent.'));
    const asked = await tessera(['send', 'send Ada $500']);
    const id = toolCallOf(asked)!;
    // --input replaces all the arguments: without "to", the tool's schema refuses them, and the call waits.
    const partial = await tessera(['approve', id, '--input', '{"amount": 50}']);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('invalid_approval_input');
    expect(partial.stderr).toContain(
      '--input replaces all the arguments: to change one, keep the others with --set',
    );
    expect(partial.stderr).not.toContain('Approved');
    const malformed = await tessera(['approve', id, '--set', 'amount']);
    expect([malformed.code, malformed.stderr]).toEqual([1, expect.stringContaining('--set takes key=value')]);

    const approved = await tessera(['approve', id, '--set', 'amount=50', '--set', 'memo=rent']);
    expect(approved.code).toBe(0);
    const said = /^Approved demo\.transfer with (\{.*\})\.$/m.exec(approved.stderr)?.[1];
    expect(JSON.parse(said!)).toEqual({ amount: 50, to: 'Ada', memo: 'rent' });
    expect(approved.stdout).toContain('"transferred":50,"to":"Ada"');
    const late = await tessera(['approve', id, '--set', 'amount=60']);
    expect([late.code, late.stderr]).toEqual([
      1,
      expect.stringContaining('is not waiting for your approval'),
    ]);
  });

  it('stops a prompt that waits for a decision, and one writing an answer', async () => {
    model.push(callTool('demo.delete_records', { names: ['alpha'] }));
    const asked = await tessera(['send', 'delete records alpha']);
    const waiting = conversationOf(asked)!;
    const stopped = await tessera(['stop', waiting]);
    expect([stopped.code, stopped.stderr]).toEqual([
      0,
      expect.stringMatching(/^Stopped prompt \S+ \(cancelled\)/),
    ]);
    const again = await tessera(['cancel', waiting]);
    expect([again.code, again.stderr]).toEqual([
      1,
      `tessera: Nothing runs in conversation ${waiting}: nothing to stop.\n`,
    ]);

    // An answer that streams its first words, then takes forever: until it is stopped from another terminal.
    model.push(reply(['First words. ', 'never these.'], { streamMs: 600_000 }));
    const running = start(['send', '--json', 'tell me a long story']);
    const started = JSON.parse((await running.printed('\n')).split('\n')[0]!);
    await running.printed('First words.');
    const json = await tessera(['stop', '--json', started.conversationId]);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ state: 'cancelled' })]);
    const run = await running.done;
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('never these.');
  });

  it('keeps the --url and --token typed in the commands it suggests, naming the token, never printing it', async () => {
    model.push(callTool('demo.delete_records', { names: ['gamma'] }), reply('Deleted gamma.'));
    const typed = { TESSERA_URL: undefined, TESSERA_TOKEN: undefined };
    const asked = await tessera(['--url', url, '--token', TOKEN, 'send', 'delete records gamma'], typed);
    expect(asked.code).toBe(3);
    expect(asked.stdout).not.toContain(TOKEN);
    const suggested = new RegExp(`approve: (tessera --url ${url} --token "\\$TESSERA_TOKEN" approve \\S+)`);
    const command = suggested.exec(asked.stdout)?.[1];
    expect(command, asked.stdout).toBeDefined();
    // Run as the shell would, with the token in the variable the suggestion names.
    const args = command!.replace('"$TESSERA_TOKEN"', TOKEN).split(' ').slice(1);
    const approved = await tessera(args, { TESSERA_URL: undefined });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Deleted gamma.');
    // Copied without the variable set, the token is empty: said, not sent as no token.
    const empty = await tessera(['--token', '', 'list'], typed);
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('--token is empty')]);
  });

  it('ends 0 through `pnpm tessera` when the prompt waits (pnpm reports other codes as failures), 3 otherwise', async () => {
    model.push(callTool('demo.delete_records', { names: ['delta'] }));
    const throughPnpm = { npm_lifecycle_event: 'tessera', INIT_CWD: dataDir };
    const asked = await tessera(['send', 'delete records delta'], throughPnpm);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('approve: pnpm tessera approve ');
    const listed = await tessera(['pending', '--json']);
    expect((await tessera(['stop', JSON.parse(listed.stdout)[0].conversationId])).code).toBe(0);
    model.push(callTool('demo.delete_records', { names: ['delta'] }));
    const direct = await tessera(['send', 'delete records delta']);
    expect(direct.code).toBe(3);
    expect((await tessera(['stop', conversationOf(direct)!])).code).toBe(0);
  });

  it('shows a pause in pending, and resumes it with continue or stop', async () => {
    const weather = () => callTool('demo.weather', { city: 'Oslo' });
    model.push(weather(), weather(), weather(), reply('Oslo is cold.'));
    const paused = await tessera(['send', 'weather in Oslo']);
    expect(paused.code).toBe(3);
    const pauseId = /tessera resume (\S+) continue/.exec(paused.stdout)?.[1];
    expect(pauseId).toBeDefined();
    const pending = await tessera(['pending']);
    expect(pending.stdout).toContain(`${pauseId}  repeating itself`);
    expect(pending.stdout).toContain(`tessera resume ${pauseId} continue|stop`);

    const wrong = await tessera(['resume', pauseId!, 'maybe']);
    expect(wrong.code).toBe(2);
    const resumed = await tessera(['resume', pauseId!, 'continue']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Oslo is cold.');
    expect((await tessera(['pending'])).stdout).toContain('Nothing is waiting for your approval.');
  });

  it('shows a budget pause with the command that continues with a larger budget, and continues with it', async () => {
    // Five calls failing in a row (different cities, so not a repeat): the default maxConsecutiveToolErrors.
    const cities = ['', ' '.repeat(61), 'x'.repeat(70), 'y'.repeat(80), 'z'.repeat(90)];
    model.push(...cities.map((city) => callTool('demo.weather', { city })), reply('Giving up on those.'));
    const paused = await tessera(['send', 'weather in odd places']);
    expect(paused.code).toBe(3);
    const hint = /tessera resume (\S+) continue --budget maxConsecutiveToolErrors=10/.exec(paused.stdout);
    expect(hint, paused.stdout).not.toBeNull();
    const pauseId = hint![1]!;
    const pending = await tessera(['pending']);
    expect(pending.stdout).toContain(`${pauseId}  reached its maxConsecutiveToolErrors budget`);
    expect(pending.stdout).toContain(
      `tessera resume ${pauseId} continue --budget maxConsecutiveToolErrors=10|stop`,
    );

    const malformed = await tessera(['resume', pauseId, 'continue', '--budget', 'maxRounds']);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('--budget takes name=limit');
    const refused = await tessera(['resume', pauseId, 'continue']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('maxConsecutiveToolErrors');
    const resumed = await tessera(['resume', pauseId, 'continue', '--budget', 'maxConsecutiveToolErrors=10']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Giving up on those.');
  });
});
