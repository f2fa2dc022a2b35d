import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

type Prompt = { id: string; state: string; input?: string };

/** The conversation and its prompts once `done` holds for them (the server runs prompts in the background). */
async function readWhen(id: string, done: (prompts: Prompt[]) => boolean) {
  for (let i = 0; ; i++) {
    const read = await t.request('GET', `/api/conversations/${id}`);
    if (read.status === 200 && done(read.body.prompts))
      return read.body as { conversation: { promptIds: string[] }; prompts: Prompt[] };
    if (i > 2_000) throw new Error(`not reached: ${JSON.stringify(read.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const ended = (count: number) => (prompts: Prompt[]) =>
  prompts.length === count && prompts.every((p) => p.state === 'completed');

/** Sends `input` to the conversation and waits until its `count` prompts have ended. */
async function send(id: string, input: string, count: number) {
  const sent = await t.request('POST', `/api/conversations/${id}/prompts`, { body: { input } });
  expect(sent.status).toBe(202);
  return readWhen(id, ended(count));
}

/** A conversation "Capitals" of three answered prompts. */
async function capitals() {
  const created = await t.request('POST', '/api/conversations', { body: { title: 'Capitals' } });
  const id = created.body.id as string;
  await send(id, 'Capital of France?', 1);
  await send(id, 'Capital of Italy?', 2);
  return { id, ...(await send(id, 'Capital of Norway?', 3)) };
}

const fork = (id: string, body: unknown, token?: string) =>
  t.request('POST', `/api/conversations/${id}/fork`, { body, ...(token && { token }) });

describe('forks (POST /api/conversations/{id}/fork)', () => {
  it('forks at a prompt; the model then reads only the branch; the source is unchanged; both are branches', async () => {
    t = await testServer([reply('Paris.'), reply('Rome.'), reply('Oslo.'), reply('Madrid.')]);
    const source = await capitals();
    const forked = await fork(source.id, { promptId: source.prompts[2]!.id });
    expect(forked.status).toBe(201);
    expect(forked.body).toMatchObject({
      title: 'Capitals',
      promptIds: [source.prompts[0]!.id, source.prompts[1]!.id],
      forkOf: { conversationId: source.id, promptId: source.prompts[2]!.id, rootId: source.id },
    });

    const branch = await send(forked.body.id, 'Capital of Spain?', 3);
    expect(branch.prompts.map((p) => p.input)).toEqual([
      'Capital of France?',
      'Capital of Italy?',
      'Capital of Spain?',
    ]);
    const read = t.model.read();
    expect(read).toContain('Rome.');
    expect(read).toContain('Capital of Spain?');
    expect(read).not.toContain('Norway');
    expect(read).not.toContain('Oslo.');

    const again = await t.request('GET', `/api/conversations/${source.id}`);
    expect(again.body.prompts).toEqual(source.prompts);
    expect(again.body.conversation.promptIds).toEqual(source.conversation.promptIds);

    const branches = await t.request('GET', `/api/conversations/${forked.body.id}/branches`);
    expect(branches.status).toBe(200);
    expect(branches.body.items.map((c: { id: string }) => c.id).sort()).toEqual(
      [source.id, forked.body.id].sort(),
    );
    const paged = await t.request('GET', `/api/conversations/${source.id}/branches?limit=1`);
    expect([paged.body.items.length, typeof paged.body.nextCursor]).toEqual([1, 'string']);
  });

  it('answers a fork past limits.maxBranches and a conversation past limits.maxConversations with 409, keeping neither', async () => {
    t = await testServer([reply('Paris.')], { limits: { maxBranches: 2, maxConversations: 3 } });
    const { id } = (await t.request('POST', '/api/conversations', { body: {} })).body;
    const [prompt] = (await send(id, 'Capital of France?', 1)).prompts;
    expect((await fork(id, { promptId: prompt!.id })).status).toBe(201);
    const past = await fork(id, { promptId: prompt!.id });
    expect([past.status, past.body.error.code]).toEqual([409, 'too_many_branches']);
    expect(past.body.error.message).toMatch(/has 2 branches, the most one may have: delete a branch/);
    expect((await t.request('GET', `/api/conversations/${id}/branches`)).body.items).toHaveLength(2);

    const create = (token?: string) =>
      t.request('POST', '/api/conversations', { body: {}, ...(token && { token }) });
    expect((await create()).status).toBe(201);
    const over = await create();
    expect([over.status, over.body.error.code]).toEqual([409, 'too_many_conversations']);
    expect((await t.request('GET', '/api/conversations')).body.items).toHaveLength(3);
    expect((await create(BOB)).status).toBe(201); // another user's are counted apart
  });

  it("keeps the fork's history when the source is deleted", async () => {
    t = await testServer([reply('Paris.'), reply('Rome.'), reply('Oslo.')]);
    const source = await capitals();
    const forked = await fork(source.id, { promptId: source.prompts[2]!.id, title: 'Two capitals' });
    expect(forked.body.title).toBe('Two capitals');
    expect((await t.request('DELETE', `/api/conversations/${source.id}`)).status).toBe(204);
    const read = await t.request('GET', `/api/conversations/${forked.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.prompts).toEqual(source.prompts.slice(0, 2));
  });

  it('forks at a prompt waiting for approval, sharing the ended prompts before it', async () => {
    t = await testServer([reply('Hello.'), callTool('demo.transfer', { amount: 500, to: 'Ada' })], {
      plugins: [demoPlugin],
    });
    const created = await t.request('POST', '/api/conversations', { body: {} });
    const id = created.body.id as string;
    const first = await send(id, 'Hi', 1);
    await t.request('POST', `/api/conversations/${id}/prompts`, { body: { input: 'transfer $500 to Ada' } });
    const waiting = await readWhen(id, (p) => p[1]?.state === 'waiting_for_approval');
    const forked = await fork(id, { promptId: waiting.prompts[1]!.id });
    expect(forked.status).toBe(201);
    expect(forked.body.promptIds).toEqual([first.prompts[0]!.id]);
  });

  it("answers another user's conversation, a prompt not in it and an unknown one with 404; a bad body with 400", async () => {
    t = await testServer([reply('Paris.'), reply('Rome.'), reply('Oslo.'), reply('Bob’s.')]);
    const source = await capitals();
    const other = await t.request('POST', '/api/conversations', { body: {} });
    const bobs = await t.request('POST', '/api/conversations', { body: {}, token: BOB });
    const promptId = source.prompts[1]!.id;
    const refused = [
      [await fork(source.id, { promptId }, BOB), 404],
      [await t.request('GET', `/api/conversations/${source.id}/branches`, { token: BOB }), 404],
      [await fork(bobs.body.id, { promptId }), 404],
      [await fork(other.body.id, { promptId }), 404],
      [await fork(source.id, { promptId: 'prm_missing' }), 404],
      [await fork('conv_missing', { promptId }), 404],
      [await fork(source.id, {}), 400],
      [await fork(source.id, { promptId: 'a b' }), 400],
      [await fork(source.id, { promptId, title: '' }), 400],
      [await fork(source.id, { promptId, title: 'x'.repeat(201) }), 400],
      [await fork(source.id, { promptId, extra: 1 }), 400],
      [await t.request('POST', `/api/conversations/${source.id}/fork`, { raw: '{"promptId":' }), 400],
    ] as const;
    for (const [answer, status] of refused) {
      expect([answer.status, typeof answer.body.error?.message]).toEqual([status, 'string']);
    }
    const listed = await t.request('GET', '/api/conversations');
    expect(listed.body.items).toHaveLength(2);
  });
});
