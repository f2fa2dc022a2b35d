import { agentsPlugin } from '@tessera/plugin-agents';
import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { attachEvents, BOB, collectEvents, type Received, testServer, waitFor } from './harness.ts';
import { level } from './support/sub-agents.ts';

// Issue 31: a conversation's event stream carries the events of the prompts that run for it at any depth (a
// sub-agent's child, its grandchild), each unchanged (its own conversation and prompt ids), resumable with
// Last-Event-ID in the parent's sequence; never another user's.

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

type Approval = { toolCallId: string; toolId: string; promptId: string; conversationId: string };

/** The events' type, conversation and prompt, in order (what a client tells them apart by). */
const shapes = (events: Received[]) =>
  events
    .filter((e) => e.event.startsWith('prompt.'))
    .map((e) => `${e.event} ${e.data.conversationId} ${e.data.promptId}`);

describe("a conversation's stream carries its sub-agents' events", () => {
  it("shows the child's and the grandchild's events with their own ids, resumes them, and never to another user", async () => {
    t = await testServer(
      [
        callTool('agent.one', { task: 'Clean alpha, via two.' }), // the user's prompt
        callTool('agent.two', { task: 'Delete alpha.' }), // one
        callTool('demo.delete_records', { names: ['alpha'] }), // two: needs approval
        reply('two: deleted alpha'),
        reply('one: two deleted alpha'),
        reply('Alpha is deleted, two levels down.'),
        reply("Bob's own answer."),
      ],
      { plugins: [demoPlugin, agentsPlugin({ agents: [level('one', 'two'), level('two', undefined)] })] },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const { body: bobs } = await t.request('POST', '/api/conversations', { token: BOB, body: {} });
    // Bob cannot open Alice's stream; his own stream is open all along.
    expect(
      (await t.request('GET', `/api/conversations/${conversation.id}/events`, { token: BOB })).status,
    ).toBe(404);
    const bobStream = await attachEvents(`${t.url}/api/conversations/${bobs.id}/events`, {
      token: BOB,
      until: (e) => e.event === 'prompt.completed',
    });
    // The user's own prompt ends the stream (its child's and grandchild's end before it, in other conversations).
    const topEnded = (e: Received) =>
      e.event === 'prompt.completed' && e.data.conversationId === conversation.id;
    const stream = await attachEvents(`${t.url}/api/conversations/${conversation.id}/events`, {
      until: topEnded,
    });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Clean up alpha' },
    });
    const topId = sent.body.prompt.id;
    const approvals = async () => (await t.request('GET', '/api/approvals')).body.items as Approval[];
    await waitFor(async () => (await approvals()).some((a) => a.toolId === 'demo.delete_records'));
    const deepest = (await approvals()).find((a) => a.toolId === 'demo.delete_records')!;
    expect(
      (await t.request('POST', `/api/tool-calls/${deepest.toolCallId}/approve`, { body: {} })).status,
    ).toBe(202);
    const events = await stream.received;

    // The child (one) and the grandchild (two) started, each in its own conversation, seen in the parent's.
    const started = events.filter((e) => e.event === 'prompt.started');
    expect(started).toHaveLength(3);
    const [top, child, grandchild] = started.map(
      (e) =>
        e.data.prompt as unknown as {
          id: string;
          conversationId: string;
          metadata?: Record<string, unknown>;
        },
    );
    expect(top!.id).toBe(topId);
    expect(top!.conversationId).toBe(conversation.id);
    expect(child!.metadata?.agent).toBe('one');
    expect(child!.metadata?.parent).toMatchObject({ conversationId: conversation.id, promptId: topId });
    expect(grandchild!.metadata?.agent).toBe('two');
    expect(grandchild!.metadata?.parent).toMatchObject({
      conversationId: child!.conversationId,
      promptId: child!.id,
    });
    expect(new Set([conversation.id, child!.conversationId, grandchild!.conversationId]).size).toBe(3);
    expect(deepest).toMatchObject({ promptId: grandchild!.id, conversationId: grandchild!.conversationId });
    // Each event is unchanged: its own conversation and prompt; the grandchild's call, its wait and its end.
    const seen = shapes(events);
    const of = (prompt: { id: string; conversationId: string }, type: string) =>
      `${type} ${prompt.conversationId} ${prompt.id}`;
    for (const prompt of [child!, grandchild!]) {
      expect(seen).toContain(of(prompt, 'prompt.started'));
      expect(seen).toContain(of(prompt, 'prompt.completed'));
    }
    expect(seen).toContain(of(grandchild!, 'prompt.approval-requested'));
    expect(seen).toContain(of(grandchild!, 'prompt.resumed'));
    const deleted = events.findLast(
      (e) =>
        e.event === 'prompt.output-updated' &&
        e.data.promptId === grandchild!.id &&
        (e.data.output as { toolId?: string }).toolId === 'demo.delete_records',
    );
    expect((deleted!.data.output as { result?: unknown }).result).toEqual({
      type: 'success',
      output: { deleted: ['alpha'] },
    });
    // The child's answer streamed into the parent's stream too.
    const childText = events
      .filter((e) => e.event === 'prompt.text-delta' && e.data.promptId === child!.id)
      .map((e) => e.data.delta)
      .join('');
    expect(childText).toBe('one: two deleted alpha');
    // Every event has an id of the parent's stream, in order.
    const seqs = events.filter((e) => e.id).map((e) => Number(e.id!.split('-')[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    // Resuming from the grandchild's wait replays what came after it, the forwarded events included.
    const waitIndex = events.findIndex(
      (e) => e.event === 'prompt.approval-requested' && e.data.promptId === grandchild!.id,
    );
    const resumed = await collectEvents(`${t.url}/api/conversations/${conversation.id}/events`, {
      lastEventId: events[waitIndex]!.id!,
      until: topEnded,
    });
    expect(resumed.map((e) => e.event)).not.toContain('reset');
    expect(shapes(resumed)).toEqual(shapes(events.slice(waitIndex + 1)));
    expect(resumed.filter((e) => e.id).map((e) => e.id)).toEqual(
      events
        .slice(waitIndex + 1)
        .filter((e) => e.id)
        .map((e) => e.id),
    );

    // Bob's stream, open all along, saw only his own conversation's events.
    await t.request('POST', `/api/conversations/${bobs.id}/prompts`, { token: BOB, body: { input: 'hi' } });
    const bobEvents = (await bobStream.received).filter((e) => e.event.startsWith('prompt.'));
    expect(bobEvents.length).toBeGreaterThan(0);
    expect(bobEvents.every((e) => e.data.conversationId === bobs.id)).toBe(true);
  });

  it("never forwards a prompt whose metadata.parent names another user's conversation", async () => {
    t = await testServer([
      reply("Bob's prompt."),
      reply("Alice's own."),
      reply("Alice's child."),
      reply('Again.'),
    ]);
    const platform = t.server.platform;
    const { body: alices } = await t.request('POST', '/api/conversations', { body: {} });
    const stream = await attachEvents(`${t.url}/api/conversations/${alices.id}/events`, {
      until: (e) =>
        e.event === 'prompt.completed' &&
        (e.data.prompt as { input?: string } | undefined)?.input === 'mine again',
    });
    // Code that names Alice's conversation as the parent of Bob's prompt: not forwarded to her.
    const bobs = await platform.conversations.create({ userId: 'bob' });
    const bobPrompt = await platform.send({
      conversationId: bobs.id,
      userId: 'bob',
      input: 'pretend',
      metadata: { parent: { conversationId: alices.id, promptId: 'prm_whatever' } },
    });
    // Alice's own child (code started on her behalf) is forwarded; then her own prompt ends the stream.
    const aliceChildConversation = await platform.conversations.create({ userId: 'alice' });
    const first = await t.request('POST', `/api/conversations/${alices.id}/prompts`, {
      body: { input: 'mine' },
    });
    await waitFor(
      async () => (await t.request('GET', `/api/prompts/${first.body.prompt.id}`)).body.state === 'completed',
    );
    const child = await platform.send({
      conversationId: aliceChildConversation.id,
      userId: 'alice',
      input: 'child',
      metadata: { parent: { conversationId: alices.id, promptId: first.body.prompt.id } },
    });
    await t.request('POST', `/api/conversations/${alices.id}/prompts`, { body: { input: 'mine again' } });
    const events = (await stream.received).filter((e) => e.event.startsWith('prompt.'));
    expect(events.some((e) => e.data.promptId === bobPrompt.id)).toBe(false);
    expect(events.some((e) => e.data.conversationId === bobs.id)).toBe(false);
    expect(events.filter((e) => e.data.promptId === child.id).map((e) => e.event)).toContain(
      'prompt.completed',
    );
  });
});
