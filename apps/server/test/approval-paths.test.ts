import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { BOB, testServer, waitFor } from './harness.ts';
import { level } from './support/sub-agents.ts';

// GET /api/approvals lists each waiting call with its path (issue 31): the chain of prompts from the user's
// own prompt down to the call's, read through each prompt's metadata.parent with the user's id only.

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

type Step = {
  conversationId: string;
  promptId: string;
  toolCallId?: string;
  toolId?: string;
  agent?: string;
};
type Approval = {
  toolCallId: string;
  toolId: string;
  promptId: string;
  conversationId: string;
  startedAt?: string;
  waitsOn?: { conversationId: string; promptId: string };
  path: Step[];
};

const approvals = async (token?: string) =>
  (await t.request('GET', '/api/approvals', token ? { token } : {})).body.items as Approval[];

describe('the path of a pending call', () => {
  it("depth 3: each call's path runs from the user's prompt down to it; suspended calls name the child they wait on", async () => {
    t = await testServer(
      [
        callTool('agent.one', { task: 'Clean alpha, via two.' }),
        callTool('agent.two', { task: 'Clean alpha, via three.' }),
        callTool('agent.three', { task: 'Delete alpha.' }),
        callTool('demo.delete_records', { names: ['alpha'] }),
      ],
      {
        plugins: [
          demoPlugin,
          agentsPlugin({ agents: [level('one', 'two'), level('two', 'three'), level('three', undefined)] }),
        ],
      },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', {
      body: { title: 'Trip planning' },
    });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Clean up alpha' },
    });
    await waitFor(async () => (await approvals()).length === 4);
    // Cheap per page: the waiting prompts listed are every step of every path (no prompt read again), and
    // each conversation is read once for its title, however many paths it is on.
    const { store } = t.server.platform;
    const promptReads = vi.spyOn(store.prompts, 'get');
    const conversationReads = vi.spyOn(store.conversations, 'get');
    const items = await approvals();
    expect(promptReads).not.toHaveBeenCalled();
    expect(conversationReads.mock.calls.map(([id]) => id).sort()).toEqual(
      [...new Set(items.map((item) => item.conversationId))].sort(),
    );
    promptReads.mockRestore();
    conversationReads.mockRestore();
    const byTool = (toolId: string) => items.find((a) => a.toolId === toolId)!;
    const deepest = byTool('demo.delete_records');
    const [one, two, three] = [byTool('agent.one'), byTool('agent.two'), byTool('agent.three')];

    // The deepest call: four steps, the user's prompt first, each step the call that started the next.
    expect(deepest.path).toEqual([
      {
        conversationId: conversation.id,
        promptId: sent.body.prompt.id,
        toolCallId: one.toolCallId,
        toolId: 'agent.one',
        title: 'Trip planning',
      },
      {
        conversationId: two.conversationId,
        promptId: two.promptId,
        toolCallId: two.toolCallId,
        toolId: 'agent.two',
        agent: 'one',
        title: expect.stringMatching(/^one: /),
      },
      {
        conversationId: three.conversationId,
        promptId: three.promptId,
        toolCallId: three.toolCallId,
        toolId: 'agent.three',
        agent: 'two',
        title: expect.stringMatching(/^two: /),
      },
      {
        conversationId: deepest.conversationId,
        promptId: deepest.promptId,
        toolCallId: deepest.toolCallId,
        toolId: 'demo.delete_records',
        agent: 'three',
        title: expect.stringMatching(/^three: /),
      },
    ]);
    // Each call above is a prefix of it, and waits on the next level's prompt; the deepest waits on nothing.
    expect(one.path).toEqual(deepest.path.slice(0, 1));
    expect(two.path).toEqual(deepest.path.slice(0, 2));
    expect(three.path).toEqual(deepest.path.slice(0, 3));
    expect(one.waitsOn).toEqual({ conversationId: two.conversationId, promptId: two.promptId });
    expect(two.waitsOn).toEqual({ conversationId: three.conversationId, promptId: three.promptId });
    expect(three.waitsOn).toEqual({ conversationId: deepest.conversationId, promptId: deepest.promptId });
    expect([one, two, three].every((a) => typeof a.startedAt === 'string')).toBe(true);
    expect(deepest).not.toHaveProperty('startedAt');
    expect(deepest).not.toHaveProperty('waitsOn');

    // Another user sees none of it.
    expect(await approvals(BOB)).toEqual([]);
  });

  it("a sub-agent's pause has its path too, and its parent's call waits on it", async () => {
    t = await testServer(
      [
        callTool('agent.worker', { task: 'Weather in Rome, please.' }), // the user's prompt
        callTool('demo.weather', { city: 'Rome' }), // the worker: its next round is past the budget
      ],
      {
        plugins: [
          demoPlugin,
          agentsPlugin({
            agents: [
              defineAgent({
                name: 'worker',
                description: 'Looks up the weather.',
                instructions: 'Look up the weather.',
                tools: ['demo.weather'],
              }),
            ],
          }),
        ],
        budgets: { maxRounds: 1 },
      },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: { title: 'Rome' } });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Weather in Rome?' },
    });
    const pauses = async () => (await t.request('GET', '/api/pauses')).body.items as { path: Step[] }[];
    await waitFor(async () => (await pauses()).length === 1 && (await approvals()).length === 1);
    const [call] = await approvals();
    const [pause] = await pauses();
    expect(call).toMatchObject({ toolId: 'agent.worker', waitsOn: { promptId: pause!.path[1]!.promptId } });
    expect(pause!.path).toEqual([
      {
        conversationId: conversation.id,
        promptId: sent.body.prompt.id,
        toolCallId: call!.toolCallId,
        toolId: 'agent.worker',
        title: 'Rome',
      },
      {
        conversationId: call!.waitsOn!.conversationId,
        promptId: call!.waitsOn!.promptId,
        agent: 'worker',
        title: expect.stringMatching(/^worker: /),
      },
    ]);
    expect((await t.request('GET', '/api/pauses', { token: BOB })).body.items).toEqual([]);
  });

  it("a forged or malformed parent link never reaches another user's prompt, and a cycle or a long chain ends", async () => {
    t = await testServer(
      [
        callTool('demo.delete_records', { names: ['bobs'] }), // Bob's own prompt
        callTool('demo.delete_records', { names: ['forged'] }), // Alice's, naming Bob's prompt as its parent
        callTool('demo.delete_records', { names: ['malformed'] }),
        callTool('demo.delete_records', { names: ['cycle-a'] }),
        callTool('demo.delete_records', { names: ['cycle-b'] }),
        ...Array.from({ length: 11 }, (_, i) => reply(`link ${i}`)),
        callTool('demo.delete_records', { names: ['long'] }),
      ],
      { plugins: [demoPlugin] },
    );
    const { platform } = t.server;
    const bobConversation = (await t.request('POST', '/api/conversations', { token: BOB, body: {} })).body;
    const bobPrompt = (
      await t.request('POST', `/api/conversations/${bobConversation.id}/prompts`, {
        token: BOB,
        body: { input: 'Delete mine' },
      })
    ).body.prompt;
    await waitFor(async () => (await approvals(BOB)).length === 1);
    const [bobCall] = await approvals(BOB);

    // Clients cannot set a prompt's metadata; code (a plugin) can: Alice's prompts with forged links.
    const send = async (
      metadata: Record<string, unknown>,
      given?: { conversationId: string; promptId: string },
    ) =>
      platform.send({
        conversationId:
          given?.conversationId ?? (await platform.conversations.create({ userId: 'alice' })).id,
        userId: 'alice',
        input: 'Delete',
        metadata,
        ...(given && { promptId: given.promptId }),
      });
    const forged = await send({
      agent: 'spy',
      parent: { conversationId: bobConversation.id, promptId: bobPrompt.id, toolCallId: bobCall!.toolCallId },
    });
    const malformed = await send({ parent: { promptId: 42 } });
    // A cycle: a's parent is b, b's is a.
    const [convA, convB] = await Promise.all([
      platform.conversations.create({ userId: 'alice' }),
      platform.conversations.create({ userId: 'alice' }),
    ]);
    const a = await send(
      { parent: { conversationId: convB.id, promptId: 'prm_cycle_b' } },
      { conversationId: convA.id, promptId: 'prm_cycle_a' },
    );
    const b = await send(
      { parent: { conversationId: convA.id, promptId: a.id } },
      { conversationId: convB.id, promptId: 'prm_cycle_b' },
    );
    // A chain of twelve prompts, each the parent of the next; the last one's call waits.
    const chain = await platform.conversations.create({ userId: 'alice' });
    let previous: { conversationId: string; id: string } | undefined;
    for (let i = 0; i < 12; i++) {
      previous = await platform.send({
        conversationId: chain.id,
        userId: 'alice',
        input: `Link ${i}`,
        ...(previous && { metadata: { parent: { conversationId: chain.id, promptId: previous.id } } }),
      });
    }
    const long = previous!;

    const items = await approvals();
    const of = (promptId: string) => items.find((item) => item.promptId === promptId)!;
    // Nothing of Bob's shows in Alice's list.
    const listed = JSON.stringify(items);
    for (const id of [bobConversation.id, bobPrompt.id, bobCall!.toolCallId])
      expect(listed).not.toContain(id);
    expect(of(forged.id).path).toEqual([
      {
        conversationId: forged.conversationId,
        promptId: forged.id,
        toolCallId: of(forged.id).toolCallId,
        toolId: 'demo.delete_records',
        agent: 'spy',
      },
    ]);
    expect(of(malformed.id).path.map((s) => s.promptId)).toEqual([malformed.id]);
    expect(of(a.id).path.map((s) => s.promptId)).toEqual([b.id, a.id]);
    expect(of(b.id).path.map((s) => s.promptId)).toEqual([a.id, b.id]);
    // At most eight steps: the seven prompts above the call, the call's own last.
    const longPath = of(long.id).path;
    expect(longPath).toHaveLength(8);
    expect(longPath.at(-1)?.promptId).toBe(long.id);
    expect(longPath.every((step) => step.conversationId === chain.id)).toBe(true);
    // Bob's own list is his call only, with its one-step path.
    expect((await approvals(BOB)).map((item) => item.path.map((s) => s.promptId))).toEqual([[bobPrompt.id]]);
  });
});
