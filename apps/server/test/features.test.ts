import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promptsToMessages } from '@tessera/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

type Output = { type: string; id: string; [key: string]: unknown };
type Prompt = { id: string; state: string; output: Output[] };

/** Sends input and waits (by polling the API) until the prompt stops running. */
async function ask(input: string | FormData, conversationId: string): Promise<Prompt> {
  const sent = await t.request(
    'POST',
    `/api/conversations/${conversationId}/prompts`,
    typeof input === 'string' ? { body: { input } } : { form: input },
  );
  expect(sent.status).toBe(202);
  for (let i = 0; i < 300; i++) {
    const { body } = await t.request('GET', `/api/prompts/${sent.body.prompt.id}`);
    if (body.state !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the prompt did not stop');
}

const text = (prompt: Prompt) =>
  prompt.output
    .filter((o) => o.type === 'text')
    .map((o) => o.text)
    .join('\n');

describe('the demo model with every plugin', () => {
  it('says it is a demo model, and lists what it can do when it does not understand', async () => {
    t = await testServer('demo model');
    expect((await t.request('GET', '/api/me')).body.model).toMatchObject({ id: 'demo', demo: true });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const answer = text(await ask('What is the meaning of life?', conversation.id));
    expect(answer).toContain('I am the offline demo model');
    expect(answer).toContain('weather in Paris');
    expect(answer).toContain('remind me');
  });

  it('answers with widgets, and with a file the user can download', async () => {
    t = await testServer('demo model');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const weather = await ask('weather in Lyon', conversation.id);
    expect(weather.output.map((o) => o.type)).toEqual(['tool', 'widget', 'widget', 'text']);
    expect(weather.output[1]).toMatchObject({
      widget: 'key-value',
      data: { title: 'Lyon (made-up demo data)' },
    });

    const report = await ask('make a sales report', conversation.id);
    expect(report.output.map((o) => o.type)).toEqual(['tool', 'widget', 'widget', 'file', 'text']);
    expect(report.output[1]).toMatchObject({ widget: 'progress', data: { status: 'done' } });
    const file = report.output[3]!;
    expect(file).toMatchObject({ name: 'sales-report.csv', mediaType: 'text/csv' });
    const download = await t.request('GET', `/api/conversations/${conversation.id}/files/${file.fileId}`);
    expect(download.status).toBe(200);
    expect(download.contentType).toContain('text/csv');
    expect(download.disposition).toBe("attachment; filename*=UTF-8''sales-report.csv");
    expect(String(download.body).split('\n')[0]).toBe('product,units,revenue');
    expect(
      (await t.request('GET', `/api/conversations/${conversation.id}/files/${file.fileId}`, { token: BOB }))
        .status,
    ).toBe(404);

    // The model's view: the file as its summary, the widgets not at all.
    const platform = t.server.platform;
    const messages = promptsToMessages(await platform.conversations.prompts(conversation.id, 'alice'), {
      outputs: platform.outputs,
    });
    const sent = JSON.stringify(messages);
    expect(sent).toContain('sales-report.csv');
    expect(sent).toContain('Made-up sales of 8 products (demo data).');
    expect(sent).not.toContain('Report ready'); // the progress widget
    expect(sent).not.toContain('made-up demo data)'); // the weather card's title
    expect(sent).not.toContain('product,units,revenue'); // never the file's bytes
  });

  it('creates a reminder trigger after approval, which the user can list, pause, resume and delete', async () => {
    t = await testServer('demo model');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const paused = await ask('remind me every 30 minutes to drink water', conversation.id);
    expect(paused.state).toBe('waiting_for_approval');
    const pending = paused.output[0]!;
    expect((pending.result as { reason: string }).reason).toContain('every 30 minutes');
    expect((await t.request('GET', '/api/triggers')).body.items).toEqual([]);
    await t.request('POST', `/api/tool-calls/${pending.id}/approve`);
    for (
      let i = 0;
      i < 100 && (await t.request('GET', `/api/prompts/${paused.id}`)).body.state !== 'completed';
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { body: listed } = await t.request('GET', `/api/triggers?conversationId=${conversation.id}`);
    expect(listed.items).toHaveLength(1);
    const trigger = listed.items[0].trigger;
    expect(trigger).toMatchObject({ name: 'drink water', status: 'active' });
    expect((await t.request('GET', '/api/triggers', { token: BOB })).body.items).toEqual([]);
    expect((await t.request('POST', `/api/triggers/${trigger.id}/pause`, { token: BOB })).status).toBe(404);
    expect((await t.request('POST', `/api/triggers/${trigger.id}/pause`)).body.trigger.status).toBe('paused');
    expect((await t.request('POST', `/api/triggers/${trigger.id}/resume`)).body.trigger.status).toBe(
      'active',
    );
    expect((await t.request('DELETE', `/api/triggers/${trigger.id}`)).status).toBe(204);
    expect((await t.request('GET', '/api/triggers')).body.items).toEqual([]);
  });

  it('takes files uploaded with a message as the prompt’s first outputs', async () => {
    t = await testServer('demo model', { limits: { maxBodyBytes: 10_000, maxUploadBytes: 50_000 } });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const form = new FormData();
    form.set('input', 'Here are my notes');
    form.append('files', new File(['# Notes\nShip on Friday\n'], 'notes.md', { type: 'text/markdown' }));
    const prompt = await ask(form, conversation.id);
    expect(prompt.output[0]).toMatchObject({ type: 'file', name: 'notes.md', origin: 'upload' });
    const download = await t.request(
      'GET',
      `/api/conversations/${conversation.id}/files/${prompt.output[0]!.fileId}?inline=1`,
    );
    expect(download.body).toBe('# Notes\nShip on Friday\n');
    expect(download.disposition).toContain('inline');

    const big = new FormData();
    big.set('input', 'too big');
    big.append('files', new File(['x'.repeat(60_000)], 'big.txt'));
    const tooBig = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { form: big });
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'payload_too_large']);
    const noInput = new FormData(); // neither text nor files
    noInput.set('model', 'normal');
    expect(
      (await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { form: noInput })).status,
    ).toBe(400);
    expect((await t.request('GET', `/api/conversations/${conversation.id}`)).body.prompts).toHaveLength(1);
  });

  it('activates a skill, lists the catalogue with the active one marked, and finds and saves blueprints', async () => {
    t = await testServer('demo model');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const activated = await ask('use the meeting-notes skill', conversation.id);
    expect(activated.output[0]).toMatchObject({ toolId: 'skills.activate', result: { type: 'success' } });
    const { body: skills } = await t.request('GET', `/api/skills?conversationId=${conversation.id}`);
    expect(skills.items.map((s: { name: string; active: boolean }) => [s.name, s.active])).toEqual([
      ['code-review', false],
      ['meeting-notes', true],
    ]);
    expect(
      (await t.request('GET', `/api/skills?conversationId=${conversation.id}`, { token: BOB })).status,
    ).toBe(404);

    const found = await ask('find blueprints about refunds', conversation.id);
    expect(JSON.stringify(found.output[0]!.result)).toContain('Handle a customer refund');
    const saving = await ask(
      'save blueprint Water the plants: fill the can, then water each pot',
      conversation.id,
    );
    expect(saving.state).toBe('waiting_for_approval');
    await t.request('POST', `/api/tool-calls/${saving.output[0]!.id}/approve`);
    for (
      let i = 0;
      i < 100 && (await t.request('GET', `/api/prompts/${saving.id}`)).body.state !== 'completed';
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { body: list } = await t.request('GET', '/api/blueprints');
    const mine = list.items.find((b: { title: string }) => b.title === 'Water the plants');
    expect(mine).toMatchObject({ owner: 'alice', steps: '1. fill the can\n2. water each pot' });
    expect(list.items.filter((b: { owner: string }) => b.owner === 'shared')).toHaveLength(3);
    expect((await t.request('GET', `/api/blueprints/${mine.id}`, { token: BOB })).status).toBe(404);
    expect((await t.request('DELETE', `/api/blueprints/${mine.id}`, { token: BOB })).status).toBe(404);
    expect((await t.request('DELETE', `/api/blueprints/${mine.id}`)).status).toBe(204);
  });

  it('tells skills skipped from skills loaded with a warning, in /api/skills and in the log', async () => {
    const skillsDir = await mkdtemp(join(tmpdir(), 'tessera-skills-'));
    const skill = async (name: string, frontmatter: string) => {
      await mkdir(join(skillsDir, name));
      await writeFile(join(skillsDir, name, 'SKILL.md'), `---\n${frontmatter}\n---\nDo it well.\n`);
    };
    await skill('long-winded', `name: long-winded\ndescription: ${'Very thorough. '.repeat(80)}`);
    await skill('nameless', 'description: A skill without a name.');
    const logged: { level: number; msg: string; file?: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    try {
      t = await testServer([], { skillsDirs: [skillsDir], logger });
      const { body } = await t.request('GET', '/api/skills');
      expect(body.items.map((s: { name: string }) => s.name)).toContain('long-winded');
      expect(body.diagnostics).toEqual([
        {
          file: join(skillsDir, 'long-winded', 'SKILL.md'),
          severity: 'warning',
          message: expect.stringContaining('over the limit of 1024'),
        },
        {
          file: join(skillsDir, 'nameless', 'SKILL.md'),
          severity: 'error',
          message: expect.stringContaining("'name'"),
        },
      ]);
      const warn = 40;
      expect(logged.filter((line) => line.msg.startsWith('skill'))).toEqual([
        expect.objectContaining({
          level: warn,
          msg: expect.stringMatching(/^skill loaded with a warning: /),
        }),
        expect.objectContaining({ level: warn, msg: expect.stringMatching(/^skill skipped: /) }),
      ]);
    } finally {
      await rm(skillsDir, { recursive: true, force: true });
    }
  });
});
