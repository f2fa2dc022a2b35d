import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { callTool, reply } from '@tessera/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { attachEvents, type Received, testServer } from './harness.ts';
import { serverDatabase } from './support/server-database.ts';

// Issue 31 across processes: the user's prompt, its child and its grandchild run in server `a`; the parent
// conversation's stream is served by `b`, which hears of the children through the user's topic and follows
// their conversations' topics, so the grandchild's events after its approval (run in `a`) reach it too.

/** The machine's NATS server (as for processes.test.ts, which never skips either). */
const NATS_URL = process.env.TESSERA_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const level = (name: string, next: string | undefined) =>
  defineAgent({
    name,
    description: `Level ${name}.`,
    instructions: next ? `Ask ${next}.` : 'Delete what you are told to.',
    tools: next ? [`agent.${next}`] : ['demo.delete_records'],
  });

describe.each([
  { relay: 'PostgreSQL LISTEN/NOTIFY', relayUrl: undefined },
  { relay: 'NATS', relayUrl: NATS_URL },
])('two servers on one database, relaying over $relay', ({ relayUrl }) => {
  let database: Awaited<ReturnType<typeof serverDatabase>>;
  let a: Awaited<ReturnType<typeof testServer>>;
  let b: Awaited<ReturnType<typeof testServer>>;
  beforeAll(async () => {
    database = await serverDatabase();
    const plugins = [demoPlugin, agentsPlugin({ agents: [level('one', 'two'), level('two', undefined)] })];
    const options = { databaseUrl: database.url, plugins, ...(relayUrl && { relayUrl }) };
    a = await testServer(
      [
        callTool('agent.one', { task: 'Clean alpha, via two.' }),
        callTool('agent.two', { task: 'Delete alpha.' }),
        callTool('demo.delete_records', { names: ['alpha'] }),
        reply('two: deleted alpha'),
        reply('one: two deleted alpha'),
        reply('Alpha is deleted, two levels down.'),
      ],
      options,
    );
    b = await testServer([], options);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it("streams from one server the sub-agents' events of a prompt the other runs", async () => {
    const { body: conversation } = await a.request('POST', '/api/conversations', { body: {} });
    let onWait = () => {};
    const waiting = new Promise<void>((resolve) => (onWait = resolve));
    const stream = await attachEvents(`${b.url}/api/conversations/${conversation.id}/events`, {
      until: (e) => {
        if (e.event === 'prompt.approval-requested' && e.data.conversationId !== conversation.id) onWait();
        return e.event === 'prompt.completed' && e.data.conversationId === conversation.id;
      },
    });
    const sent = await a.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Clean up alpha' },
    });
    expect(sent.status).toBe(202);
    // The grandchild's wait reached b's stream (through the user's topic): approve it through a.
    await waiting;
    const approvals = (await a.request('GET', '/api/approvals')).body.items as {
      toolCallId: string;
      toolId: string;
    }[];
    const deepest = approvals.find((x) => x.toolId === 'demo.delete_records')!;
    expect(
      (await a.request('POST', `/api/tool-calls/${deepest.toolCallId}/approve`, { body: {} })).status,
    ).toBe(202);
    const events = await stream.received;

    const started = events
      .filter((e) => e.event === 'prompt.started')
      .map(
        (e) =>
          e.data.prompt as unknown as { id: string; conversationId: string; metadata?: { agent?: string } },
      );
    const child = started.find((p) => p.metadata?.agent === 'one')!;
    const grandchild = started.find((p) => p.metadata?.agent === 'two')!;
    expect(child.conversationId).not.toBe(conversation.id);
    expect(grandchild.conversationId).not.toBe(child.conversationId);

    const of = (id: string, type: string) => events.filter((e) => e.data.promptId === id && e.event === type);
    // After the approval, in a: the grandchild's tool result and answer, and the child's, relayed to b.
    const result = of(grandchild.id, 'prompt.output-updated')
      .map((e: Received) => e.data.output as { toolId?: string; result?: unknown })
      .findLast((o) => o.toolId === 'demo.delete_records');
    expect(result?.result).toEqual({ type: 'success', output: { deleted: ['alpha'] } });
    expect(of(grandchild.id, 'prompt.completed')).toHaveLength(1);
    expect(of(child.id, 'prompt.completed')).toHaveLength(1);
    expect(
      of(child.id, 'prompt.text-delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('one: two deleted alpha');
  });
  it("forwards from a child's resumption a child whose start the serving process never saw", async () => {
    a.model.push(
      callTool('agent.one', { task: 'Clean beta, via two.' }),
      callTool('agent.two', { task: 'Delete beta.' }),
      callTool('demo.delete_records', { names: ['beta'] }),
      reply('two: deleted beta'),
      reply('one: two deleted beta'),
      reply('Beta is deleted.'),
    );
    const { body: conversation } = await a.request('POST', '/api/conversations', { body: {} });
    await a.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Clean beta' },
    });
    type Approval = { toolCallId: string; toolId: string; promptId: string; conversationId: string };
    const deepest = async () =>
      ((await a.request('GET', '/api/approvals')).body.items as Approval[]).find(
        (x) => x.toolId === 'demo.delete_records',
      );
    for (let i = 0; i < 1_000 && !(await deepest()); i++) await new Promise((r) => setTimeout(r, 10));
    const call = (await deepest())!;
    // Only now does b stream the user's conversation: it never saw the child or the grandchild start.
    const stream = await attachEvents(`${b.url}/api/conversations/${conversation.id}/events`, {
      until: (e) => e.event === 'prompt.completed' && e.data.conversationId === conversation.id,
    });
    expect((await a.request('POST', `/api/tool-calls/${call.toolCallId}/approve`, { body: {} })).status).toBe(
      202,
    );
    const events = await stream.received;
    const of = (promptId: string, type: string) =>
      events.filter((e) => e.data.promptId === promptId && e.event === type);
    // Its resumption (relayed on the user's topic) made b read it and the prompts above it from the store.
    expect(of(call.promptId, 'prompt.resumed')).toHaveLength(1);
    expect(of(call.promptId, 'prompt.completed')).toHaveLength(1);
    const childEnd = events.filter(
      (e) =>
        e.event === 'prompt.completed' &&
        e.data.conversationId !== conversation.id &&
        e.data.conversationId !== call.conversationId,
    );
    expect(childEnd).toHaveLength(1);
  });
});
