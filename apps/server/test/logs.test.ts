import { Writable } from 'node:stream';
import { reply } from '@tessera/testing';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALICE, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A pino logger writing JSON lines into memory, as it writes them to stdout in production. */
function memoryLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ name: 'tessera' }, stream);
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('server logs', () => {
  it('one line per request (method, route, status, duration, user), prompts with state and duration; no secret', async () => {
    const log = memoryLog();
    t = await testServer([reply('Hello.'), { error: 'The upstream model is overloaded.' }], {
      logger: log.logger,
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    for (const input of ['Hi', 'Again']) {
      const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
        body: { input },
      });
      await vi.waitFor(
        async () =>
          expect(['completed', 'failed']).toContain(
            (await t!.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body.state,
          ),
        { timeout: 30_000 },
      );
    }
    // A refused token, and one in the query string (never accepted from a URL, never logged either).
    expect((await t.request('GET', '/api/conversations', { token: 'not-a-valid-token-xyz' })).status).toBe(
      401,
    );
    await fetch(`${t.url}/api/conversations?token=${ALICE}&access_token=${ALICE}`);

    const records = log.records();
    const requests = records.filter((r) => r.msg === 'request');
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        route: '/api/conversations/:id/prompts',
        status: 202,
        userId: 'alice',
        durationMs: expect.any(Number),
      }),
    );
    expect(requests).toContainEqual(
      expect.objectContaining({ method: 'GET', route: '/api/prompts/:id', status: 200, userId: 'alice' }),
    );
    expect(requests.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(2);

    expect(records.filter((r) => r.msg === 'prompt started')).toHaveLength(2);
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'prompt ended', state: 'completed', durationMs: expect.any(Number) }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        msg: 'model call failed',
        level: 50,
        state: 'failed',
        stop: 'model_error',
        cause: expect.stringContaining('The upstream model is overloaded.'),
      }),
    );

    const everything = log.lines.join('\n');
    expect(everything).not.toContain(ALICE);
    expect(everything).not.toContain('not-a-valid-token-xyz');
    expect(everything.toLowerCase()).not.toContain('authorization');
    expect(everything).not.toContain('token=');
  });
});
