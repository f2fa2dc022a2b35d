import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { attachEvents, BOB, testServer, waitFor } from './harness.ts';

// POST /api/tool-calls/{id}/answer and /skip: decisions on a pending call that do not run it.

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

/** Polls the API (never the clock) until `check` holds. */

type Call = { id: string; result?: { type: string; output?: unknown; error?: { code: string } } };
type Call2 = Call & { approval?: { decision?: string; decidedBy?: string; comment?: string } };

/** A conversation whose prompt waits for the approval of a $500 transfer. */
async function waitingTransfer() {
  const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
  const events = `${t.url}/api/conversations/${conversation.id}/events`;
  const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
    body: { input: 'send Ada 500' },
  });
  const prompt = async () => (await t.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body;
  await waitFor(async () => (await prompt()).state === 'waiting_for_approval');
  const call = (): Promise<Call2> => prompt().then((p) => p.output[0]);
  return { events, prompt, call, id: (await call()).id };
}

const functionOutput = () =>
  (t.model.lastRequest?.messages ?? []).find((m) => m.type === 'function_call_output');

describe('answering and skipping a pending call over HTTP', () => {
  it('answers a call: the tool does not run, its result is the answer, the model reads that the user gave it', async () => {
    t = await testServer([callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Noted.')], {
      plugins: [demoPlugin],
      limits: { maxInputChars: 1_000 },
    });
    const c = await waitingTransfer();
    const answer = (body: unknown, token?: string) =>
      t.request('POST', `/api/tool-calls/${c.id}/answer`, { body, ...(token && { token }) });

    const missing = await answer({});
    expect([missing.status, missing.body.error.code]).toEqual([400, 'invalid_request']);
    expect(missing.body.error.message).toContain('answer');
    expect((await answer({ answer: 1, input: {} })).status).toBe(400);
    const tooLong = await answer({ answer: 'x'.repeat(2_000) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([413, 'input_too_large']);
    const bobs = await answer({ answer: 1 }, BOB);
    expect([bobs.status, bobs.body.error.code]).toEqual([404, 'not_found']);
    expect(
      (await t.request('POST', '/api/tool-calls/call_missing/answer', { body: { answer: 1 } })).status,
    ).toBe(404);
    expect((await c.call()).result).toEqual({ type: 'pending', reason: expect.any(String) });

    const given = { transferred: 0, note: 'paid in cash' };
    const accepted = await answer({ answer: given, reason: 'I paid her myself.' });
    expect(accepted.status).toBe(202);
    await waitFor(async () => (await c.prompt()).state === 'completed');
    expect(await c.call()).toMatchObject({
      result: { type: 'success', output: given },
      approval: { decision: 'answered', decidedBy: 'alice', comment: 'I paid her myself.' },
    });
    const sent = functionOutput();
    expect(sent?.type === 'function_call_output' && sent.output).toContain('The user answered this call');
    expect(sent?.type === 'function_call_output' && sent.output).toContain('"note":"paid in cash"');
    const again = await answer({ answer: null });
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
  });

  it('skips a call: the tool does not run, the model reads to go on without it, published as a rejection is', async () => {
    t = await testServer([callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Skipped it.')], {
      plugins: [demoPlugin],
    });
    const c = await waitingTransfer();
    const skip = (body?: unknown, token?: string) =>
      t.request('POST', `/api/tool-calls/${c.id}/skip`, {
        ...(body !== undefined && { body }),
        ...(token && { token }),
      });
    expect((await skip({ reason: 42 })).status).toBe(400);
    expect((await skip({}, BOB)).status).toBe(404);
    const { received } = await attachEvents(c.events, { until: (e) => e.event === 'prompt.completed' });
    expect((await skip()).status).toBe(202);
    const events = await received;
    expect(events.map((e) => e.event).slice(0, 3)).toEqual([
      'ready',
      'prompt.output-updated',
      'prompt.resumed',
    ]);
    expect(events[1]!.data).toMatchObject({ output: { id: c.id, approval: { decision: 'skipped' } } });
    await waitFor(async () => (await c.prompt()).state === 'completed');
    expect(await c.call()).toMatchObject({
      result: { type: 'error', error: { code: 'skipped' } },
      approval: { decision: 'skipped', decidedBy: 'alice' },
    });
    const sent = functionOutput();
    expect(sent?.type === 'function_call_output' && sent.output).toContain('chose to skip');
    expect((await skip()).status).toBe(409);
    expect((await t.request('POST', `/api/tool-calls/${c.id}/approve`)).status).toBe(409);
  });

  it('documents both in the OpenAPI document', async () => {
    t = await testServer();
    const doc = await t.request('GET', '/openapi.json', { token: null });
    const answer = doc.body.paths['/api/tool-calls/{id}/answer'].post;
    const skip = doc.body.paths['/api/tool-calls/{id}/skip'].post;
    expect([answer.operationId, skip.operationId]).toEqual(['answerToolCall', 'skipToolCall']);
    expect(Object.keys(answer.responses)).toEqual(
      expect.arrayContaining(['202', '400', '404', '409', '413']),
    );
    expect(answer.requestBody.content['application/json'].schema).toBeDefined();
    // `answer` is required (any JSON value, `null` too): the schema says so, as the route does.
    expect(answer.requestBody.content['application/json'].schema.required).toEqual(['answer']);
    expect(answer.description).toContain('answered');
    expect(skip.description).toContain('skipped');
  });
});
