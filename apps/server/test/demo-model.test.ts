import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform, type Prompt } from '@tessera/core';
import { FileServiceToken, filesPlugin } from '@tessera/plugin-files';
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

/**
 * The demo as the server composes it (demo model; demo, widgets, files and triggers plugins), on a manual
 * clock; `slowStepMs` paces its slow answers.
 */
async function demo({ slowStepMs }: { slowStepMs?: number } = {}) {
  directory = await mkdtemp(join(tmpdir(), 'tessera-demo-'));
  const clock = new ManualClock('2026-11-22T09:30:00Z');
  const platform = createPlatform({
    model: new DemoModel(demoRules, slowStepMs === undefined ? {} : { slowStepMs }),
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
    expect(text(weather)).toMatch(
      /^It is \d+ °C in Lyon now, with a high of \d+ °C and a low of \d+ °C today/,
    );

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
    expect(text(created)).toMatch(/^I set up the trigger “stretch”: .+\.$/);

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
    expect(text(report)).toMatch(/^Here is the sales report: 8 products, \$[\d,]+ of revenue in all/);

    const empty = await t.send();
    expect(empty.state).toBe('completed');
    expect(empty.output.map((o) => o.type)).toEqual(['text']);
    expect(text(empty)).not.toContain('sales report');
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
    // Inputs that made a rule backtrack quadratically over the whole message (seconds at 100,000 characters):
    // as the rules see DEMO_READS characters at most (above), their cost no longer grows with the message.
    for (const input of [`pay${' '.repeat(99_997)}`, 'delete '.repeat(14_285)]) {
      expect(toolCalls(await t.send(input))).toEqual([]);
    }
  });

  it('answers in sentences, and with the raw result only for a shape it does not know', async () => {
    const t = await demo();
    expect(text(await t.send('transfer $50 to Ada'))).toMatch(
      /^Sent \$50 to Ada \(pretend money, reference TX-\w+\)\.$/,
    );
    const asked = await t.send('delete records alpha and beta');
    const call = asked.output.find((o) => o.type === 'tool')!;
    expect(text(await t.platform.approve(call.id, { userId: USER }))).toBe(
      'Deleted alpha and beta from the pretend database.',
    );
    const rejected = await t.send('delete records gamma');
    const refused = rejected.output.find((o) => o.type === 'tool')!;
    expect(text(await t.platform.reject(refused.id, { userId: USER }))).toBe(
      'You did not approve demo.delete_records, so I did not do it.',
    );
  });

  it('streams a slow answer when asked, a number or a word at a time', async () => {
    const t = await demo({ slowStepMs: 1 });
    const deltas: string[] = [];
    t.platform.events.subscribe({}, (event) => {
      if (event.type === 'prompt.text-delta') deltas.push(event.delta);
    });
    expect(text(await t.send('count to 5 slowly'))).toBe('1, 2, 3, 4, 5.');
    expect(deltas).toEqual(['1', ', 2', ', 3', ', 4', ', 5.']);
    const piece = text(await t.send('write slowly about the sea'));
    expect(piece).toMatch(/^Here is a slow piece about the sea, written one word at a time\./);
    expect(piece).toContain('stop me with Stop');
    expect(text(await t.send('count slowly'))).toMatch(/^1, 2, .*, 30\.$/); // to 30 unless told
    // Help lists it.
    expect(text(await t.send('help'))).toContain('"count to 30 slowly"');
  });

  it('stops a slow answer at once when the prompt is cancelled', async () => {
    // A step longer than the test's time limit: only the abort can end the wait.
    const t = await demo({ slowStepMs: 10 * 60_000 });
    const firstDelta = new Promise<string>((resolve) => {
      t.platform.events.subscribe({}, (event) => {
        if (event.type === 'prompt.text-delta') resolve(event.promptId);
      });
    });
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: USER,
      input: 'count to 30 slowly',
    });
    expect(await firstDelta).toBe(run.prompt.id);
    const cancelled = await t.platform.cancel(run.prompt.id, { userId: USER });
    expect(cancelled.state).toBe('cancelled');
    const ended = await run.done;
    expect(ended.state).toBe('cancelled');
  });

  it('says which files were attached: name, type, size, and how a text file starts', async () => {
    const t = await demo();
    const files = t.platform.services.resolve(FileServiceToken);
    const owner = { userId: USER, conversationId: t.conversation.id };
    const upload = (name: string, content: string | Uint8Array) => files.upload({ name, content }, owner);
    const notes = await upload('notes.md', '# Notes\nShip on Friday\n');
    const photo = await upload('photo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const both = await t.platform.send({ ...owner, input: 'Here they are', outputs: [notes, photo] });
    expect(text(both)).toBe(
      [
        'You attached 2 files:',
        '- notes.md (text/markdown, 23 B): 2 lines, starting “# Notes Ship on Friday”.',
        '- photo.png (image/png, 8 B), which is not text, so I cannot read it.',
        '',
        'I am the offline demo model: I can tell what you attached, not what it means. Say "help" to see what I can do.',
      ].join('\n'),
    );
    // Files without a message, and files with a message a rule matches: the answer says both.
    const alone = await t.platform.send({ ...owner, outputs: [await upload('empty.txt', '')] });
    expect(text(alone)).toMatch(/^You attached empty\.txt \(text\/plain, 0 B\), which is empty\./);
    const report = await upload('report.csv', 'product,units\nA,1\n');
    const weather = await t.platform.send({ ...owner, input: 'weather in Rome', outputs: [report] });
    expect(weather.output.find((o) => o.type === 'tool')).toMatchObject({ toolId: 'demo.weather' });
    expect(text(weather)).toMatch(
      /^You attached report\.csv \(text\/csv, 18 B\): 2 lines, starting “product,units A,1”\.\n\nIt is \d+ °C in Rome now/,
    );
  });
});
