import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform, type Prompt } from '@tessera/core';
import { filesPlugin } from '@tessera/plugin-files';
import {
  createTriggerScheduler,
  ManualClock,
  triggerService,
  triggersPlugin,
} from '@tessera/plugin-triggers';
import { widgetsPlugin } from '@tessera/plugin-widgets';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_READS, DemoModel } from '../src/demo/demo-model.ts';
import { demoPlugin, demoRules } from '../src/demo/demo-plugin.ts';

const USER = 'ada';
let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

/** The demo as the server composes it (demo model; demo, widgets, files and triggers plugins), on a manual clock. */
async function demo() {
  directory = await mkdtemp(join(tmpdir(), 'tessera-demo-'));
  const clock = new ManualClock('2026-11-22T09:30:00Z');
  const platform = createPlatform({
    model: new DemoModel(demoRules),
    plugins: [
      widgetsPlugin,
      filesPlugin({ directory }),
      triggersPlugin({ clock, scheduler: false }),
      demoPlugin,
    ],
  });
  const scheduler = createTriggerScheduler(platform, { rescanEveryMs: 24 * 3_600_000 });
  const conversation = await platform.conversations.create({ userId: USER });
  const send = (input?: string) =>
    platform.send({ conversationId: conversation.id, userId: USER, ...(input !== undefined && { input }) });
  const prompts = () => platform.conversations.prompts(conversation.id, USER);
  return { platform, clock, scheduler, conversation, send, prompts };
}

const text = (prompt: Prompt | undefined) =>
  (prompt?.output ?? []).flatMap((o) => (o.type === 'text' ? [o.text] : [])).join('');

describe('the demo model', () => {
  it('reminds the user when a one-off reminder fires, without repeating what the earlier prompts returned', async () => {
    const t = await demo();
    const weather = await t.send('weather in Lyon');
    expect(text(weather)).toContain('demo.weather returned: {"city":"Lyon"');

    const asked = await t.send('remind me in 1 minute to stretch');
    const call = asked.output.find((o) => o.type === 'tool');
    expect(call).toMatchObject({
      toolId: 'trigger.create',
      result: {
        type: 'pending',
        reason:
          'Create the trigger “stretch”: once, on Sun 22 Nov 09:31 UTC. When it fires, the assistant will: “Remind the user to stretch.”',
      },
    });
    const created = await t.platform.approve(call!.id, { userId: USER });
    expect(text(created)).toContain('trigger.create returned:');

    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T09:40:00Z');
    await t.scheduler.settled();
    await t.scheduler.stop();

    const fired = (await t.prompts()).at(-1);
    expect(fired).toMatchObject({ state: 'completed', metadata: { trigger: expect.any(String) } });
    expect(fired?.input).toBeUndefined();
    expect(fired?.output.map((o) => o.type)).toEqual(['text']);
    expect(text(fired)).toBe('Reminder: time to stretch.');
    // One fire: the reminder ran once and ended.
    expect((await t.prompts()).filter((p) => p.metadata?.trigger)).toHaveLength(1);
  });

  it('passes on the instruction of a trigger that is not a reminder, even after a prompt that ended unanswered', async () => {
    const t = await demo();
    const asked = await t.send('delete records alpha');
    expect(asked.state).toBe('waiting_for_approval');
    await t.platform.cancel(asked.id, { userId: USER });
    await triggerService(t.platform.services).create(
      {
        name: 'Sales check',
        instruction: 'Check the sales numbers.',
        schedule: { kind: 'once', at: '2026-11-22T10:00' },
      },
      { userId: USER, conversationId: t.conversation.id },
    );

    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T10:00:00Z');
    await t.scheduler.settled();
    await t.scheduler.stop();

    const fired = (await t.prompts()).at(-1);
    expect(fired?.metadata?.trigger).toBeDefined();
    expect(text(fired)).toBe(
      'The trigger “Sales check” fired. Its instruction: Check the sales numbers.\n\n(I am the offline demo model: I can pass it on, not carry it out.)',
    );
  });

  it('answers a prompt with no input on its own, not with the previous prompt', async () => {
    const t = await demo();
    const report = await t.send('make a sales report');
    expect(text(report)).toContain('demo.report returned:');

    const empty = await t.send();
    expect(empty.state).toBe('completed');
    expect(empty.output.map((o) => o.type)).toEqual(['text']);
    expect(text(empty)).not.toContain('returned');
    expect(text(empty)).toContain('no message');

    // And a prompt with no input after one the demo answered with text only.
    await t.send('What is the meaning of life?');
    const again = await t.send();
    expect(text(again)).not.toContain('Try one of these');
    expect(text(again)).toContain('no message');
  });

  it('reads the first DEMO_READS characters of a message: a long one costs no more than a short one', async () => {
    const t = await demo();
    const toolCalls = (prompt: Prompt) => prompt.output.flatMap((o) => (o.type === 'tool' ? [o.toolId] : []));
    // What a rule looks for past them is not seen.
    const late = await t.send(`${'x '.repeat(DEMO_READS)}transfer $50 to Ada`);
    expect(toolCalls(late)).toEqual([]);
    const early = await t.send(`transfer $50 to Ada ${'x '.repeat(50_000)}`);
    expect(toolCalls(early)).toEqual(['demo.transfer']);
    // Inputs that made a rule backtrack quadratically over the whole message (seconds at 100,000 characters).
    for (const input of [`pay${' '.repeat(99_997)}`, 'delete '.repeat(14_285)]) {
      const started = performance.now();
      expect(toolCalls(await t.send(input))).toEqual([]);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
