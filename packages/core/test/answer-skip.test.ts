import { callTool, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  createPlatform,
  MAX_RESULT_RECORD_CHARS,
  MemoryStore,
  NotFoundError,
  PromptSchema,
  type TesseraEvent,
  type ToolCallDecision,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

// The decisions on a pending call beyond approve and reject: answer it with a result in the tool's place, or
// skip it. Neither runs the tool; the model reads which happened.

const toolCalls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

/** What the model was sent as the call's result in request `i`. */
const sentResult = (model: ScriptedModel, i: number) => {
  const output = model.requests[i]!.messages.find((m) => m.type === 'function_call_output');
  return output?.type === 'function_call_output' ? output.output : undefined;
};

async function paused(script = [callTool('demo.delete', { id: 'r1' }), reply('Done.')]) {
  const { plugin, ran } = toolbox();
  const t = await createTestPlatform({ plugins: [plugin], script });
  const prompt = await t.send('delete r1');
  expect(prompt.state).toBe('waiting_for_approval');
  return { t, ran, prompt, id: toolCalls(prompt)[0]!.id };
}

describe('answering a pending call', () => {
  it('records the value as its result without running the tool, and the model reads that the user gave it', async () => {
    const { t, ran, id } = await paused();
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (e) => {
      events.push(e);
    });
    const answer = { deleted: 'r1', note: 'I deleted it by hand' };
    const run = await t.platform.decide(id, { userId: t.userId, answer, reason: 'done already' });
    const done = await run.done;
    expect(ran).toEqual([]);
    expect(done.state).toBe('completed');
    const [call] = toolCalls(done);
    expect(call?.result).toEqual({ type: 'success', output: answer });
    expect(call?.approval).toMatchObject({
      reason: 'This permanently deletes data.',
      decision: 'answered',
      decidedBy: t.userId,
      comment: 'done already',
    });
    expect(call?.approval?.decidedAt).toEqual(expect.any(String));
    expect(call?.endedAt).toEqual(expect.any(String));
    expect(call?.startedAt).toBeUndefined();
    const sent = sentResult(t.model, 1);
    expect(sent).toContain('The user answered this call instead of running the tool');
    expect(sent).toContain(JSON.stringify(answer));
    expect(sent).toContain('done already');
    // Published as approve and reject are: the call updated in place, then the prompt resumed.
    const updated = events.find((e) => e.type === 'prompt.output-updated');
    expect(updated?.type === 'prompt.output-updated' && updated.output).toMatchObject({
      id,
      approval: { decision: 'answered' },
    });
    expect(events.some((e) => e.type === 'prompt.resumed')).toBe(true);
  });

  it('takes any JSON value: null, a number, a text', async () => {
    for (const answer of [null, 0, 'fine, skip the delete', [1, 'two']]) {
      const { t, ran, id } = await paused();
      const done = await (await t.platform.decide(id, { userId: t.userId, answer })).done;
      expect(ran).toEqual([]);
      expect(toolCalls(done)[0]?.result).toEqual({ type: 'success', output: answer });
      expect(sentResult(t.model, 1)).toContain(
        `The user's answer: ${typeof answer === 'string' ? answer : JSON.stringify(answer)}`,
      );
    }
  });
});

describe('skipping a pending call', () => {
  it('records an error skipped without running the tool, and the model reads to go on without it', async () => {
    const { t, ran, id } = await paused();
    const done = await (await t.platform.decide(id, { userId: t.userId, skip: true, reason: 'not needed' }))
      .done;
    expect(ran).toEqual([]);
    expect(done.state).toBe('completed');
    const [call] = toolCalls(done);
    expect(call?.result).toMatchObject({ type: 'error', error: { code: 'skipped' } });
    expect(call?.approval).toMatchObject({ decision: 'skipped', decidedBy: t.userId, comment: 'not needed' });
    const sent = sentResult(t.model, 1);
    expect(sent).toContain('The user chose to skip this call');
    expect(sent).toContain('Go on without its result');
    expect(sent).toContain('not needed');
    expect(sent).not.toContain('did not approve');
  });
});

describe('answer and skip, like approve and reject', () => {
  it('are decided once: a second decision of any kind is a ConflictError', async () => {
    const { t, ran, id } = await paused();
    await (await t.platform.decide(id, { userId: t.userId, skip: true })).done;
    await expect(t.platform.decide(id, { userId: t.userId, answer: 1 })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(t.platform.decide(id, { userId: t.userId, skip: true })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(t.approve(id)).rejects.toBeInstanceOf(ConflictError);

    const second = await paused();
    await (await second.t.platform.decide(second.id, { userId: second.t.userId, answer: 'x' })).done;
    await expect(
      second.t.platform.decide(second.id, { userId: second.t.userId, skip: true }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(second.t.reject(second.id)).rejects.toBeInstanceOf(ConflictError);
    expect([...ran, ...second.ran]).toEqual([]);
  });

  it('of decisions made at once, exactly one wins', async () => {
    const { t, ran, id } = await paused();
    const by = t.userId;
    const results = await Promise.allSettled([
      t.platform.decide(id, { userId: by, answer: 'a' }),
      t.platform.decide(id, { userId: by, skip: true }),
      t.platform.decide(id, { userId: by, approve: true }),
      t.platform.decide(id, { userId: by, answer: 'b' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
    const done = await (won[0] as PromiseFulfilledResult<{ done: Promise<unknown> }>).value.done;
    const decision = toolCalls(done as { output: { type: string }[] })[0]?.approval?.decision;
    expect(ran).toHaveLength(decision === 'approved' ? 1 : 0);
  });

  it("are another user's call's NotFoundError, changing nothing", async () => {
    const { t, ran, id, prompt } = await paused();
    await expect(t.platform.decide(id, { userId: 'someone_else', answer: 1 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(t.platform.decide(id, { userId: 'someone_else', skip: true })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(t.platform.decide('call_nope', { userId: t.userId, skip: true })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await t.platform.getPrompt(prompt.id, t.userId)).toEqual(prompt);
    expect(ran).toEqual([]);
  });

  it('refuse more than one decision, none, or an answer JSON cannot keep: invalid_input, and the call still waits', async () => {
    const { t, ran, id, prompt } = await paused();
    const userId = t.userId;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const refused = [
      { userId },
      { userId, approve: true, skip: true },
      { userId, approve: false, answer: 'x' },
      { userId, answer: 'x', skip: true },
      { userId, skip: false },
      { userId, approve: 'yes' },
      { userId, answer: { a: 1 }, input: { id: 'r2' } },
      { userId, skip: true, input: { id: 'r2' } },
      { userId, answer: cyclic },
      { userId, answer: 10n },
      { userId, answer: () => 'x' },
      { userId, answer: Symbol('x') },
      { userId, answer: 'x'.repeat(MAX_RESULT_RECORD_CHARS) },
      { userId, answer: Array.from({ length: 300_000 }, () => 'abcdefgh') },
    ] as unknown as ToolCallDecision[];
    for (const decision of refused) {
      await expect(t.platform.decide(id, decision)).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect(await t.platform.getPrompt(prompt.id, userId)).toEqual(prompt);
    const done = await t.approve(id);
    expect(done.state).toBe('completed');
    expect(ran).toEqual([{ tool: 'demo.delete', input: { id: 'r1' } }]);
  });

  it('keep working as before with approve (true or false) and undefined keys left out', async () => {
    const { t, ran, id } = await paused();
    const done = await (
      await t.platform.decide(id, { userId: t.userId, approve: false, answer: undefined, skip: undefined })
    ).done;
    expect(toolCalls(done)[0]?.approval?.decision).toBe('rejected');
    expect(ran).toEqual([]);
  });

  it('survive the store round trip, and another process resumes from them', async () => {
    const store = new MemoryStore();
    const first = toolbox();
    const a = createPlatform({
      plugins: [first.plugin],
      store,
      // Its second turn answers after b's model asked for the second call.
      model: new ScriptedModel([callTool('demo.delete', { id: 'r1' }), reply('Both handled.')]),
    });
    const conversation = await a.conversations.create({ userId: 'u1' });
    const waiting = await a.send({ conversationId: conversation.id, userId: 'u1', input: 'delete' });
    const second = toolbox();
    const model = new ScriptedModel([callTool('demo.delete', { id: 'r2' })]);
    const b = createPlatform({ plugins: [second.plugin], store, model });
    const next = await (
      await b.decide(toolCalls(waiting)[0]!.id, { userId: 'u1', answer: { deleted: 'r1' } })
    ).done;
    expect(next.state).toBe('waiting_for_approval');
    const done = await (await a.decide(toolCalls(next)[1]!.id, { userId: 'u1', skip: true })).done;
    expect(done.state).toBe('completed');
    expect([...first.ran, ...second.ran]).toEqual([]);
    const read = await b.getPrompt(done.id, 'u1');
    const again = PromptSchema.parse(JSON.parse(JSON.stringify(read)));
    expect(toolCalls(again).map((c) => [c.approval?.decision, c.result?.type])).toEqual([
      ['answered', 'success'],
      ['skipped', 'error'],
    ]);
    expect(again).toEqual(read);
    // A record written before these decisions existed parses as it is.
    const before = { ...toolCalls(read)[0]!, approval: { reason: 'r', decision: 'rejected' } };
    expect(PromptSchema.parse({ ...read, output: [before] }).output[0]).toEqual(before);
    await a.close();
    await b.close();
  });
});
