import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliServer, until } from './support/cli-server.ts';

// Sub-agents in the CLI (issue 31): `pending` prints where each waiting call is (the user's prompt › each
// agent › the call) and that an agent's own call waits on its child; `show` prints each sub-agent's run
// inside the call that started it, indented, two levels down, or one line each with --no-agents.

const TOKEN = 'cli-agents-token-0123456789';

let t: Awaited<ReturnType<typeof cliServer>>;

const level = (name: string, next: string | undefined) =>
  defineAgent({
    name,
    description: `Level ${name}.`,
    instructions: next ? `Ask ${next}.` : 'Delete what you are told to.',
    tools: next ? [`agent.${next}`] : ['demo.delete_records'],
  });

const model = new ScriptedModel([
  callTool('agent.planner', { task: 'Clean alpha, via the cleaner.' }), // the user's prompt
  callTool('agent.cleaner', { task: 'Delete alpha.' }), // planner
  callTool('demo.delete_records', { names: ['alpha'] }), // cleaner: needs approval
  reply('cleaner: deleted alpha'),
  reply('planner: the cleaner deleted alpha'),
  reply('Alpha is deleted, two levels down.'),
]);

beforeAll(async () => {
  t = await cliServer('agents', TOKEN, {
    model,
    webDir: null,
    plugins: [
      demoPlugin,
      agentsPlugin({ agents: [level('planner', 'cleaner'), level('cleaner', undefined)] }),
    ],
  });
});
afterAll(async () => t?.close());

const tessera = (args: string[]) => t.tessera(args);

type Approval = { toolCallId: string; toolId: string; promptId: string };
async function approvals(): Promise<Approval[]> {
  return ((await t.api('GET', '/api/approvals')) as { items: Approval[] }).items;
}

describe('sub-agents', () => {
  it('pending prints each call’s path; show nests each run inside its call, or one line each with --no-agents', async () => {
    const asked = await tessera(['send', 'Clean up alpha']);
    expect(asked.code).toBe(3);
    const conversationId = /\[conversation (\S+)\]/.exec(asked.stderr)?.[1];
    expect(conversationId).toBeDefined();
    // The three calls of the tree wait (listed once the deepest one is).
    await until(async () => ((await approvals()).length >= 3 ? true : undefined), 'three calls waiting');
    const byTool = (items: Approval[], toolId: string) => items.find((item) => item.toolId === toolId)!;
    const listed = await approvals();
    const deepest = byTool(listed, 'demo.delete_records');

    // The user's call waits on its agent: the stream says so, and where to decide, with no approve command.
    const plannerCall = byTool(listed, 'agent.planner');
    expect(asked.stdout).toContain("⏸  agent.planner is waiting: Agent 'planner' waits for your decision");
    expect(asked.stdout).toContain(
      '   what to decide: tessera pending  (it goes on by itself once that is decided)',
    );
    expect(asked.stdout).not.toContain(`tessera approve ${plannerCall.toolCallId}`);

    const pending = await tessera(['pending']);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain('    path: Clean up alpha › planner › cleaner › demo.delete_records\n');
    expect(pending.stdout).toContain('    path: Clean up alpha › planner › agent.cleaner\n');
    expect(pending.stdout).toContain(`tessera approve ${deepest.toolCallId}\n`);
    // The agents' own calls wait on their child: no approve command for them.
    const cleanerCall = byTool(listed, 'agent.cleaner');
    expect(pending.stdout).toContain(
      `waits on its agent's prompt ${deepest.promptId} (its call ${deepest.toolCallId}): decide that, and this goes on by itself`,
    );
    expect(pending.stdout).not.toContain(`tessera approve ${cleanerCall.toolCallId}`);

    // While it waits: the runs nested, the agents' calls waiting on them.
    const waiting = await tessera(['show', conversationId!]);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toMatch(/^▸ agent\.planner .*\n {2}↳ planner: "Clean alpha, via the cleaner\."/m);
    expect(waiting.stdout).toMatch(/^ {2}│ ▸ agent\.cleaner .*\n {2}│ {3}↳ cleaner: "Delete alpha\."/m);
    expect(waiting.stdout).toMatch(/^ {2}│ {3}│ ▸ demo\.delete_records \{"names":\["alpha"\]\}$/m);
    expect(waiting.stdout).toContain(`  │   │ ⏸  demo.delete_records needs your approval`);
    expect(waiting.stdout).toContain('  │   ⏸ waits on cleaner: decide the call in its run');
    expect(waiting.stdout).toContain('\n  ⏸ waits on planner: decide the call in its run');

    expect((await tessera(['approve', deepest.toolCallId])).code).toBe(0);
    await until(
      async () => (await tessera(['show', conversationId!])).stdout.includes('Alpha is deleted') || undefined,
      'the answer in show',
    );
    const done = await tessera(['show', conversationId!]);
    const lines = done.stdout.split('\n');
    const at = (text: string) => lines.findIndex((line) => line.includes(text));
    // Each run inside its call: after the call, before the call's result; the deeper one indented further.
    expect(lines[at('▸ agent.planner') + 1]).toMatch(/^ {2}↳ planner: /);
    expect(at('  │   │ ▸ demo.delete_records')).toBeGreaterThan(at('  │   ↳ cleaner: '));
    expect(lines).toContain('  │   │   ✓ {"deleted":["alpha"]}');
    expect(lines).toContain('  │   │ cleaner: deleted alpha');
    expect(lines).toContain('  │ planner: the cleaner deleted alpha');
    expect(at('  │ planner: the cleaner deleted alpha')).toBeLessThan(at('  ✓ {"agent":"planner"'));
    expect(done.stdout).toContain('Alpha is deleted, two levels down.');

    // One level only, then none: each run not shown is a line saying where it is.
    const one = await tessera(['show', conversationId!, '--depth', '1']);
    expect(one.stdout).toContain('  ↳ planner: ');
    expect(one.stdout).toMatch(/^ {2}│ {3}↳ cleaner \(completed\): tessera show \S+$/m);
    expect(one.stdout).not.toContain('demo.delete_records');
    const none = await tessera(['show', conversationId!, '--no-agents']);
    expect(none.stdout).toMatch(/^ {2}↳ planner \(completed\): tessera show \S+$/m);
    expect(none.stdout).not.toContain('│');
    expect((await tessera(['show', conversationId!, '--depth', '9'])).code).toBe(2);
  });
});
