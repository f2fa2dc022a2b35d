import { setTimeout as sleep } from 'node:timers/promises';
import type { Prompt, Store } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { callTool, pendingCall, reply } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueSchema } from '../../../packages/store-postgres/test/support/databases.ts';
import { type AgentRun, childPromptId } from '../src/index.ts';
import {
  approvedWork,
  callOf,
  countEvents,
  type Process,
  processOn,
  userId,
  workerAgent,
} from './durable.ts';

// Two processes (platforms over their own store, sharing one PostgreSQL database and its relay) both run the
// plugin: each hears the other's events, and the parent is still resumed exactly once.

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const processes: Process[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.platform.close()));
  await database?.drop();
});

const work = approvedWork();

/** A process over the test's schema: its own store (and relay connection), the plugin opened or not. */
async function processIn(schema: string, script: Parameters<typeof processOn>[1]['script'], open = true) {
  const store: Store = await createPostgresStore({ connectionString: database!.url, schema });
  const process = await processOn(store, { agents: [workerAgent], tools: [work.tool], script, open });
  processes.push(process);
  return process;
}

/** Polls the store until the prompt has ended (the relay may route its events elsewhere). */
async function endedIn(process: Process, promptId: string): Promise<Prompt> {
  for (;;) {
    const prompt = await process.platform.getPrompt(promptId, userId);
    if (['completed', 'failed', 'cancelled'].includes(prompt.state)) return prompt;
    await sleep(50);
  }
}

/** Process `a` runs a parent whose child waits for approval; resolves with both. */
async function parentWaitingIn(a: Process) {
  const conversation = await a.platform.conversations.create({ userId });
  const parent = await a.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
  expect(parent.state).toBe('waiting_for_approval');
  const child = await a.platform.getPrompt(childPromptId(callOf(parent, 'agent.worker').id), userId);
  expect(child.state).toBe('waiting_for_approval');
  return { parent, child };
}

const sum =
  (...counts: Map<string, number>[]) =>
  (id: string) =>
    counts.reduce((total, count) => total + (count.get(id) ?? 0), 0);

describe('two processes over one PostgreSQL database, both running the plugin', { timeout: 60_000 }, () => {
  it('the process that runs the child to its end resumes the parent, once', async () => {
    const schema = uniqueSchema();
    const first = {
      parent: [callTool('agent.worker', { task: 'Change it.' })],
      worker: [callTool('work.do', { what: 'it' })],
    };
    const a = await processIn(schema, { ...first, parent: [...first.parent, reply('From A.')] });
    const b = await processIn(schema, { parent: [reply('From B.')], worker: [reply('I changed it.')] });
    const resumed = sum(countEvents(a.platform, 'prompt.resumed'), countEvents(b.platform, 'prompt.resumed'));
    const { parent, child } = await parentWaitingIn(a);
    work.runs.length = 0;

    await b.platform.approve(pendingCall(child, 'work.do').id, { userId });
    const prompt = await endedIn(b, parent.id);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.worker').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('I changed it.');
    expect(prompt.output.at(-1)).toMatchObject({ type: 'text', text: 'From B.' });
    expect(work.runs).toEqual(['it']);
    expect(resumed(parent.id)).toBe(1);
    expect(resumed(child.id)).toBe(1);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('two processes that open at once both sweep, and the parent is resumed once', async () => {
    const schema = uniqueSchema();
    const a = await processIn(schema, {
      parent: [callTool('agent.worker', { task: 'Change it.' })],
      worker: [callTool('work.do', { what: 'it' })],
    });
    const { parent, child } = await parentWaitingIn(a);
    await a.platform.close();
    // The child ends in a process that never opened: nothing resumes the parent there.
    const quiet = await processIn(schema, { worker: [reply('I changed it.')] }, false);
    await quiet.platform.approve(pendingCall(child, 'work.do').id, { userId });
    expect((await quiet.platform.getPrompt(parent.id, userId)).state).toBe('waiting_for_approval');

    const [b, c] = [
      await processIn(schema, { parent: [reply('From B.')] }, false),
      await processIn(schema, { parent: [reply('From C.')] }, false),
    ];
    const resumed = sum(countEvents(b.platform, 'prompt.resumed'), countEvents(c.platform, 'prompt.resumed'));
    await Promise.all([b.platform.open(), c.platform.open()]);
    const prompt = await endedIn(b, parent.id);
    expect(prompt.state).toBe('completed');
    expect(resumed(parent.id)).toBe(1);
    expect(b.model.requests.length + c.model.requests.length).toBe(1);
    expect([...b.errors, ...c.errors, ...quiet.errors]).toEqual([]);
  });
});
