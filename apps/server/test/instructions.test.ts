import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("the user's standing instructions", () => {
  it("are saved per user and reach the model's context of their prompts only", async () => {
    t = await testServer([reply('Bonjour.'), reply('Hello.')]);
    expect((await t.request('GET', '/api/me/instructions')).body).toEqual({ instructions: '' });
    const saved = await t.request('PUT', '/api/me/instructions', {
      body: { instructions: '  Answer in French.  ' },
    });
    expect([saved.status, saved.body]).toEqual([200, { instructions: 'Answer in French.' }]);
    expect((await t.request('GET', '/api/me/instructions')).body).toEqual({
      instructions: 'Answer in French.',
    });
    expect((await t.request('GET', '/api/me/instructions', { token: BOB })).body).toEqual({
      instructions: '',
    });

    for (const token of [undefined, BOB]) {
      const { body: conversation } = await t.request('POST', '/api/conversations', { body: {}, token });
      const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
        body: { input: 'Hi' },
        token,
      });
      await vi.waitFor(
        async () =>
          expect((await t!.request('GET', `/api/prompts/${sent.body.prompt.id}`, { token })).body.state).toBe(
            'completed',
          ),
        { timeout: 30_000 },
      );
    }
    const [alice, bob] = t.model.requests;
    expect(alice!.instructions).toContain(
      "The user's standing instructions, from their settings (follow them unless they ask otherwise here):\nAnswer in French.",
    );
    expect(bob!.instructions).not.toContain('Answer in French.');

    const cleared = await t.request('PUT', '/api/me/instructions', { body: { instructions: '' } });
    expect(cleared.body).toEqual({ instructions: '' });
  });

  it('refuses instructions over 4000 characters, or unknown fields, with a 400 that says why', async () => {
    t = await testServer();
    const long = await t.request('PUT', '/api/me/instructions', { body: { instructions: 'x'.repeat(4001) } });
    expect([long.status, long.body.error.code]).toEqual([400, 'invalid_request']);
    expect(long.body.error.message).toContain('instructions');
    const extra = await t.request('PUT', '/api/me/instructions', {
      body: { instructions: 'ok', theme: 'dark' },
    });
    expect(extra.status).toBe(400);
    expect((await t.request('GET', '/api/me/instructions')).body).toEqual({ instructions: '' });
  });
});
