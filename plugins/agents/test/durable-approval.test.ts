import { PGlite } from '@electric-sql/pglite';
import { createTool, definePlugin, type Prompt, type Store } from '@tessera/core';
import { createPostgresStore } from '@tessera/store-postgres';
import { callTool, callTools, outputsOf, pendingCall, reply } from '@tessera/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentRun, agentRunOutput, childPromptId } from '../src/index.ts';
import {
  approvedWork,
  callOf,
  countEvents,
  processOn,
  sharedMemory,
  userId,
  workerAgent,
} from './durable.ts';
import { ended, searchTool } from './helpers.ts';

// A parent whose agent's child waits for approval does not wait with it: its call is suspended (pending in
// the store, the prompt waiting_for_approval, no process held), and the process that runs the child to its
// end resumes the parent, whichever it is.

let pglite: Promise<PGlite> | undefined;
afterAll(async () => {
  await (await pglite)?.close();
});

/** The file's in-memory PGlite database (made once: it takes seconds); each process opens its own store over it. */
async function sharedPglite(): Promise<() => Promise<Store>> {
  pglite ??= PGlite.create();
  const db = await pglite;
  return () => createPostgresStore({ pglite: db });
}

/** Starts a parent that calls `agent.worker`, whose child waits for approval; resolves with both, stored. */
async function parentWaiting(process: Awaited<ReturnType<typeof processOn>>) {
  const conversation = await process.platform.conversations.create({ userId });
  const parent = await process.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
  const call = callOf(parent, 'agent.worker');
  const child = await process.platform.getPrompt(childPromptId(call.id), userId);
  return { parent, call, child };
}

describe.each([
  ['memory', async () => sharedMemory()],
  ['PGlite', sharedPglite],
])('a parent whose child waits for approval (%s store)', { timeout: 60_000 }, (_, shared) => {
  it('waits in the store; another process approves the child, and the parent resumes by itself', async () => {
    const openStore = await shared();
    const work = approvedWork();
    const first = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' })],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const { parent, call, child } = await parentWaiting(first);
    expect(parent.state).toBe('waiting_for_approval');
    expect(call.result).toEqual({
      type: 'pending',
      reason: "Agent 'worker' waits for your decision in its conversation: work.do: It changes things.",
    });
    expect(child.state).toBe('waiting_for_approval');
    expect(outputsOf(parent, agentRunOutput)[0]).toMatchObject({
      state: 'waiting_for_approval',
      promptId: child.id,
      summary: "Agent 'worker' waits for a decision in its conversation: work.do: It changes things.",
    });
    await first.platform.close();

    const second = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: { parent: [reply('Changed, says the worker.')], worker: [reply('I changed it.')] },
    });
    const resumed = countEvents(second.platform, 'prompt.resumed');
    const done = await second.platform.approve(pendingCall(child, 'work.do').id, { userId });
    expect(done.state).toBe('completed');
    const prompt = await ended(second.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.worker').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('I changed it.');
    // One agent-run output, updated by each run of the call: waiting, then completed.
    expect(outputsOf(prompt, agentRunOutput)).toMatchObject([{ state: 'completed', promptId: child.id }]);
    expect(prompt.output.at(-1)).toMatchObject({ type: 'text', text: 'Changed, says the worker.' });
    expect(work.runs).toEqual(['it']);
    expect(resumed.get(parent.id)).toBe(1);
    expect(resumed.get(child.id)).toBe(1);
    expect(second.model.requests).toHaveLength(2);
    await second.platform.close();
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('the start-up sweep resumes a parent whose child ended while no process ran the plugin', async () => {
    const openStore = await shared();
    const work = approvedWork();
    const first = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' })],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const { parent, child } = await parentWaiting(first);
    await first.platform.close();
    // A process that has the plugin but never opened: the child ends there, and nothing resumes the parent.
    const closed = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: { worker: [reply('I changed it.')] },
      open: false,
    });
    expect((await closed.platform.approve(pendingCall(child, 'work.do').id, { userId })).state).toBe(
      'completed',
    );
    expect((await closed.platform.getPrompt(parent.id, userId)).state).toBe('waiting_for_approval');
    await closed.platform.close();

    const third = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: { parent: [reply('Changed, says the worker.')] },
    });
    const prompt = await ended(third.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.worker').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('I changed it.');
    expect(work.runs).toEqual(['it']);
    await third.platform.close();
    expect([...first.errors, ...closed.errors, ...third.errors]).toEqual([]);
  });
});

describe('a periodic sweep (sweepEveryMs)', () => {
  it('resumes, without a new open(), a parent whose child ended in a process without the plugin started', async () => {
    const openStore = sharedMemory();
    const work = approvedWork();
    const open = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      sweepEveryMs: 20,
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' }), reply('Changed, says the worker.')],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const { parent, child } = await parentWaiting(open);
    const quiet = await processOn(await openStore(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: { worker: [reply('I changed it.')] },
      open: false,
    });
    expect((await quiet.platform.approve(pendingCall(child, 'work.do').id, { userId })).state).toBe(
      'completed',
    );
    // The open process heard nothing (the in-memory store has no relay): its next sweep finds the parent.
    const prompt = await ended(open.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    expect(work.runs).toEqual(['it']);
    await open.platform.close();
    expect(open.errors).toEqual([]);
  });
});

describe('durable nested approval in one process', () => {
  it('depth 3: approving the deepest call resumes each level once, up to the user prompt', async () => {
    const work = approvedWork();
    const agents = [
      { ...workerAgent, name: 'a', tools: ['agent.b'] },
      { ...workerAgent, name: 'b', tools: ['agent.c'] },
      { ...workerAgent, name: 'c' },
    ];
    const store = await sharedMemory()();
    const p = await processOn(store, {
      agents,
      tools: [work.tool],
      script: {
        parent: [callTool('agent.a', { task: 'Get it done.' }), reply('A says it is done.')],
        a: [callTool('agent.b', { task: 'Get it done.' }), reply('B did it.')],
        b: [callTool('agent.c', { task: 'Do it.' }), reply('C did it.')],
        c: [callTool('work.do', { what: 'it' }), reply('I did it.')],
      },
    });
    const resumed = countEvents(p.platform, 'prompt.resumed');
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(parent.state).toBe('waiting_for_approval');
    const a = await p.platform.getPrompt(childPromptId(callOf(parent, 'agent.a').id), userId);
    const b = await p.platform.getPrompt(childPromptId(callOf(a, 'agent.b').id), userId);
    const c = await p.platform.getPrompt(childPromptId(callOf(b, 'agent.c').id), userId);
    for (const waiting of [a, b, c]) expect(waiting.state).toBe('waiting_for_approval');
    expect(c.metadata).toMatchObject({ agent: 'c', depth: 3, root: parent.id });
    expect(callOf(parent, 'agent.a').result).toMatchObject({
      type: 'pending',
      reason:
        "Agent 'a' waits for your decision in its conversation: agent.b: Agent 'b' waits for your decision in its conversation: agent.c: Agent 'c' waits for your decision in its conversation: work.do: It changes things.",
    });

    await p.platform.approve(pendingCall(c, 'work.do').id, { userId });
    const prompt = await ended(p.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.a').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('B did it.');
    for (const id of [c.id, b.id, a.id])
      expect((await p.platform.getPrompt(id, userId)).state).toBe('completed');
    expect(work.runs).toEqual(['it']);
    expect(Object.fromEntries(resumed)).toEqual({ [parent.id]: 1, [a.id]: 1, [b.id]: 1, [c.id]: 1 });
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('a child that ends while its parent is being stored waiting: the parent still resumes', async () => {
    const work = approvedWork();
    const memory = await sharedMemory()();
    let process: Awaited<ReturnType<typeof processOn>> | undefined;
    let raced = false;
    // The parent's write that stores it waiting is held until its child has been approved and has ended.
    const store = new Proxy(memory, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== 'prompts') return value;
        return new Proxy(value as Store['prompts'], {
          get(prompts, name) {
            const method = Reflect.get(prompts, name, prompts);
            if (name !== 'update') return typeof method === 'function' ? method.bind(prompts) : method;
            return async (...args: Parameters<Store['prompts']['update']>) => {
              const [promptId, patch] = args;
              const record = await prompts.get(promptId);
              if (patch.state === 'waiting_for_approval' && !record?.metadata?.agent && !raced) {
                raced = true;
                const [child] = (await prompts.listByState('waiting_for_approval')) as Prompt[];
                const done = await process!.platform.approve(pendingCall(child!, 'work.do').id, { userId });
                expect(done.state).toBe('completed');
                // The child's end found its parent still running: nothing was decided.
                expect((await prompts.get(promptId))?.state).toBe('running');
              }
              return prompts.update(...args);
            };
          },
        });
      },
    });
    process = await processOn(store, {
      agents: [workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' }), reply('Changed, says the worker.')],
        worker: [callTool('work.do', { what: 'it' }), reply('I changed it.')],
      },
    });
    const conversation = await process.platform.conversations.create({ userId });
    const run = await process.platform.start({ conversationId: conversation.id, userId, input: 'Go.' });
    const prompt = await ended(process.platform, run.prompt.id, userId);
    expect(raced).toBe(true);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.worker').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('I changed it.');
    expect(work.runs).toEqual(['it']);
    await process.platform.close();
    expect(process.errors).toEqual([]);
  });

  it('a child that pauses suspends its parent too, which resumes once the pause is decided', async () => {
    const search = searchTool();
    const paused = new Set<string>();
    const pauser = definePlugin({
      id: 'pauser',
      hooks: {
        betweenRounds: ({ prompt }) => {
          if (prompt.metadata?.agent !== 'researcher' || paused.has(prompt.id)) return undefined;
          paused.add(prompt.id);
          return { pause: 'Check the search before going on.' };
        },
      },
    });
    const p = await processOn(await sharedMemory()(), {
      agents: [{ ...workerAgent, name: 'researcher', tools: ['notes.search'] }],
      tools: [search.tool],
      plugins: [pauser],
      script: {
        parent: [callTool('agent.researcher', { task: 'Find it.' }), reply('Found, says the researcher.')],
        researcher: [callTool('notes.search', { query: 'it' }), reply('It is on Tuesday.')],
      },
    });
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(parent.state).toBe('waiting_for_approval');
    expect(callOf(parent, 'agent.researcher').result).toEqual({
      type: 'pending',
      reason:
        "Agent 'researcher' waits for your decision in its conversation: a pause: Check the search before going on.",
    });
    const child = await p.platform.getPrompt(childPromptId(callOf(parent, 'agent.researcher').id), userId);
    const pause = child.output.find((o) => o.type === 'pause');
    await p.platform.resume(pause!.id, { userId, choice: 'continue' });
    const prompt = await ended(p.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.researcher').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('It is on Tuesday.');
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('depth 3: a pause at the bottom (a betweenRounds pause, as the doom-loop plugin makes) suspends every level; continuing it resumes each once', async () => {
    const search = searchTool();
    // Pauses c once after its first round, as @tessera/plugin-doom-loop pauses a prompt that repeats a call.
    const pauser = definePlugin({
      id: 'pauser',
      hooks: {
        betweenRounds: ({ prompt }) =>
          prompt.metadata?.agent === 'c' && !prompt.output.some((o) => o.type === 'pause')
            ? { pause: 'The same call three times in a row. Continue, or stop?' }
            : undefined,
      },
    });
    const p = await processOn(await sharedMemory()(), {
      agents: [
        { ...workerAgent, name: 'a', tools: ['agent.b'] },
        { ...workerAgent, name: 'b', tools: ['agent.c'] },
        { ...workerAgent, name: 'c', tools: ['notes.search'] },
      ],
      tools: [search.tool],
      plugins: [pauser],
      script: {
        parent: [callTool('agent.a', { task: 'Find it.' }), reply('A found it.')],
        a: [callTool('agent.b', { task: 'Find it.' }), reply('B found it.')],
        b: [callTool('agent.c', { task: 'Find it.' }), reply('C found it.')],
        c: [callTool('notes.search', { query: 'it' }), reply('It is on Tuesday.')],
      },
    });
    const resumed = countEvents(p.platform, 'prompt.resumed');
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(parent.state).toBe('waiting_for_approval');
    const a = await p.platform.getPrompt(childPromptId(callOf(parent, 'agent.a').id), userId);
    const b = await p.platform.getPrompt(childPromptId(callOf(a, 'agent.b').id), userId);
    const c = await p.platform.getPrompt(childPromptId(callOf(b, 'agent.c').id), userId);
    for (const waiting of [a, b, c]) expect(waiting.state).toBe('waiting_for_approval');
    expect(callOf(b, 'agent.c').result).toEqual({
      type: 'pending',
      reason:
        "Agent 'c' waits for your decision in its conversation: a pause: The same call three times in a row. Continue, or stop?",
    });
    // Only the pause is the user's to decide: each agent call above it resumes by itself.
    const pause = c.output.find((o) => o.type === 'pause');
    await p.platform.resume(pause!.id, { userId, choice: 'continue' });
    const prompt = await ended(p.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const result = callOf(prompt, 'agent.a').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('B found it.');
    for (const id of [c.id, b.id, a.id])
      expect((await p.platform.getPrompt(id, userId)).state).toBe('completed');
    expect(search.calls).toHaveLength(1);
    expect(Object.fromEntries(resumed)).toEqual({ [parent.id]: 1, [a.id]: 1, [b.id]: 1, [c.id]: 1 });
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('depth 2: the deepest call approved with edited arguments runs once with them, and each level resumes once', async () => {
    const work = approvedWork();
    const p = await processOn(await sharedMemory()(), {
      agents: [{ ...workerAgent, name: 'boss', tools: ['agent.worker'] }, workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.boss', { task: 'Get it changed.' }), reply('The boss says it is done.')],
        boss: [callTool('agent.worker', { task: 'Change it.' }), reply('The worker did it.')],
        worker: [callTool('work.do', { what: 'it' }), reply('I changed that.')],
      },
    });
    const resumed = countEvents(p.platform, 'prompt.resumed');
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    const boss = await p.platform.getPrompt(childPromptId(callOf(parent, 'agent.boss').id), userId);
    const worker = await p.platform.getPrompt(childPromptId(callOf(boss, 'agent.worker').id), userId);
    await p.platform.decide(pendingCall(worker, 'work.do').id, {
      userId,
      approve: true,
      input: { what: 'that' },
    });
    const prompt = await ended(p.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    expect(work.runs).toEqual(['that']);
    const call = callOf(await p.platform.getPrompt(worker.id, userId), 'work.do');
    expect(call).toMatchObject({ editedInput: { what: 'that' }, approval: { decision: 'approved' } });
    expect(call.result).toEqual({ type: 'success', output: 'done' });
    const result = callOf(prompt, 'agent.boss').result;
    expect(result?.type === 'success' && (result.output as AgentRun).answer).toBe('The worker did it.');
    expect(Object.fromEntries(resumed)).toEqual({ [parent.id]: 1, [boss.id]: 1, [worker.id]: 1 });
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('a suspended agent call the user rejects: the parent goes on without it, and the child is cancelled', async () => {
    const work = approvedWork();
    const p = await processOn(await sharedMemory()(), {
      agents: [workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.worker', { task: 'Change it.' }), reply('Not changed, then.')],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    const call = callOf(parent, 'agent.worker');
    const done = await p.platform.reject(call.id, { userId });
    expect(done.state).toBe('completed');
    expect(callOf(done, 'agent.worker').result).toMatchObject({ type: 'error', error: { code: 'rejected' } });
    expect((await ended(p.platform, childPromptId(call.id), userId)).state).toBe('cancelled');
    expect(work.runs).toEqual([]);
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('two read-only agents of one batch whose children both wait: approving both, in any order, resumes the parent once', async () => {
    const reads: string[] = [];
    const read = createTool({
      id: 'vault.read',
      description: 'Reads a secret: needs approval.',
      input: z.object({ name: z.string() }),
      readOnly: true,
      requireApproval: { required: true, reason: 'It reads a secret.' },
      invoke: ({ input }) => {
        reads.push(input.name);
        return `secret ${input.name}`;
      },
    });
    const reader = { ...workerAgent, name: 'reader', tools: ['vault.read'], readOnly: true };
    const p = await processOn(await sharedMemory()(), {
      agents: [reader],
      tools: [read],
      script: {
        parent: [
          callTools(
            { name: 'agent.reader', args: { task: 'Read a.' } },
            { name: 'agent.reader', args: { task: 'Read b.' } },
          ),
          reply('Both read.'),
        ],
        reader: [
          (request) =>
            callTool('vault.read', {
              name: JSON.stringify(request.messages).includes('Read a.') ? 'a' : 'b',
            }),
          (request) =>
            callTool('vault.read', {
              name: JSON.stringify(request.messages).includes('Read a.') ? 'a' : 'b',
            }),
          reply('Read it.'),
          reply('Read it.'),
        ],
      },
    });
    const resumed = countEvents(p.platform, 'prompt.resumed');
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(parent.state).toBe('waiting_for_approval');
    const [first, second] = parent.output.filter((o) => o.type === 'tool');
    const children = await Promise.all(
      [first!, second!].map((call) => p.platform.getPrompt(childPromptId(call.id), userId)),
    );
    for (const child of children) expect(child.state).toBe('waiting_for_approval');
    // The second's child first: the parent waits on the first call, so nothing resumes yet.
    await p.platform.approve(pendingCall(children[1]!, 'vault.read').id, { userId });
    expect((await p.platform.getPrompt(parent.id, userId)).state).toBe('waiting_for_approval');
    await p.platform.approve(pendingCall(children[0]!, 'vault.read').id, { userId });
    const prompt = await ended(p.platform, parent.id, userId);
    expect(prompt.state).toBe('completed');
    const results = prompt.output
      .filter((o) => o.type === 'tool')
      .map((o) => o.type === 'tool' && o.result?.type);
    expect(results).toEqual(['success', 'success']);
    expect(reads.sort()).toEqual(['a', 'b']);
    expect(resumed.get(parent.id)).toBe(1);
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });

  it('cancelling a waiting parent cancels its waiting child, and that child its own', async () => {
    const work = approvedWork();
    const p = await processOn(await sharedMemory()(), {
      agents: [{ ...workerAgent, name: 'boss', tools: ['agent.worker'] }, workerAgent],
      tools: [work.tool],
      script: {
        parent: [callTool('agent.boss', { task: 'Get it changed.' })],
        boss: [callTool('agent.worker', { task: 'Change it.' })],
        worker: [callTool('work.do', { what: 'it' })],
      },
    });
    const conversation = await p.platform.conversations.create({ userId });
    const parent = await p.platform.send({ conversationId: conversation.id, userId, input: 'Go.' });
    expect(parent.state).toBe('waiting_for_approval');
    const boss = await p.platform.getPrompt(childPromptId(callOf(parent, 'agent.boss').id), userId);
    const worker = await p.platform.getPrompt(childPromptId(callOf(boss, 'agent.worker').id), userId);
    expect(worker.state).toBe('waiting_for_approval');

    await p.platform.cancel(parent.id, { userId });
    expect((await p.platform.getPrompt(parent.id, userId)).state).toBe('cancelled');
    expect((await ended(p.platform, boss.id, userId)).state).toBe('cancelled');
    expect((await ended(p.platform, worker.id, userId)).state).toBe('cancelled');
    expect(work.runs).toEqual([]);
    await p.platform.close();
    expect(p.errors).toEqual([]);
  });
});
