import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { ALICE, attachEvents, BOB, collectEvents, testServer, waitFor } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

describe('the HTTP API', () => {
  it('runs a conversation with an approval, followed live over SSE', async () => {
    // The demo tools join a scripted model only when asked for.
    t = await testServer([callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply(['Sent ', '$500.'])], {
      plugins: [demoPlugin],
    });
    const conversation = await t.request('POST', '/api/conversations', { body: { title: 'Money' } });
    expect(conversation.status).toBe(201);
    const eventsUrl = `${t.url}/api/conversations/${conversation.body.id}/events`;
    const { received: paused } = await attachEvents(eventsUrl, {
      until: (e) => e.event === 'prompt.approval-requested',
    });
    const sent = await t.request('POST', `/api/conversations/${conversation.body.id}/prompts`, {
      body: { input: 'transfer $500 to Ada' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.prompt.state).toBe('running');
    const first = await paused;
    const approval = first.at(-1)!;
    expect(approval.data).toMatchObject({
      toolId: 'demo.transfer',
      reason: 'Transfers over $100 need your approval: $500 to Ada.',
    });

    const { received: finished } = await attachEvents(eventsUrl, {
      lastEventId: approval.id,
      until: (e) => e.event === 'prompt.completed',
    });
    const approved = await t.request('POST', `/api/tool-calls/${String(approval.data.toolCallId)}/approve`);
    expect(approved.status).toBe(202);
    const rest = await finished;
    expect(rest.map((e) => e.event)).toEqual([
      'ready',
      'prompt.output-updated',
      'prompt.resumed',
      'prompt.output-updated',
      'prompt.text-delta',
      'prompt.text-delta',
      'prompt.output',
      'prompt.completed',
    ]);
    const again = await t.request('POST', `/api/tool-calls/${String(approval.data.toolCallId)}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');

    const stored = await t.request('GET', `/api/conversations/${conversation.body.id}`);
    expect(stored.body.prompts[0].state).toBe('completed');
    expect(stored.body.prompts[0].output.map((o: { type: string }) => o.type)).toEqual(['tool', 'text']);
    expect(stored.body.prompts[0].output[1].text).toBe('Sent $500.');
  });

  it('resumes an event stream after a dropped connection without missing anything', async () => {
    t = await testServer([reply('one'), reply('two')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const url = `${t.url}/api/conversations/${conversation.id}/events`;
    const { received: firstStream } = await attachEvents(url, {
      until: (e) => e.event === 'prompt.completed',
    });
    await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { body: { input: 'first' } });
    const first = await firstStream; // the connection drops here
    const lastId = first.at(-1)!.id!;
    await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { body: { input: 'second' } });
    await waitFor(
      async () =>
        (await t.request('GET', `/api/conversations/${conversation.id}`)).body.prompts[1]?.state ===
        'completed',
    );
    const resumed = await collectEvents(url, {
      lastEventId: lastId,
      until: (e) => e.event === 'prompt.completed',
    });
    expect(resumed.map((e) => e.event)).toEqual([
      'ready',
      'prompt.started',
      'prompt.text-delta',
      'prompt.output',
      'prompt.completed',
    ]);
    expect(resumed.at(-1)!.data.prompt?.state).toBe('completed');

    const stale = await collectEvents(url, {
      lastEventId: 'other-boot-7',
      until: (e) => e.event === 'ready',
    });
    expect(stale.map((e) => e.event)).toEqual(['reset', 'ready']);
  });

  it('keeps users apart: another user’s data answers 404', async () => {
    t = await testServer([callTool('demo.delete_records', { names: ['a'] })], { plugins: [demoPlugin] });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const { body: sent } = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'delete records a' },
    });
    await waitFor(
      async () =>
        (await t.request('GET', `/api/prompts/${sent.prompt.id}`)).body.state === 'waiting_for_approval',
    );
    const { body: prompt } = await t.request('GET', `/api/prompts/${sent.prompt.id}`);
    const toolCallId = prompt.output[0].id;
    for (const [method, path] of [
      ['GET', `/api/conversations/${conversation.id}`],
      ['DELETE', `/api/conversations/${conversation.id}`],
      ['GET', `/api/conversations/${conversation.id}/events`],
      ['POST', `/api/conversations/${conversation.id}/prompts`],
      ['GET', `/api/prompts/${prompt.id}`],
      ['POST', `/api/prompts/${prompt.id}/cancel`],
      ['POST', `/api/tool-calls/${toolCallId}/approve`],
      ['POST', `/api/tool-calls/${toolCallId}/reject`],
    ] as const) {
      const response = await t.request(method, path, {
        token: BOB,
        ...(path.endsWith('/prompts') && { body: { input: 'hi' } }),
      });
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await t.request('GET', '/api/conversations', { token: BOB })).body.items).toEqual([]);
    expect((await t.request('GET', `/api/prompts/${prompt.id}`, { token: ALICE })).body.state).toBe(
      'waiting_for_approval',
    );
  });

  it('names a conversation after its first message, and lets its user rename it', async () => {
    t = await testServer([reply('Sure.'), reply('Again.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}`;
    const titleNow = async () => (await t.request('GET', path)).body.conversation.title;
    const ask = async (input: string) => {
      const { body } = await t.request('POST', `${path}/prompts`, { body: { input } });
      await waitFor(
        async () => (await t.request('GET', `/api/prompts/${body.prompt.id}`)).body.state !== 'running',
      );
    };
    await ask(
      '## Plan the Q3 sales offsite in Lisbon for the whole regional team, with budget\nMore details.',
    );
    expect(await titleNow()).toBe('Plan the Q3 sales offsite in Lisbon for the whole regional…');
    await ask('And the hotel?');
    expect(await titleNow()).toBe('Plan the Q3 sales offsite in Lisbon for the whole regional…');

    const renamed = await t.request('PATCH', path, { body: { title: '  Lisbon offsite ' } });
    expect([renamed.status, renamed.body.title]).toEqual([200, 'Lisbon offsite']);
    for (const body of [{ title: '   ' }, { title: 'x'.repeat(201) }, { title: 'ok', extra: 1 }, {}]) {
      expect((await t.request('PATCH', path, { body })).status).toBe(400);
    }
    expect((await t.request('PATCH', path, { body: { title: 'Mine' }, token: BOB })).status).toBe(404);
    expect(await titleNow()).toBe('Lisbon offsite');
  });

  it('starts one prompt for a send retried with its id, however often and however fast', async () => {
    t = await testServer([reply('Once.', { delayMs: 50 }), reply('Other.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/prompts`;
    const body = { input: 'hello', id: 'prm_client-1' };
    const sends = await Promise.all([1, 2, 3].map(() => t.request('POST', path, { body })));
    expect(sends.map((s) => s.status)).toEqual([202, 202, 202]);
    const promptId = sends[0]!.body.prompt.id;
    expect(sends.map((s) => s.body.prompt.id)).toEqual([promptId, promptId, promptId]);
    await waitFor(
      async () => (await t.request('GET', `/api/prompts/${promptId}`)).body.state === 'completed',
    );
    const again = await t.request('POST', path, { body });
    expect([again.status, again.body.prompt.id, again.body.prompt.state]).toEqual([
      202,
      promptId,
      'completed',
    ]);
    const { body: detail } = await t.request('GET', `/api/conversations/${conversation.id}`);
    expect(detail.prompts.map((p: { id: string }) => p.id)).toEqual([promptId]);
    // The same id for another message is refused.
    const changed = await t.request('POST', path, { body: { ...body, input: 'changed' } });
    expect([changed.status, changed.body.error.message]).toEqual([
      409,
      'You sent another message with the id prm_client-1; choose a new one.',
    ]);
    expect((await t.request('POST', path, { body: { input: 'x', id: '../bad' } })).status).toBe(400);
  });

  it('answers bad input with a clear 4xx and changes nothing', async () => {
    t = await testServer([reply('slow', { delayMs: 200 })], {
      limits: { maxBodyBytes: 2_000, maxUploadBytes: 10_000 },
    });
    expect((await t.request('GET', '/api/conversations', { token: null })).status).toBe(401);
    // Without a token, the health check tells nothing of the server (which model, which provider).
    expect((await t.request('GET', '/health', { token: null })).body).toEqual({ ok: true });
    expect(
      (await t.request('GET', '/api/conversations', { token: 'nope-nope-nope-nope' })).body.error.code,
    ).toBe('unauthorized');
    const malformed = await t.request('POST', '/api/conversations', { raw: '{"title": ' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_request']);
    const wrongType = await t.request('POST', '/api/conversations', { body: { title: 42 } });
    expect([wrongType.status, wrongType.body.error.code]).toEqual([400, 'invalid_request']);
    expect(wrongType.body.error.message).toContain('title');
    const unknownField = await t.request('POST', '/api/conversations', { body: { titel: 'typo' } });
    expect(unknownField.status).toBe(400);
    const tooBig = await t.request('POST', '/api/conversations', { body: { title: 'x'.repeat(5_000) } });
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'payload_too_large']);
    expect((await t.request('GET', '/api/conversations', {})).body.items).toEqual([]);

    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    expect((await t.request('GET', '/api/conversations/conv_missing')).status).toBe(404);
    expect((await t.request('POST', '/api/tool-calls/call_missing/approve')).status).toBe(404);
    const empty = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: '' },
    });
    expect(empty.status).toBe(400);
    expect(
      (await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { body: { input: 'one' } }))
        .status,
    ).toBe(202);
    const busy = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'two' },
    });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'conversation_busy']);
    const { body: detail } = await t.request('GET', `/api/conversations/${conversation.id}`);
    expect(detail.prompts).toHaveLength(1);
    expect((await t.request('GET', '/api/nowhere')).status).toBe(404);
    expect((await t.request('POST', '/api/conversations/x/nowhere')).status).toBe(404);
  });

  it('takes no more prompts in a conversation past limits.maxConversationChars (409 conversation_full)', async () => {
    t = await testServer([reply('ok'), reply('ok'), reply('ok')], {
      limits: { maxConversationChars: 35_000 },
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}`;
    type Row = { state: string; input?: string; stopReason?: { code: string } };
    const prompts = async (): Promise<Row[]> => (await t.request('GET', path)).body.prompts;
    const send = async (input: string) => {
      const sent = await t.request('POST', `${path}/prompts`, { body: { input } });
      if (sent.status === 202)
        await waitFor(async () => (await prompts()).every((p) => p.state !== 'running'));
      return sent;
    };
    // Each prompt's record is a little over 10,000 characters: three and the fourth's input are past the limit.
    for (const n of [1, 2, 3, 4]) expect((await send(`${n} ${'x'.repeat(10_000)}`)).status).toBe(202);
    expect((await prompts()).at(-1)).toMatchObject({
      state: 'failed',
      input: `4 ${'x'.repeat(10_000)}`,
      stopReason: { code: 'conversation_full' },
    });
    const refused = await send('five');
    expect([refused.status, refused.body.error.code]).toEqual([409, 'conversation_full']);
    const queued = await t.request('POST', `${path}/messages`, { body: { input: 'six', mode: 'queue' } });
    expect([queued.status, queued.body.error.code]).toEqual([409, 'conversation_full']);
    expect(await prompts()).toHaveLength(4); // nothing written for either
    const bobs = await t.request('POST', `${path}/prompts`, { token: BOB, body: { input: 'hi' } });
    expect(bobs.status).toBe(404);
  });

  it('serves its OpenAPI document and a reference page', async () => {
    t = await testServer();
    const doc = await t.request('GET', '/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/conversations',
        '/api/conversations/{id}/prompts',
        '/api/tool-calls/{id}/approve',
      ]),
    );
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/docs/viewer.js'); // which reads /openapi.json (see security-headers.test)
  });

  it('serves the web UI at / (its routes fall back to index.html), and unknown API paths as JSON 404s', async () => {
    const web = await mkdtemp(join(tmpdir(), 'tessera-web-'));
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Tessera UI</title>');
    t = await testServer([], {}, web);
    for (const path of ['/', '/some/page']) {
      const page = await t.request('GET', path, { token: null });
      expect([page.status, page.body]).toEqual([200, '<!doctype html><title>Tessera UI</title>']);
    }
    // Any path of the API or its reference that no route serves is a JSON 404, never the page with a 200.
    for (const path of [
      '/api/nowhere',
      '/api',
      '/v1',
      '/v1/nowhere',
      '/openapi',
      '/openapi.yaml',
      '/docs/x',
    ]) {
      const answer = await t.request('GET', path);
      expect([path, answer.status, answer.contentType, answer.body.error?.code]).toEqual([
        path,
        404,
        expect.stringContaining('application/json'),
        'not_found',
      ]);
    }
    await rm(web, { recursive: true, force: true });
  });
});
