import { reply } from '@tessera/testing';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, testServer } from './harness.ts';
import { serverDatabase } from './support/server-database.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The routes of the served OpenAPI document that take ids in their path, and their query ids. */
async function idRoutes(server: NonNullable<typeof t>) {
  const { body: doc } = await server.request('GET', '/openapi.json', { token: null });
  type Parameter = { name: string; in: string; schema?: { pattern?: string } };
  type Operation = { parameters?: Parameter[] };
  const operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const inPath = operations.filter(({ path }) => path.includes('{'));
  // Every path parameter is an id, of the one form.
  const forms = new Set(
    inPath.flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.schema?.pattern),
    ),
  );
  expect([...forms]).toEqual(['^[\\w-]{1,100}$']);
  const inQuery = operations.flatMap(({ path, method, operation }) =>
    (operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'query' && parameter.schema?.pattern === '^[\\w-]{1,100}$')
      .map((parameter) => ({ path, method, name: parameter.name })),
  );
  return { inPath, inQuery };
}

/** A request that would be valid but for its id: the answer must be about the id. */
const validBody = (method: string, path: string) =>
  method === 'patch'
    ? { title: 'Renamed' }
    : path.endsWith('/prompts')
      ? { input: 'hello' }
      : path.endsWith('/messages') && method === 'post'
        ? { input: 'hello', mode: 'queue' }
        : path.endsWith('/resume') && path.startsWith('/api/pauses')
          ? { choice: 'continue' }
          : path.endsWith('/answer')
            ? { answer: 'done' }
            : method === 'post'
              ? {}
              : undefined;

/** Every path and query id of the API, with a NUL byte and other characters no id has: 400, never 500. */
async function expectIdsRefused(server: NonNullable<typeof t>) {
  const { inPath, inQuery } = await idRoutes(server);
  expect(inPath.map(({ path, method }) => `${method} ${path}`)).toHaveLength(35);
  expect(inQuery.map(({ path, name }) => `${path}?${name}`).sort()).toEqual([
    '/api/skills?conversationId',
    '/api/triggers?conversationId',
  ]);
  const answers: string[] = [];
  for (const bad of ['x%00y', 'x%20y', 'x.y', `x${'y'.repeat(100)}`]) {
    for (const { path, method } of inPath) {
      const url = path.replaceAll(/\{\w+\}/g, bad);
      const response = await server.request(method.toUpperCase(), url, { body: validBody(method, path) });
      answers.push(`${method} ${url} ${response.status} ${response.body.error?.code}`);
      expect(response.body.error?.message).toMatch(/an id is 1-100 of/);
    }
    for (const { path, method, name } of inQuery) {
      const url = `${path}?${name}=${bad}`;
      const response = await server.request(method.toUpperCase(), url);
      answers.push(`${method} ${url} ${response.status} ${response.body.error?.code}`);
    }
  }
  expect(answers.filter((answer) => !answer.endsWith(' 400 invalid_request'))).toEqual([]);
}

/** A page cursor is opaque, so it reaches the database: one it cannot read is the client's fault. */
async function expectForgedCursorRefused(server: NonNullable<typeof t>) {
  await server.request('POST', '/api/conversations', { body: {} });
  for (const key of [
    ['not a time', 'conv_x'],
    ['2026-01-01T00:00:00Z', 'a\u0000b'],
  ]) {
    const cursor = Buffer.from(JSON.stringify(key)).toString('base64url');
    const page = await server.request('GET', `/api/conversations?cursor=${cursor}`);
    expect([page.status, page.body.error?.code]).toEqual([400, 'invalid_request']);
    expect(page.body.error.message).toContain('refused by the database');
  }
  const control = await server.request('GET', '/api/conversations?cursor=%00');
  expect([control.status, control.body.error?.code]).toEqual([400, 'invalid_request']);
  expect((await server.request('GET', '/api/conversations')).body.items).toHaveLength(1);
}

describe('the edges of the API', () => {
  it('refuses malformed ids in every path and query with 400 (embedded store)', async () => {
    t = await testServer();
    await expectIdsRefused(t);
    await expectForgedCursorRefused(t);
  });

  it('refuses malformed ids in every path and query with 400 (PostgreSQL server store)', async () => {
    const database = await serverDatabase();
    try {
      t = await testServer([], { databaseUrl: database.url });
      await expectIdsRefused(t);
      await expectForgedCursorRefused(t);
      await t.close();
      t = undefined;
    } finally {
      await database.drop();
    }
  });
});

describe('the log', () => {
  it('gets every unexpected error with its cause; the client gets a 500 without it', async () => {
    type Line = {
      level: number;
      msg: string;
      err?: { type: string; message: string; stack: string; code?: string };
    };
    const lines: Line[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    t = await testServer([], { logger });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    // State the skills plugin cannot read (written by a newer version, edited by hand): the server's problem.
    await t.server.platform.store.conversations.setPluginState(conversation.id, 'skills', { active: 42 });
    const failed = await t.request('GET', `/api/skills?conversationId=${conversation.id}`);
    expect([failed.status, failed.body]).toEqual([
      500,
      { error: { code: 'internal_error', message: 'Something went wrong on the server.' } },
    ]);
    const logged = lines.filter((line) => line.level >= 50);
    expect(logged).toEqual([
      expect.objectContaining({ msg: 'request failed', method: 'GET', path: '/api/skills' }),
    ]);
    expect(logged[0]!.err).toMatchObject({ type: 'PluginStateError' });
    expect(logged[0]!.err!.stack).toMatch(/caused by: ZodError/);

    // A client's mistake is no error of the server's; the database refusing a request's data is a warning.
    expect((await t.request('GET', '/api/conversations/conv_missing')).status).toBe(404);
    const forged = Buffer.from(JSON.stringify(['not a time', 'x'])).toString('base64url');
    expect((await t.request('GET', `/api/conversations?cursor=${forged}`)).status).toBe(400);
    expect(lines.filter((line) => line.level >= 50)).toHaveLength(1);
    expect(lines.filter((line) => line.level === 40).map((line) => [line.msg, line.err?.code])).toEqual([
      ['the database refused the request', '22007'],
    ]);
  });
});

describe('sending a prompt', () => {
  it('needs input text or files, in a body of a type it names; anything else starts nothing', async () => {
    t = await testServer([reply('Got the file.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `${t.url}/api/conversations/${conversation.id}/prompts`;
    const send = async (body?: RequestInit['body'], contentType?: string) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${ALICE}`, ...(contentType && { 'content-type': contentType }) },
        body,
      });
      return {
        status: response.status,
        ...((await response.json()) as { error: { code: string; message: string } }),
      };
    };
    const form = (fields: Record<string, string | File>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      return data;
    };
    const refusals = {
      'no body': await send(),
      'an empty JSON body': await send('', 'application/json'),
      'a form-urlencoded body': await send(new URLSearchParams({ input: 'hello' })),
      'JSON without its content type': await send(JSON.stringify({ input: 'hello' }), ''),
      'JSON sent as text/plain': await send(JSON.stringify({ input: 'hello' })),
      'JSON without input': await send(JSON.stringify({ model: 'high' }), 'application/json'),
      'a form without input or files': await send(form({ model: 'high' })),
      'a file in the field `file`': await send(form({ input: 'see', file: new File(['x'], 'x.txt') })),
    };
    expect(Object.entries(refusals).map(([name, { status, error }]) => [name, status, error.code])).toEqual([
      ['no body', 400, 'invalid_request'],
      ['an empty JSON body', 400, 'invalid_request'],
      ['a form-urlencoded body', 415, 'unsupported_media_type'],
      ['JSON without its content type', 415, 'unsupported_media_type'],
      ['JSON sent as text/plain', 415, 'unsupported_media_type'],
      ['JSON without input', 400, 'invalid_request'],
      ['a form without input or files', 400, 'invalid_request'],
      ['a file in the field `file`', 400, 'invalid_request'],
    ]);
    expect(refusals['no body'].error.message).toContain('a prompt needs input text or files');
    expect(refusals['a form-urlencoded body'].error.message).toBe(
      'A body of type application/x-www-form-urlencoded is not taken here: send application/json ({ "input": "…" }) or multipart/form-data (fields `input` and `files`).',
    );
    expect(refusals['JSON without its content type'].error.message).toContain('application/json');
    expect(refusals['JSON without input'].error.message).toContain('→ at input');
    expect(refusals['a form without input or files'].error.message).toContain(
      'A prompt needs input text (`input`) or files (`files`)',
    );
    expect(refusals['a file in the field `file`'].error.message).toContain(
      'Unknown field `file`: the fields are `input`, `files`, `model`, `id`',
    );
    expect((await t.request('GET', `/api/conversations/${conversation.id}`)).body.prompts).toEqual([]);

    // Files alone are a prompt: the model reads that the user uploaded them.
    const filesOnly = await send(form({ files: new File(['# Plan'], 'plan.md', { type: 'text/markdown' }) }));
    expect(filesOnly.status).toBe(202);
    const { body: detail } = await t.request('GET', `/api/conversations/${conversation.id}`);
    expect(detail.prompts).toHaveLength(1);
    expect(detail.prompts[0].input).toBeUndefined();
    expect(detail.prompts[0].output[0]).toMatchObject({ type: 'file', name: 'plan.md', origin: 'upload' });
  });
});

describe('client-chosen prompt ids', () => {
  it('are per user: another user’s id is new to you (nothing tells it exists), your retries still find yours', async () => {
    t = await testServer([reply('For Alice.', { delayMs: 50 }), reply('For Bob.'), reply('Alice again.')]);
    const server = t;
    const send = async (token: string, conversationId: string, input: string) =>
      server.request('POST', `/api/conversations/${conversationId}/prompts`, {
        token,
        body: { input, id: 'shared-id-1' },
      });
    const { body: hers } = await t.request('POST', '/api/conversations', { body: {} });
    const { body: his } = await t.request('POST', '/api/conversations', { body: {}, token: BOB });
    const alice = await send(ALICE, hers.id, 'hello');
    expect(alice.status).toBe(202);

    // Bob picks the same id: to him it is a new one, answered like any first send.
    const bob = await send(BOB, his.id, 'a different message');
    expect([bob.status, bob.body.prompt.state, bob.body.prompt.input]).toEqual([
      202,
      'running',
      'a different message',
    ]);
    expect(bob.body.prompt.id).not.toBe(alice.body.prompt.id);
    const bobAgain = await send(BOB, his.id, 'a different message');
    expect([bobAgain.status, bobAgain.body.prompt.id]).toEqual([202, bob.body.prompt.id]);

    // Alice's prompt is hers alone, and her retry still answers with it.
    expect((await t.request('GET', `/api/prompts/${alice.body.prompt.id}`, { token: BOB })).status).toBe(404);
    const aliceAgain = await send(ALICE, hers.id, 'hello');
    expect([aliceAgain.status, aliceAgain.body.prompt.id]).toEqual([202, alice.body.prompt.id]);
    const prompts = async (token: string, id: string) =>
      (await server.request('GET', `/api/conversations/${id}`, { token })).body.prompts.map(
        (prompt: { input: string }) => prompt.input,
      );
    expect(await prompts(ALICE, hers.id)).toEqual(['hello']);
    expect(await prompts(BOB, his.id)).toEqual(['a different message']);
  });
});
