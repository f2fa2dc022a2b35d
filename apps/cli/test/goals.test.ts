import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, demoPlugin } from '@tessera/server';
import { reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/tessera.js', import.meta.url));
const TOKEN = 'cli-goals-token-0123456789';

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let dataDir: string;
const model = new ScriptedModel();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-cli-goals-'));
  // The built-in plugins (goals among them) and the demo tools, one of which checks a criterion.
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
function tessera(args: string[]): Promise<Run> {
  const { INIT_CWD, npm_lifecycle_event, TESSERA_TOKEN, TESSERA_URL, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dataDir,
    env: { ...inherited, NO_COLOR: '1', TESSERA_URL: url, TESSERA_TOKEN: TOKEN },
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (run.stdout += chunk));
  child.stderr.on('data', (chunk) => (run.stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...run, code })));
}

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return response.json();
}

const newConversation = async () => ((await api('POST', '/api/conversations', {})) as { id: string }).id;

/** Polls the goal (its prompts run on the server) until it is in `state`. */
async function goalIn(conversationId: string, state: string) {
  for (let i = 0; i < 1_000; i++) {
    const goal = (await api('GET', `/api/conversations/${conversationId}/goal`)) as { state: string };
    if (goal.state === state) return goal;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the goal never got ${state}`);
}

describe('goals from the command line', () => {
  it('creates a goal that runs, shows it out of budget with the command that resumes it, and resumes it', async () => {
    model.push(reply('Looking at the weather first.'), reply('Still looking.'));
    const id = await newConversation();
    const created = await tessera([
      'goal',
      'create',
      id,
      '--objective',
      'Plan the picnic.',
      '--criterion',
      'Ada agrees with the place.',
      '--criterion',
      'The weather is checked.',
      '--check',
      'demo.weather',
      '--budget',
      'prompts=1',
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Objective: Plan the picnic.\n');
    expect(created.stdout).toContain('  ✗ c1  Ada agrees with the place.  [you confirm]\n');
    expect(created.stdout).toContain('  ✗ c2  The weather is checked.  [check demo.weather]\n');
    expect(created.stderr).toContain(`The agent works on it now; follow it with: tessera show ${id}`);

    await goalIn(id, 'budget_exhausted');
    const shown = await tessera(['goal', id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Goal gol_\S+ {2}out of budget {2}\(0\/2 criteria met\)\n/);
    expect(shown.stdout).toContain('Budget: prompts 1/1 (0 left)\n');
    expect(shown.stdout).toContain(`   resume: tessera goal resume ${id} --budget prompts=2\n`);

    const resumed = await tessera(['goal', 'resume', id, '--budget', 'prompts=2']);
    expect([resumed.code, resumed.stdout]).toEqual([0, expect.stringContaining('  active  ')]);
    await goalIn(id, 'budget_exhausted');

    // An ended goal cannot be stopped: the server's 409, said on one line.
    const stopped = await tessera(['goal', 'stop', id]);
    expect([stopped.code, stopped.stderr]).toEqual([1, expect.stringMatching(/^tessera: .*\(conflict\)\n$/)]);
  });

  it('pauses a goal, completes it by confirming its criterion, and lists goals (also as JSON)', async () => {
    const id = await newConversation();
    const created = await tessera([
      'goal',
      'create',
      id,
      '--objective',
      'Tidy the notes.',
      '--criterion',
      'Ada is happy with them.',
      '--no-start',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ state: 'active', conversationId: id });

    const paused = await tessera(['goal', 'pause', id, '--reason', 'Lunch first.']);
    expect(paused.stdout).toContain('Paused (user: Lunch first.)\n');
    expect(paused.stdout).toContain(`   resume: tessera goal resume ${id}\n`);
    expect(paused.stdout).toContain(`   confirm c1: tessera goal confirm ${id} c1 --note "…"\n`);

    const confirmed = await tessera(['goal', 'confirm', id, 'c1', '--note', 'They read well.']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain('  completed  (1/1 criteria met)\n');
    expect(confirmed.stdout).toContain('  ✓ c1  Ada is happy with them.  [you confirm]\n');
    expect(confirmed.stdout).toContain('      evidence (ada, ');
    expect(confirmed.stdout).toContain('): They read well.\n');

    const listed = await tessera(['goals']);
    expect(listed.stdout).toContain(`${id}  completed  1/1  Tidy the notes.\n`);
    const completed = await tessera(['goals', '--state', 'completed', '--json']);
    expect(
      (JSON.parse(completed.stdout) as { conversationId: string }[]).map((g) => g.conversationId),
    ).toEqual([id]);
  });

  it('says what is wrong: no goal, a --check before its --criterion, an unknown budget', async () => {
    const id = await newConversation();
    const none = await tessera(['goal', id]);
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('(not found)')]);
    const early = await tessera(['goal', 'create', id, '--objective', 'x', '--check', 'demo.weather']);
    expect([early.code, early.stderr]).toEqual([
      2,
      expect.stringContaining('Give --check after the --criterion'),
    ]);
    const budget = await tessera([
      'goal',
      'create',
      id,
      '--objective',
      'x',
      '--criterion',
      'y',
      '-b',
      'maxRounds=2',
    ]);
    expect([budget.code, budget.stderr]).toEqual([
      1,
      expect.stringContaining("A goal has no budget 'maxRounds'"),
    ]);
    const empty = await tessera(['goal', 'create', id, '--objective', 'x']);
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('at least one --criterion')]);
    expect((await tessera(['goal', id])).code).toBe(1); // nothing was created
  });
});
