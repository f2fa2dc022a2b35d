import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { attachEvents, BOB, testServer, waitFor } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

/** Polls the API (never the clock) until `check` holds. */

type Output = { id: string; type: string; [key: string]: unknown };
type PromptJson = {
  id: string;
  model?: string;
  metadata?: Record<string, unknown>;
  state: string;
  input?: string;
  output: Output[];
  stopReason?: { code: string };
};

async function conversationWith(input: string) {
  const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
  const events = `${t.url}/api/conversations/${conversation.id}/events`;
  const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { body: { input } });
  expect(sent.status).toBe(202);
  const prompt = async (): Promise<PromptJson> =>
    (await t.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body;
  const prompts = async (): Promise<PromptJson[]> =>
    (await t.request('GET', `/api/conversations/${conversation.id}`)).body.prompts;
  return { id: conversation.id as string, events, prompt, prompts };
}

/** What the model was last sent, as JSON text. */
const lastSent = () => JSON.stringify(t.model.lastRequest?.messages ?? []);

describe('loop control over HTTP', () => {
  it('steers a busy prompt: the message waits, then the model reads it at the next round', async () => {
    t = await testServer([callTool('demo.delete_records', { names: ['a'] }), reply('Done, and noted.')], {
      plugins: [demoPlugin],
    });
    const c = await conversationWith('delete a');
    await waitFor(async () => (await c.prompt()).state === 'waiting_for_approval');

    const busy = await t.request('POST', `/api/conversations/${c.id}/prompts`, { body: { input: 'more' } });
    expect([busy.status, busy.body.error.code]).toEqual([409, 'conversation_busy']);
    expect(busy.body.error.message).toContain(`/api/conversations/${c.id}/messages`);

    const steered = await t.request('POST', `/api/conversations/${c.id}/messages`, {
      body: { input: 'also keep a backup', mode: 'steer' },
    });
    expect(steered.status).toBe(202);
    expect(steered.body).toEqual({
      message: expect.objectContaining({ mode: 'steer', input: 'also keep a backup' }),
    });
    const waiting = await t.request('GET', `/api/conversations/${c.id}/messages`);
    expect(waiting.body.items.map((m: { id: string }) => m.id)).toEqual([steered.body.message.id]);

    const toolCallId = (await c.prompt()).output[0]!.id;
    const { received: seen } = await attachEvents(c.events, { until: (e) => e.event === 'prompt.completed' });
    expect((await t.request('POST', `/api/tool-calls/${toolCallId}/approve`)).status).toBe(202);
    const events = (await seen).map((e) => e.event);
    expect(events).toContain('prompt.steered');
    const done = await c.prompt();
    expect(done.state).toBe('completed');
    expect(done.output.map((o) => o.type)).toEqual(['tool', 'steering', 'text']);
    expect(lastSent()).toContain('also keep a backup');
    expect((await t.request('GET', `/api/conversations/${c.id}/messages`)).body.items).toEqual([]);
  });

  it('queues follow-ups that run in order after the prompt, and removes one before it runs', async () => {
    t = await testServer(
      [callTool('demo.delete_records', { names: ['a'] }), reply('Deleted.'), reply('Second.')],
      {
        plugins: [demoPlugin],
      },
    );
    const c = await conversationWith('delete a');
    await waitFor(async () => (await c.prompt()).state === 'waiting_for_approval');
    const queue = async (input: string, more: object = {}) =>
      (
        await t.request('POST', `/api/conversations/${c.id}/messages`, {
          body: { input, mode: 'queue', ...more },
        })
      ).body.message as { id: string };
    const first = await queue('first follow-up');
    // It runs later, as the sender asked: on the high model class, in the sender's time zone.
    const second = await queue('second follow-up', { model: 'high', timeZone: 'Europe/Paris' });
    const listed = await t.request('GET', `/api/conversations/${c.id}/messages`);
    expect(listed.body.items.map((m: { input: string }) => m.input)).toEqual([
      'first follow-up',
      'second follow-up',
    ]);

    // Only the owner sees or changes the list.
    const path = `/api/conversations/${c.id}/messages`;
    expect((await t.request('GET', path, { token: BOB })).status).toBe(404);
    expect((await t.request('DELETE', `${path}/${first.id}`, { token: BOB })).status).toBe(404);
    const bobSends = await t.request('POST', path, { token: BOB, body: { input: 'x', mode: 'queue' } });
    expect(bobSends.status).toBe(404);

    const { received: seen } = await attachEvents(c.events, { until: (e) => e.event === 'message.removed' });
    expect((await t.request('DELETE', `${path}/${first.id}`)).status).toBe(204);
    expect((await seen).at(-1)!.data).toMatchObject({ type: 'message.removed', messageId: first.id });
    expect((await t.request('DELETE', `${path}/${first.id}`)).status).toBe(404);
    const invalid = await t.request('POST', path, { body: { input: 'x', mode: 'later' } });
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'invalid_request']);
    const badZone = await t.request('POST', path, {
      body: { input: 'x', mode: 'queue', timeZone: 'Mars/Base' },
    });
    expect([badZone.status, badZone.body.error.code]).toEqual([400, 'invalid_request']);

    const toolCallId = (await c.prompt()).output[0]!.id;
    expect((await t.request('POST', `/api/tool-calls/${toolCallId}/approve`)).status).toBe(202);
    await waitFor(async () => (await c.prompts()).filter((p) => p.state === 'completed').length === 2);
    const prompts = await c.prompts();
    expect(prompts.map((p) => [p.id, p.input])).toEqual([
      [prompts[0]!.id, 'delete a'],
      [second.id, 'second follow-up'],
    ]);
    expect(prompts[1]).toMatchObject({ model: 'high', metadata: { timeZone: 'Europe/Paris' } });
    expect((await t.request('GET', path)).body.items).toEqual([]);
  });

  it('runs a message to an idle conversation at once', async () => {
    t = await testServer([reply('Hello.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/messages`, {
      body: { input: 'hi', mode: 'queue' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.prompt).toMatchObject({ id: sent.body.message.id, input: 'hi' });
    // Named after its first message, as a sent prompt names it.
    expect((await t.request('GET', `/api/conversations/${conversation.id}`)).body.conversation.title).toBe(
      'hi',
    );
  });

  it('approves with edited arguments: an invalid edit is a 400 and the call still waits', async () => {
    t = await testServer([callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Sent $50.')], {
      plugins: [demoPlugin],
    });
    const c = await conversationWith('send Ada 500');
    await waitFor(async () => (await c.prompt()).state === 'waiting_for_approval');
    const toolCallId = (await c.prompt()).output[0]!.id;
    const approve = (body: unknown, token?: string) =>
      t.request('POST', `/api/tool-calls/${toolCallId}/approve`, { body, ...(token && { token }) });

    // What an editor needs: the call and its tool's argument schema, for the owner only.
    const detail = await t.request('GET', `/api/tool-calls/${toolCallId}`);
    expect(detail.body).toMatchObject({ toolId: 'demo.transfer', input: { amount: 500, to: 'Ada' } });
    expect(Object.keys(detail.body.inputSchema.properties)).toEqual(['amount', 'to']);
    expect((await t.request('GET', `/api/tool-calls/${toolCallId}`, { token: BOB })).status).toBe(404);

    const invalid = await approve({ input: { amount: -5, to: 'Ada' } });
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'invalid_approval_input']);
    expect(invalid.body.error.message).toContain('amount');
    expect((await c.prompt()).state).toBe('waiting_for_approval');
    expect((await c.prompt()).output[0]).toMatchObject({ result: { type: 'pending' } });
    expect((await approve({ input: { amount: 50, to: 'Ada' } }, BOB)).status).toBe(404);
    const unknownField = await approve({ inputs: {} });
    expect(unknownField.status).toBe(400);

    expect((await approve({ input: { amount: 50, to: 'Ada' } })).status).toBe(202);
    await waitFor(async () => (await c.prompt()).state === 'completed');
    const call = (await c.prompt()).output[0]!;
    expect(call).toMatchObject({
      input: { amount: 500, to: 'Ada' },
      editedInput: { amount: 50, to: 'Ada' },
      editedBy: 'alice',
      result: { type: 'success', output: { transferred: 50, to: 'Ada' } },
    });
    // The model is sent the approved arguments, not its own.
    const calls = (t.model.lastRequest?.messages ?? []).filter((m) => m.type === 'function_call');
    expect(calls.map((m) => JSON.parse(m.arguments))).toEqual([{ amount: 50, to: 'Ada' }]);
  });

  it('pauses a repeated loop of calls for the user: listed, decided only by its owner, continued', async () => {
    const weather = () => callTool('demo.weather', { city: 'Paris' });
    t = await testServer([weather(), weather(), weather(), reply('Paris is mild.')], {
      plugins: [demoPlugin],
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const events = `${t.url}/api/conversations/${conversation.id}/events`;
    const { received: paused } = await attachEvents(events, {
      until: (e) => e.event === 'prompt.pause-requested',
    });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'weather' },
    });
    const requested = (await paused).at(-1)!;
    expect(requested.data).toMatchObject({
      type: 'prompt.pause-requested',
      source: 'plugin',
      plugin: 'doom-loop',
    });
    const pauseId = String(requested.data.outputId);

    const listed = await t.request('GET', '/api/pauses');
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        pauseId,
        promptId: sent.body.prompt.id,
        source: 'plugin',
        plugin: 'doom-loop',
      }),
    ]);
    expect((await t.request('GET', '/api/pauses', { token: BOB })).body.items).toEqual([]);
    const resume = (choice: unknown, token?: string) =>
      t.request('POST', `/api/pauses/${pauseId}/resume`, { body: { choice }, ...(token && { token }) });
    expect((await resume('continue', BOB)).status).toBe(404);
    expect((await resume('maybe')).status).toBe(400);

    const { received: decided } = await attachEvents(events, {
      until: (e) => e.event === 'prompt.completed',
    });
    expect((await resume('continue')).status).toBe(202);
    expect((await decided).map((e) => e.event)).toContain('prompt.pause-decided');
    const prompt = (await t.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body as PromptJson;
    expect(prompt.state).toBe('completed');
    expect(prompt.output.find((o) => o.type === 'pause')).toMatchObject({
      decision: 'continue',
      decidedBy: 'alice',
    });
    expect((await resume('stop')).status).toBe(409);
    expect((await t.request('GET', '/api/pauses')).body.items).toEqual([]);
  });

  it('pauses at a budget and continues with a larger one; a bad raise is a 400 and the prompt still waits', async () => {
    const weather = (city: string) => callTool('demo.weather', { city });
    t = await testServer([weather('Oslo'), weather('Rome'), reply('Both are mild.')], {
      plugins: [demoPlugin],
      budgets: { maxRounds: 1 },
    });
    const c = await conversationWith('weather');
    await waitFor(async () => (await t.request('GET', '/api/pauses')).body.items.length === 1);
    const [pause] = (await t.request('GET', '/api/pauses')).body.items;
    expect(pause).toMatchObject({ source: 'budget', budget: { name: 'maxRounds', limit: 1, used: 1 } });
    const resume = (body: unknown) => t.request('POST', `/api/pauses/${pause.pauseId}/resume`, { body });
    for (const body of [
      { choice: 'continue' }, // past a budget, continuing needs a larger one
      { choice: 'continue', budgets: { maxRounds: 1 } }, // not larger than what was used
      { choice: 'continue', budgets: { maxRounds: -3 } },
      { choice: 'continue', budgets: { maxRounds: 2.5 } },
      { choice: 'continue', budgets: { maxRounds: '9' } },
      { choice: 'continue', budgets: { maxRounds: 5, maxWallTimeMs: 10 } }, // unknown: not raisable
      { choice: 'continue', budgets: { maxRounds: 5, __proto__: { x: 1 }, constructor: 1 } },
      { choice: 'continue', budgets: { maxTokens: 1_000 } }, // not the budget reached
      { choice: 'continue', budgets: [3] },
      { choice: 'stop', budgets: { maxRounds: 5 } },
    ]) {
      const answer = await resume(body);
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([
        400,
        expect.any(String),
      ]);
    }
    expect((await c.prompt()).state).toBe('waiting_for_approval');

    expect((await resume({ choice: 'continue', budgets: { maxRounds: 3 } })).status).toBe(202);
    await waitFor(async () => (await c.prompt()).state === 'completed');
    const prompt = await c.prompt();
    expect(prompt.output.filter((o) => o.type === 'tool')).toHaveLength(2);
    expect(prompt.output.find((o) => o.type === 'pause')).toMatchObject({ raised: { maxRounds: 3 } });
    expect(prompt.output.at(-1)).toMatchObject({ type: 'text', text: 'Both are mild.' });
  });

  it('stops a paused prompt, and announces a cancelled prompt as prompt.cancelled', async () => {
    const weather = () => callTool('demo.weather', { city: 'Oslo' });
    t = await testServer(
      [weather(), weather(), weather(), callTool('demo.delete_records', { names: ['b'] })],
      {
        plugins: [demoPlugin],
      },
    );
    const c = await conversationWith('weather');
    await waitFor(async () => (await t.request('GET', '/api/pauses')).body.items.length === 1);
    const [pause] = (await t.request('GET', '/api/pauses')).body.items;
    expect(
      (await t.request('POST', `/api/pauses/${pause.pauseId}/resume`, { body: { choice: 'stop' } })).status,
    ).toBe(202);
    await waitFor(async () => ['failed', 'cancelled', 'completed'].includes((await c.prompt()).state));
    expect((await c.prompt()).stopReason?.code).toBe('stopped_by_user');

    const second = await t.request('POST', `/api/conversations/${c.id}/prompts`, {
      body: { input: 'delete b' },
    });
    await waitFor(
      async () =>
        (await t.request('GET', `/api/prompts/${second.body.prompt.id}`)).body.state ===
        'waiting_for_approval',
    );
    const { received: seen } = await attachEvents(c.events, {
      until: (e) => e.event.startsWith('prompt.') && e.event !== 'prompt.output-updated',
    });
    expect((await t.request('POST', `/api/prompts/${second.body.prompt.id}/cancel`)).status).toBe(200);
    expect((await seen).at(-1)!.event).toBe('prompt.cancelled');
  });
});
