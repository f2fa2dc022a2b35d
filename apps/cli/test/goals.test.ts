import { demoPlugin } from '@tessera/server';
import { reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliServer, until } from './support/cli-server.ts';

const TOKEN = 'cli-goals-token-0123456789';
const model = new ScriptedModel();

let t: Awaited<ReturnType<typeof cliServer>>;
// The built-in plugins (goals among them) and the demo tools, one of which checks a criterion.
beforeAll(async () => {
  t = await cliServer('goals', TOKEN, { model, plugins: [demoPlugin] });
});
afterAll(async () => t?.close());

const tessera = (args: string[]) => t.tessera(args);
const api = (method: string, path: string, body?: unknown) => t.api(method, path, body);

const newConversation = async () => ((await api('POST', '/api/conversations', {})) as { id: string }).id;

/** Polls the goal (its prompts run on the server) until it is in `state`. */
async function goalIn(conversationId: string, state: string) {
  return until(async () => {
    const goal = (await api('GET', `/api/conversations/${conversationId}/goal`)) as { state: string };
    return goal.state === state ? goal : undefined;
  }, `the goal ${state}`);
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
