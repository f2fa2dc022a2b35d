import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel } from '../../testing/src/scripted-model.ts';
import {
  createPlatform,
  createTool,
  definePlugin,
  isCallSuspension,
  MemoryStore,
  type Prompt,
  suspendCall,
  type ToolOutput,
} from '../src/index.ts';

// A tool may make its call wait for something outside the loop (suspendCall): recorded pending, the prompt
// waits holding no process, and a decision resumes it: approve runs the tool again, answer gives its result.

const calls = (prompt: Prompt) => prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

/** A job tool that waits until `done` holds its id; `runs` counts its invocations by id. */
function jobs(readOnly = true) {
  const done = new Map<string, string>();
  const runs: string[] = [];
  const plugin = definePlugin({
    id: 'jobs',
    tools: [
      createTool({
        id: 'jobs.wait',
        description: 'Waits for a job.',
        input: z.object({ id: z.string() }),
        readOnly,
        invoke: ({ input }) => {
          runs.push(input.id);
          const result = done.get(input.id);
          return result === undefined ? suspendCall(`Waiting for job ${input.id}.`) : { result };
        },
      }),
      createTool({
        id: 'jobs.note',
        description: 'Writes a note.',
        input: z.object({ text: z.string() }),
        invoke: ({ input }) => {
          runs.push(`note:${input.text}`);
          return 'noted';
        },
      }),
    ],
  });
  return { plugin, done, runs };
}

describe('suspendCall', () => {
  it('records the call pending; approving runs the tool again, whose value the model reads', async () => {
    const { plugin, done, runs } = jobs();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('jobs.wait', { id: 'a' }), reply('Job a gave 42.')],
    });
    const waiting = await t.send('Wait for job a');
    expect(waiting.state).toBe('waiting_for_approval');
    const [call] = calls(waiting);
    expect(call?.result).toEqual({ type: 'pending', reason: 'Waiting for job a.' });
    expect(call?.startedAt).toEqual(expect.any(String));
    expect(runs).toEqual(['a']);
    expect(t.model.requests).toHaveLength(1);

    done.set('a', '42');
    const ended = await t.platform.approve(call!.id, { userId: t.userId });
    expect(ended.state).toBe('completed');
    expect(runs).toEqual(['a', 'a']);
    expect(calls(ended)[0]?.result).toEqual({ type: 'success', output: { result: '42' } });
    const sent = t.model.requests[1]!.messages.find((m) => m.type === 'function_call_output');
    expect(sent?.type === 'function_call_output' && sent.output).toContain('42');
  });

  it('waits again when approved before what it waits for happened', async () => {
    const { plugin, done, runs } = jobs();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('jobs.wait', { id: 'a' }), reply('Done.')],
    });
    const first = calls(await t.send('Wait for job a'))[0]!;
    const again = await t.platform.approve(first.id, { userId: t.userId });
    expect(again.state).toBe('waiting_for_approval');
    expect(calls(again)[0]?.result?.type).toBe('pending');
    done.set('a', 'ok');
    expect((await t.platform.approve(first.id, { userId: t.userId })).state).toBe('completed');
    expect(runs).toEqual(['a', 'a', 'a']);
  });

  it('defers the calls after it, which run once it is decided', async () => {
    const { plugin, done, runs } = jobs(false);
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools({ name: 'jobs.wait', args: { id: 'a' } }, { name: 'jobs.note', args: { text: 'x' } }),
        reply('Done.'),
      ],
    });
    const waiting = await t.send('Wait, then note');
    expect(runs).toEqual(['a']);
    const [wait, note] = calls(waiting);
    expect(note?.result).toBeUndefined();
    expect(note?.startedAt).toBeUndefined();
    done.set('a', 'ok');
    const ended = await t.platform.approve(wait!.id, { userId: t.userId });
    expect(ended.state).toBe('completed');
    expect(runs).toEqual(['a', 'a', 'note:x']);
  });

  it('of read-only calls run together, the first that suspends waits, the others run again after it', async () => {
    const { plugin, done, runs } = jobs();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools({ name: 'jobs.wait', args: { id: 'a' } }, { name: 'jobs.wait', args: { id: 'b' } }),
        reply('Both done.'),
      ],
    });
    const waiting = await t.send('Wait for a and b');
    expect(waiting.state).toBe('waiting_for_approval');
    const [a, b] = calls(waiting);
    expect(a?.result?.type).toBe('pending'); // exactly one pending: the first in the model's order
    expect(b?.result).toBeUndefined();
    expect(b?.startedAt).toBeUndefined();
    done.set('a', '1');
    done.set('b', '2');
    const ended = await t.platform.approve(a!.id, { userId: t.userId });
    expect(ended.state).toBe('completed');
    expect(calls(ended).map((c) => c.result)).toEqual([
      { type: 'success', output: { result: '1' } },
      { type: 'success', output: { result: '2' } },
    ]);
    expect(runs.filter((id) => id === 'b')).toHaveLength(2);
  });

  it('may be answered without running the tool again, and resumed by another platform on the store', async () => {
    const { plugin, runs } = jobs();
    const store = new MemoryStore();
    const script = [callTool('jobs.wait', { id: 'a' }), reply('Thanks.')];
    const first = createPlatform({ plugins: [plugin], store, model: new ScriptedModel(script) });
    const conversation = await first.conversations.create({ userId: 'ada' });
    const waiting = await first.send({ conversationId: conversation.id, userId: 'ada', input: 'Wait' });
    await first.close();
    const model = new ScriptedModel([reply('Thanks.')]);
    const second = createPlatform({ plugins: [plugin], store, model });
    const run = await second.decide(calls(waiting)[0]!.id, { userId: 'ada', answer: { result: 'by hand' } });
    expect((await run.done).state).toBe('completed');
    expect(runs).toEqual(['a']);
    await second.close();
  });

  it('is recognised across copies of core, and carries a reason', () => {
    const suspension = suspendCall('  Waiting for the build.  ');
    expect(isCallSuspension(suspension)).toBe(true);
    expect(suspension.reason).toBe('Waiting for the build.');
    expect(isCallSuspension({ reason: 'x' })).toBe(false);
    expect(suspendCall('').reason).toBe('Waiting.');
  });
});
