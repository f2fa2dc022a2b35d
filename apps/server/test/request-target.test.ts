import { afterEach, expect, it } from 'vitest';
import { ALICE, testServer } from './harness.ts';
import { sendRaw } from './support/fuzz/send.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('answers a request path it cannot read (with a backslash) with a JSON 400, as any other', async () => {
  t = await testServer();
  for (const path of ['/api/conversations/..\\..\\me', '/api\\me', '/\\evil.invalid/api/me']) {
    const response = await sendRaw(new URL(t.url), {
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect([path, response.status, response.contentType, JSON.parse(response.text).error.code]).toEqual([
      path,
      400,
      'application/json',
      'invalid_request',
    ]);
  }
  // A backslash in the query is only text.
  const fine = await sendRaw(new URL(t.url), {
    method: 'GET',
    path: '/api/me?x=a\\b',
    headers: { authorization: `Bearer ${ALICE}` },
  });
  expect(fine.status).toBe(200);
});
