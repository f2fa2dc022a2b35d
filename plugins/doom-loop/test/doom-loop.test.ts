import {
  createTool,
  definePlugin,
  type PauseOutput,
  type TesseraEvent,
  type ToolOutput,
} from '@tessera/core';
import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { doomLoopPlugin } from '../src/index.ts';

/** A plugin with one read-only tool that echoes its text, and the inputs it ran with. */
function echoPlugin() {
  const ran: unknown[] = [];
  const echo = createTool({
    id: 'demo.echo',
    description: 'Echo the text back.',
    input: z.object({ text: z.string() }),
    readOnly: true,
    invoke: ({ input }) => {
      ran.push(input);
      return { echoed: input.text };
    },
  });
  return { plugin: definePlugin({ id: 'demo', tools: [echo] }), ran };
}

const calls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
const pauseOf = (prompt: { output: { type: string }[] }) =>
  prompt.output.find((o): o is PauseOutput => o.type === 'pause' && !(o as PauseOutput).decision);

function eventsOf(t: Awaited<ReturnType<typeof createTestPlatform>>) {
  const events: TesseraEvent[] = [];
  t.platform.events.subscribe({}, (event) => {
    events.push(event);
  });
  return events;
}

describe('doom-loop plugin', () => {
  it('pauses after the same call three times in a row; continue counts afresh and asks again, stop ends', async () => {
    const { plugin, ran } = echoPlugin();
    const same = () => callTool('demo.echo', { text: 'again' });
    const t = await createTestPlatform({
      plugins: [doomLoopPlugin(), plugin],
      script: [same(), same(), same(), same(), same(), same(), reply('never')],
    });
    const events = eventsOf(t);
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    expect(ran).toHaveLength(3);
    const pause = pauseOf(paused)!;
    expect(pause).toMatchObject({
      source: 'plugin',
      plugin: 'doom-loop',
      reason: "The model called 'demo.echo' with the same arguments 3 times in a row. Continue, or stop?",
    });
    expect(events.at(-1)).toMatchObject({
      type: 'prompt.pause-requested',
      source: 'plugin',
      plugin: 'doom-loop',
      outputId: pause.id,
    });
    const again = await t.platform.resume(pause.id, { userId: t.userId, choice: 'continue' });
    expect(ran).toHaveLength(6);
    expect(again.state).toBe('waiting_for_approval'); // not switched off by "continue"
    const second = pauseOf(again)!;
    const run = await t.platform.decide(second.id, { userId: t.userId, choice: 'stop' });
    const stopped = await run.done;
    expect(stopped.state).toBe('completed');
    expect(stopped.stopReason?.code).toBe('stopped_by_user');
    expect(ran).toHaveLength(6);
  });

  it('detects a cycle (A, B, A, B, A, B) across rounds; without the plugin the prompt runs on', async () => {
    const { plugin } = echoPlugin();
    const a = () => callTool('demo.echo', { text: 'a' });
    const b = () => callTool('demo.echo', { text: 'b' });
    const script = () => [a(), b(), a(), b(), a(), b(), reply('done')];
    const t = await createTestPlatform({ plugins: [doomLoopPlugin(), plugin], script: script() });
    const paused = await t.send('go');
    expect(pauseOf(paused)?.reason).toBe(
      'The model repeated the same cycle of calls (demo.echo, demo.echo) 3 times. Continue, or stop?',
    );
    expect(calls(paused)).toHaveLength(6);
    const stopped = await t.resumePending('stop');
    expect(stopped.stopReason?.code).toBe('stopped_by_user');
    const off = await createTestPlatform({ plugins: [plugin], script: script() });
    expect((await off.send('go')).state).toBe('completed');
  });

  it('counts calls of one response, compares arguments by value whatever their key order, and takes `repeats`', async () => {
    const { plugin, ran } = echoPlugin();
    const t = await createTestPlatform({
      plugins: [doomLoopPlugin({ repeats: 2 }), plugin],
      script: [
        callTools({ name: 'demo.echo', args: { text: 'x' } }, { name: 'demo.echo', args: { text: 'y' } }),
        callTool('demo.echo', { text: 'y' }),
        reply('never'),
      ],
    });
    const paused = await t.send('go');
    expect(ran).toEqual([{ text: 'x' }, { text: 'y' }, { text: 'y' }]);
    expect(pauseOf(paused)?.reason).toMatch(/'demo.echo' with the same arguments 2 times in a row/);
    expect(() => doomLoopPlugin({ repeats: 1 })).toThrow(); // a call once is no loop
  });

  it('does not pause for calls that differ, or for a repeat shorter than `repeats`', async () => {
    const { plugin } = echoPlugin();
    const t = await createTestPlatform({
      plugins: [doomLoopPlugin(), plugin],
      script: [
        callTool('demo.echo', { text: 'a' }),
        callTool('demo.echo', { text: 'a' }),
        callTool('demo.echo', { text: 'b' }),
        callTool('demo.echo', { text: 'a' }),
        callTool('demo.echo', { text: 'c' }),
        reply('done'),
      ],
    });
    const done = await t.send('go');
    expect(done.state).toBe('completed');
    expect(calls(done)).toHaveLength(5);
  });

  it('cancelling a paused prompt closes the pause', async () => {
    const { plugin } = echoPlugin();
    const same = () => callTool('demo.echo', { text: 'x' });
    const t = await createTestPlatform({
      plugins: [doomLoopPlugin(), plugin],
      script: [same(), same(), same()],
    });
    const paused = await t.send('go');
    const cancelled = await t.platform.cancel(paused.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.output.find((o) => o.type === 'pause')).toMatchObject({ decision: 'stop' });
  });
});
