import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Prompt } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { pendingCall, reply } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueSchema } from '../../../packages/store-postgres/test/support/databases.ts';
import type { AgentRun } from '../src/index.ts';
import { approvedWork, callOf, type Process, processOn, userId, workerAgent } from './durable.ts';

// A real process, SIGKILLed while its parent prompt waits for its agent's child: nothing is lost, since
// neither holds a process; another process approves the child and the parent resumes there.

const WORKER = fileURLToPath(new URL('./support/waiting-worker.ts', import.meta.url));

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let survivor: Process | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await survivor?.platform.close();
  await database?.drop();
});

describe('a process killed while a parent waits for its agent', { timeout: 60_000 }, () => {
  it('another process approves the child, and the parent completes with its answer', async () => {
    const schema = uniqueSchema();
    const child = fork(WORKER, [], {
      execPath: process.execPath,
      execArgv: ['--disable-warning=ExperimentalWarning'],
      env: { ...process.env, DATABASE_URL: database!.url, TESSERA_SCHEMA: schema },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    const waiting = await Promise.race([
      new Promise<{ parentId: string; childId: string; state: string }>((resolve) =>
        child.once('message', (message) => resolve(message as never)),
      ),
      exited.then((code) => {
        throw new Error(`The worker exited before its parent waited (${String(code)}).`);
      }),
    ]);
    expect(waiting.state).toBe('waiting_for_approval');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const work = approvedWork();
    survivor = await processOn(await createPostgresStore({ connectionString: database!.url, schema }), {
      agents: [workerAgent],
      tools: [work.tool],
      script: { parent: [reply('Changed, says the worker.')], worker: [reply('I changed it.')] },
    });
    const { platform } = survivor;
    const stored = await platform.getPrompt(waiting.childId, userId);
    expect(stored.state).toBe('waiting_for_approval');
    await platform.approve(pendingCall(stored, 'work.do').id, { userId });
    let parent: Prompt = await platform.getPrompt(waiting.parentId, userId);
    while (!['completed', 'failed', 'cancelled'].includes(parent.state)) {
      await sleep(50);
      parent = await platform.getPrompt(waiting.parentId, userId);
    }
    expect(parent.state).toBe('completed');
    const result = callOf(parent, 'agent.worker').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('I changed it.');
    expect(work.runs).toEqual(['it']);
    expect(survivor.errors).toEqual([]);
  });
});
