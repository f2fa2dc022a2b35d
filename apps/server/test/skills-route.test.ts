import { afterEach, describe, expect, it } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('activating a skill from the UI', () => {
  it("activates it in the conversation (the catalogue marks it) and says which skill or conversation it doesn't know", async () => {
    t = await testServer('demo model');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/skills`;
    const activated = await t.request('POST', `${path}/meeting-notes/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ name: 'meeting-notes', active: true });
    const again = await t.request('POST', `${path}/meeting-notes/activate`); // idempotent
    expect(again.body.active).toBe(true);
    const { body: skills } = await t.request('GET', `/api/skills?conversationId=${conversation.id}`);
    expect(skills.items.map((s: { name: string; active: boolean }) => [s.name, s.active])).toEqual([
      ['code-review', false],
      ['meeting-notes', true],
    ]);

    const unknown = await t.request('POST', `${path}/juggling/activate`);
    expect([unknown.status, unknown.body.error]).toEqual([
      404,
      { code: 'not_found', message: "There is no skill 'juggling'." },
    ]);
    const notYours = await t.request('POST', `${path}/code-review/activate`, { token: BOB });
    expect(notYours.status).toBe(404);
    const { body: after } = await t.request('GET', `/api/skills?conversationId=${conversation.id}`);
    expect(after.items.find((s: { name: string }) => s.name === 'code-review').active).toBe(false);
  });
});
