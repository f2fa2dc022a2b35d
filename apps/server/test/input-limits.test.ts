import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServerConfig } from '../src/config.ts';
import { titleFrom } from '../src/http/conversation-title.ts';
import { demoPlugin } from '../src/index.ts';
import { testServer, waitFor } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const LIMITS = { maxBodyBytes: 1_000_000, maxUploadBytes: 2_000_000, maxInputChars: 1_000 };

/** Polls the API (never the clock) until `check` holds. */

async function newConversation(): Promise<string> {
  return (await t!.request('POST', '/api/conversations', { body: {} })).body.id;
}

const promptsOf = async (conversationId: string): Promise<unknown[]> =>
  (await t!.request('GET', `/api/conversations/${conversationId}`)).body.prompts;

describe('limits.maxInputChars', () => {
  it('is 100,000 characters unless configured, and a positive whole number', () => {
    expect(parseServerConfig({}, 'test').limits.maxInputChars).toBe(100_000);
    const partial = { limits: { maxBodyBytes: 5_000, maxUploadBytes: 9_000 } };
    expect(parseServerConfig(partial, 'test').limits.maxInputChars).toBe(100_000);
    expect(parseServerConfig({ limits: LIMITS }, 'test').limits.maxInputChars).toBe(1_000);
    expect(() => parseServerConfig({ limits: { ...LIMITS, maxInputChars: 0 } }, 'test')).toThrow(
      'maxInputChars',
    );
  });

  it('answers a longer prompt input with 413 input_too_large (JSON and multipart), starting nothing', async () => {
    t = await testServer([reply('ok'), reply('ok')], { limits: LIMITS });
    const id = await newConversation();
    const path = `/api/conversations/${id}/prompts`;
    const tooLong = await t.request('POST', path, { body: { input: 'x'.repeat(1_001) } });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([413, 'input_too_large']);
    expect(tooLong.body.error.message).toBe(
      'The input is 1,001 characters; this server takes at most 1,000 (limits.maxInputChars).',
    );
    // Characters as JavaScript counts them: an emoji is two.
    const emoji = await t.request('POST', path, { body: { input: '😀'.repeat(501) } });
    expect([emoji.status, emoji.body.error.code]).toEqual([413, 'input_too_large']);

    const form = new FormData();
    form.set('input', 'y'.repeat(1_001));
    form.append('files', new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    const multipart = await t.request('POST', path, { form });
    expect([multipart.status, multipart.body.error.code]).toEqual([413, 'input_too_large']);
    expect(await promptsOf(id)).toEqual([]);

    const atLimit = await t.request('POST', path, { body: { input: 'z'.repeat(1_000) } });
    expect(atLimit.status).toBe(202);
  });

  it('takes the default maximum, 100,000, and refuses one more with 413 (not a 400)', async () => {
    t = await testServer([reply('ok')]);
    const id = await newConversation();
    const path = `/api/conversations/${id}/prompts`;
    const over = await t.request('POST', path, { body: { input: `${'word '.repeat(20_000)}x` } });
    expect([over.status, over.body.error.code]).toEqual([413, 'input_too_large']);
    const at = await t.request('POST', path, { body: { input: 'a'.repeat(100_000) } });
    expect(at.status).toBe(202);
  });

  it('answers a longer steering or queued message with 413, queueing nothing', async () => {
    t = await testServer([reply('ok')], { limits: LIMITS });
    const id = await newConversation();
    const path = `/api/conversations/${id}/messages`;
    for (const mode of ['steer', 'queue']) {
      const sent = await t.request('POST', path, { body: { input: 'x'.repeat(1_001), mode } });
      expect([sent.status, sent.body.error.code]).toEqual([413, 'input_too_large']);
    }
    expect((await t.request('GET', path)).body.items).toEqual([]);
    expect(await promptsOf(id)).toEqual([]);
    expect(
      (await t.request('POST', path, { body: { input: 'x'.repeat(1_000), mode: 'queue' } })).status,
    ).toBe(202);
  });

  it('answers edited approval arguments longer (as JSON) with 413; the call still waits', async () => {
    t = await testServer([callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Sent.')], {
      plugins: [demoPlugin],
      limits: LIMITS,
    });
    const id = await newConversation();
    const sent = await t.request('POST', `/api/conversations/${id}/prompts`, { body: { input: 'pay Ada' } });
    const prompt = async () => (await t!.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body;
    await waitFor(async () => (await prompt()).state === 'waiting_for_approval');
    const toolCallId = (await prompt()).output[0].id;
    const approve = (input: unknown) =>
      t!.request('POST', `/api/tool-calls/${toolCallId}/approve`, { body: { input } });

    const edited = await approve({ amount: 50, to: 'A'.repeat(1_000) });
    expect([edited.status, edited.body.error.code]).toEqual([413, 'input_too_large']);
    expect((await prompt()).output[0]).toMatchObject({ result: { type: 'pending' } });
    // Nested deeper than JSON.stringify can measure: refused as invalid, not a 500.
    const deep = `{"input":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const nested = await t.request('POST', `/api/tool-calls/${toolCallId}/approve`, { raw: deep });
    expect([nested.status, nested.body.error.code]).toEqual([400, 'invalid_request']);
    // Deep enough to pass JSON.stringify but past what any reader of arguments should recurse into.
    const fairlyDeep = await approve({
      amount: 50,
      to: 'Ada',
      note: JSON.parse(`${'['.repeat(65)}${']'.repeat(65)}`),
    });
    expect([fairlyDeep.status, fairlyDeep.body.error.message]).toEqual([
      400,
      'The edited input is nested deeper than 64 levels.',
    ]);
    expect((await approve({ amount: 50, to: 'Ada' })).status).toBe(202);
    await waitFor(async () => (await prompt()).state === 'completed');
  });

  it('is in the OpenAPI document: each route that takes an input says it may answer 413 for it', async () => {
    t = await testServer([]);
    const { body: doc } = await t.request('GET', '/openapi.json');
    const operations = [
      doc.paths['/api/conversations/{id}/prompts'].post,
      doc.paths['/api/conversations/{id}/messages'].post,
      doc.paths['/api/tool-calls/{id}/approve'].post,
    ];
    for (const operation of operations)
      expect(operation.responses['413'].description).toContain('input_too_large');
    const input =
      doc.paths['/api/conversations/{id}/prompts'].post.requestBody.content['application/json'].schema;
    const schema = input.$ref ? doc.components.schemas[input.$ref.split('/').at(-1)] : input;
    expect(schema.properties.input.description).toContain('limits.maxInputChars');
  });
});

describe('the title of a long first message', () => {
  it('is its first line with content, found past any number of blank and Markdown-only lines', () => {
    expect(titleFrom(`${'\n'.repeat(99_000)}  \n# - \n> ## Deploy the app\nthen more`)).toBe(
      'Deploy the app',
    );
    expect(titleFrom(`${'# \n'.repeat(30_000)}`)).toBeUndefined();
    expect(titleFrom(`x${' '.repeat(99_000)}y`)).toBe('x y');
  });
});
