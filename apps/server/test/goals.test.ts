import { goalsPlugin } from '@tessera/plugin-goals';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { GoalSchema } from '../src/http/goal-schemas.ts';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Goal = {
  id: string;
  conversationId: string;
  userId: string;
  state: string;
  objective: string;
  criteria: {
    id: string;
    description: string;
    evidence?: { by: string; summary: string; decidedBy?: string };
  }[];
  budgets: Record<string, number>;
  used: Record<string, number>;
  stallLimit: number;
  pause?: { kind: string; reason: string };
  endReason?: string;
};

const human = (description: string) => ({ description });

/** A goal as the API documents it (the OpenAPI schema `Goal`): every field it has is documented, and fits. */
function expectDocumented(goal: unknown) {
  const parsed = GoalSchema.safeParse(goal);
  expect(parsed.error?.issues ?? []).toEqual([]);
  const documented = Object.keys(GoalSchema.shape);
  expect(Object.keys(goal as object).filter((key) => !documented.includes(key))).toEqual([]);
}

async function conversation(token?: string): Promise<string> {
  const { body } = await t!.request('POST', '/api/conversations', { body: {}, ...(token && { token }) });
  return body.id;
}

const goalOf = (id: string) => `/api/conversations/${id}/goal`;

/** Polls the goal until `done` says so (the goal's prompts run in the background). */
async function goalWhen(id: string, done: (goal: Goal) => boolean): Promise<Goal> {
  for (let i = 0; i < 1_000; i++) {
    const { status, body } = await t!.request('GET', goalOf(id));
    expect(status).toBe(200);
    if (done(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the goal did not get there');
}

/** Polls the conversation until none of its prompts runs. */
async function settled(id: string) {
  for (let i = 0; i < 1_000; i++) {
    const { body } = await t!.request('GET', `/api/conversations/${id}`);
    const prompts = body.prompts as { id: string; state: string }[];
    if (prompts.length > 0 && prompts.every((prompt) => prompt.state !== 'running')) return prompts;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('a prompt still runs');
}

describe('goals over HTTP', () => {
  it('creates a goal whose first prompt runs, out of budget after it; resumed with a larger budget, it runs again', async () => {
    t = await testServer([reply('Looking at the tests first.'), reply('Fixed the rounding.')]);
    const id = await conversation();
    const created = await t.request('POST', goalOf(id), {
      body: {
        objective: 'Get the billing tests green.',
        criteria: [human('Ada agrees with the fix.')],
        budgets: { prompts: 1 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^gol_/),
      conversationId: id,
      userId: 'alice',
      objective: 'Get the billing tests green.',
      criteria: [{ id: 'c1', description: 'Ada agrees with the fix.', verify: { kind: 'human' } }],
      budgets: { prompts: 1 },
    });
    // The first prompt ran: the model read the objective.
    expectDocumented(created.body);
    const out = await goalWhen(id, (goal) => goal.state === 'budget_exhausted');
    expectDocumented(out);
    expect(out.used.prompts).toBe(1);
    expect(JSON.stringify(t.model.requests[0])).toContain('Get the billing tests green.');
    expect(await settled(id)).toHaveLength(1);

    // Resumed without a budget above what it used: refused, still out of budget.
    const refused = await t.request('POST', `${goalOf(id)}/resume`, { body: {} });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_input']);
    const notAbove = await t.request('POST', `${goalOf(id)}/resume`, { body: { budgets: { prompts: 1 } } });
    expect(notAbove.status).toBe(400);
    expect((await t.request('GET', goalOf(id))).body.state).toBe('budget_exhausted');

    const resumed = await t.request('POST', `${goalOf(id)}/resume`, { body: { budgets: { prompts: 2 } } });
    expect([resumed.status, resumed.body.state, resumed.body.budgets]).toEqual([
      200,
      'active',
      { prompts: 2 },
    ]);
    const again = await goalWhen(id, (goal) => goal.state === 'budget_exhausted');
    expect(again.used.prompts).toBe(2);
    expect(await settled(id)).toHaveLength(2);
    expect(t.model.requests).toHaveLength(2);

    // Listed as the user's, filtered by state; never another user's.
    const listed = await t.request('GET', '/api/goals');
    expect(listed.body.items.map((goal: Goal) => goal.id)).toEqual([created.body.id]);
    expect((await t.request('GET', '/api/goals?state=active')).body.items).toEqual([]);
    expect((await t.request('GET', '/api/goals', { token: BOB })).body.items).toEqual([]);
  });

  it('pauses, resumes and stops a goal; each refused with 409 once the goal has ended', async () => {
    t = await testServer([reply('On it.')]);
    const id = await conversation();
    const body = {
      objective: 'Tidy the docs.',
      criteria: [human('Ada is happy.')],
      stallLimit: 1,
      start: false,
    };
    expect((await t.request('POST', goalOf(id), { body })).body.state).toBe('active');
    // One live goal per conversation.
    const second = await t.request('POST', goalOf(id), { body });
    expect([second.status, second.body.error.code]).toEqual([409, 'conflict']);

    const paused = await t.request('POST', `${goalOf(id)}/pause`, { body: { reason: 'Lunch.' } });
    expect([paused.status, paused.body.state, paused.body.pause]).toEqual([
      200,
      'paused',
      expect.objectContaining({ kind: 'user' }),
    ]);
    expect((await t.request('POST', `${goalOf(id)}/pause`)).status).toBe(409); // paused already
    const resumed = await t.request('POST', `${goalOf(id)}/resume`); // no body: none needed
    expect([resumed.status, resumed.body.state]).toEqual([200, 'active']);
    // Its next prompt ran; without progress in it (stallLimit 1), the goal pauses for a stall.
    const stalled = await goalWhen(id, (goal) => goal.state === 'paused');
    expect(stalled.pause?.kind).toBe('stall');
    await settled(id);

    const stopped = await t.request('POST', `${goalOf(id)}/stop`, { body: { reason: 'Done by hand.' } });
    expect([stopped.status, stopped.body.state]).toEqual([200, 'stopped']);
    for (const action of ['pause', 'resume', 'stop']) {
      const late = await t.request('POST', `${goalOf(id)}/${action}`, { body: {} });
      expect([action, late.status, late.body.error.code]).toEqual([action, 409, 'conflict']);
    }
    const revised = await t.request('PATCH', goalOf(id), { body: { objective: 'Another.' } });
    expect(revised.status).toBe(409);
    const confirmed = await t.request('POST', `${goalOf(id)}/criteria/c1/confirm`, { body: {} });
    expect(confirmed.status).toBe(409);
    expect((await t.request('GET', goalOf(id))).body.state).toBe('stopped');
    // An ended goal leaves room for a new one.
    expect((await t.request('POST', goalOf(id), { body })).status).toBe(201);
  });

  it('revises a live goal, and completes it when a person confirms its last criterion', async () => {
    t = await testServer([]);
    const id = await conversation();
    const created = await t.request('POST', goalOf(id), {
      body: { objective: 'Ship the fix.', criteria: [human('Ada read it.')], start: false },
    });
    expect(created.status).toBe(201);
    const revised = await t.request('PATCH', goalOf(id), {
      body: {
        objective: 'Ship the rounding fix.',
        criteria: [human('Ada read it.'), human('Bo approved the release.')],
        budgets: { modelCalls: 20 },
        stallLimit: 5,
      },
    });
    expect(revised.status).toBe(200);
    expect(revised.body).toMatchObject({
      objective: 'Ship the rounding fix.',
      criteria: [{ id: 'c1' }, { id: 'c2' }],
      budgets: { modelCalls: 20 },
      stallLimit: 5,
      state: 'active',
    });

    const first = await t.request('POST', `${goalOf(id)}/criteria/c1/confirm`, {
      body: { note: 'Read it.' },
    });
    expect([first.status, first.body.state]).toEqual([200, 'active']);
    expect(first.body.criteria[0].evidence).toMatchObject({
      by: 'human',
      summary: 'Read it.',
      decidedBy: 'alice',
    });
    expect((await t.request('POST', `${goalOf(id)}/criteria/c9/confirm`)).status).toBe(404);
    const last = await t.request('POST', `${goalOf(id)}/criteria/c2/confirm`);
    expect([last.status, last.body.state]).toEqual([200, 'completed']);
    expect(last.body.criteria.every((criterion: Goal['criteria'][number]) => criterion.evidence)).toBe(true);
    expectDocumented(last.body);
    expect((await t.request('GET', goalOf(id))).body.state).toBe('completed');
    expect((await t.request('POST', `${goalOf(id)}/pause`)).status).toBe(409);
  });

  it("answers 404 for another user's conversation and goal, and for a conversation without a goal", async () => {
    t = await testServer([]);
    const id = await conversation();
    const body = { objective: 'Mine.', criteria: [human('Done.')], start: false };
    expect((await t.request('GET', goalOf(id))).status).toBe(404); // none yet
    expect((await t.request('POST', goalOf(id), { body })).status).toBe(201);

    const asBob = (method: string, path: string, sent?: unknown) =>
      t!.request(method, path, { token: BOB, ...(sent !== undefined && { body: sent }) });
    const attempts = [
      await asBob('GET', goalOf(id)),
      await asBob('POST', goalOf(id), body),
      await asBob('PATCH', goalOf(id), { objective: 'Theirs.' }),
      await asBob('POST', `${goalOf(id)}/pause`, {}),
      await asBob('POST', `${goalOf(id)}/resume`, {}),
      await asBob('POST', `${goalOf(id)}/stop`, {}),
      await asBob('POST', `${goalOf(id)}/criteria/c1/confirm`, { note: 'Confirmed.' }),
    ];
    for (const answer of attempts)
      expect([answer.status, answer.body.error.code]).toEqual([404, 'not_found']);
    // The same answer as a conversation that does not exist: nothing tells them apart.
    const missing = await t.request('GET', goalOf('conv_doesNotExist0'));
    expect(missing.status).toBe(404);
    expect(JSON.stringify(attempts)).not.toContain('Mine.');
    // Unchanged for its owner.
    expect((await t.request('GET', goalOf(id))).body).toMatchObject({ objective: 'Mine.', state: 'active' });
    // A blank reason is none (the plugin's own words).
    const blank = await t.request('POST', `${goalOf(id)}/pause`, { body: { reason: '  ' } });
    expect([blank.status, blank.body.pause?.reason]).toEqual([200, 'Paused by the user.']);
  });

  it('answers 400 for malformed bodies, unknown keys and out-of-bounds values, creating nothing', async () => {
    t = await testServer([]);
    const id = await conversation();
    const ok = { objective: 'Do it.', criteria: [human('Done.')], start: false };
    const bad: unknown[] = [
      {},
      { ...ok, objective: '' },
      { ...ok, objective: 'x'.repeat(4_001) },
      { ...ok, criteria: [] },
      { ...ok, criteria: Array.from({ length: 21 }, (_, i) => human(`c${i}`)) },
      { ...ok, criteria: [human('d'.repeat(1_001))] },
      { ...ok, criteria: [{ description: 'x', verify: { kind: 'check' } }] },
      { ...ok, criteria: [{ description: 'x', verify: { kind: 'check', toolId: 'a b' } }] },
      { ...ok, criteria: [{ description: 'x', extra: 1 }] },
      { ...ok, criteria: [{ description: 'x', verify: { kind: 'check', toolId: 'no.such_tool' } }] }, // not offered
      { ...ok, budgets: { modelCalls: 0 } },
      { ...ok, budgets: { modelCalls: 1.5 } },
      { ...ok, budgets: { maxRounds: 5 } },
      { ...ok, budgets: { prompts: 1e12 } },
      { ...ok, stallLimit: 0 },
      { ...ok, stallLimit: 21 },
      { ...ok, userId: 'bob' },
    ];
    for (const body of bad) {
      const answer = await t.request('POST', goalOf(id), { body });
      expect([JSON.stringify(body).slice(0, 80), answer.status]).toEqual([
        JSON.stringify(body).slice(0, 80),
        400,
      ]);
    }
    expect((await t.request('POST', goalOf(id), { raw: '{"objective":' })).status).toBe(400);
    expect((await t.request('GET', goalOf(id))).status).toBe(404); // nothing was created

    expect((await t.request('POST', goalOf(id), { body: ok })).status).toBe(201);
    for (const [method, path, body] of [
      ['PATCH', goalOf(id), {}],
      ['PATCH', goalOf(id), { state: 'completed' }],
      ['POST', `${goalOf(id)}/pause`, { reason: 'r'.repeat(2_001) }],
      ['POST', `${goalOf(id)}/pause`, { why: 'no' }],
      ['POST', `${goalOf(id)}/resume`, { budgets: { prompts: -1 } }],
      ['POST', `${goalOf(id)}/stop`, { reason: 42 }],
      ['POST', `${goalOf(id)}/criteria/c1/confirm`, { note: 'n'.repeat(2_001) }],
      ['POST', `${goalOf(id)}/criteria/c1/confirm`, { evidence: 'forged' }],
    ] as const) {
      const answer = await t.request(method, path, { body });
      expect([method, path, answer.status]).toEqual([method, path, 400]);
    }
    for (const query of ['limit=0', 'limit=201', 'state=done', 'cursor=%00']) {
      expect([query, (await t.request('GET', `/api/goals?${query}`)).status]).toEqual([query, 400]);
    }
    // A forged cursor (opaque, the plugin's own form) is the client's fault: a 4xx, never a 500.
    for (const cursor of ['forged', Buffer.from('["x","y"]').toString('base64url'), 'a'.repeat(200)]) {
      const page = await t.request('GET', `/api/goals?cursor=${cursor}`);
      expect([cursor, page.status < 500]).toEqual([cursor, true]);
    }
    expect((await t.request('GET', goalOf('conv bad'))).status).toBe(400);
    expect((await t.request('GET', goalOf(id))).body).toMatchObject({ objective: 'Do it.', state: 'active' });
  });

  it('answers 413 for a body over limits.maxBodyBytes, and for a text over limits.maxInputChars', async () => {
    t = await testServer([], { limits: { maxBodyBytes: 10_000, maxInputChars: 500 } });
    const id = await conversation();
    const huge = await t.request('POST', goalOf(id), {
      body: { objective: 'x'.repeat(20_000), criteria: [human('Done.')], start: false },
    });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large']);
    const long = await t.request('POST', goalOf(id), {
      body: { objective: 'x'.repeat(600), criteria: [human('Done.')], start: false },
    });
    expect([long.status, long.body.error.code]).toEqual([413, 'input_too_large']);
    expect((await t.request('GET', goalOf(id))).status).toBe(404);
  });

  it('counts setting and resuming a goal as prompt sends (each starts a prompt), not its other actions', async () => {
    t = await testServer([], { rateLimits: { promptsPerUser: { max: 1, windowSeconds: 60 } } });
    const id = await conversation();
    const body = { objective: 'Do it.', criteria: [human('Done.')], start: false };
    expect((await t.request('POST', goalOf(id), { body })).status).toBe(201);
    expect((await t.request('POST', `${goalOf(id)}/pause`)).status).toBe(200);
    expect((await t.request('GET', goalOf(id))).status).toBe(200);
    const resumed = await t.request('POST', `${goalOf(id)}/resume`);
    expect([resumed.status, resumed.body.error.code]).toEqual([429, 'rate_limited']);
    expect((await t.request('GET', goalOf(id))).body.state).toBe('paused');
  });

  it('has no goal routes without the plugin, and documents them (tag goals) with it', async () => {
    t = await testServer([], { defaultPlugins: false });
    const id = await conversation();
    expect((await t.request('GET', goalOf(id))).status).toBe(404);
    expect((await t.request('GET', '/api/goals')).status).toBe(404);
    const { body: bare } = await t.request('GET', '/openapi.json', { token: null });
    expect(Object.keys(bare.paths).filter((path) => path.includes('goal'))).toEqual([]);
    await t.close();

    t = await testServer([], { plugins: [goalsPlugin()], defaultPlugins: false });
    const { body: doc } = await t.request('GET', '/openapi.json', { token: null });
    expect(Object.keys(doc.paths).filter((path) => path.includes('goal'))).toEqual([
      '/api/goals',
      '/api/conversations/{id}/goal',
      '/api/conversations/{id}/goal/pause',
      '/api/conversations/{id}/goal/resume',
      '/api/conversations/{id}/goal/stop',
      '/api/conversations/{id}/goal/criteria/{criterionId}/confirm',
    ]);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('goals');
    const create = doc.paths['/api/conversations/{id}/goal'].post;
    expect(create.tags).toEqual(['goals']);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '404', '409', '413']),
    );
  });
});
