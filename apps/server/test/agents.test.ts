import { agentsPlugin } from '@tessera/plugin-agents';
import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { BOB, testServer, waitFor } from './harness.ts';
import { level } from './support/sub-agents.ts';

// Sub-agents over HTTP (issue 31): three levels below the user's prompt, the deepest calls a tool that needs
// approval; every prompt of the chain waits; the user approves the deepest call through the API, and each
// level resumes once, up to the user's prompt.

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

describe('sub-agents over HTTP', () => {
  it('depth 3: approving the deepest call through the API resumes each level once, up to the user prompt', async () => {
    t = await testServer(
      [
        callTool('agent.one', { task: 'Clean alpha, via two.' }), // the user's prompt
        callTool('agent.two', { task: 'Clean alpha, via three.' }), // one
        callTool('agent.three', { task: 'Delete alpha.' }), // two
        callTool('demo.delete_records', { names: ['alpha'] }), // three: needs approval
        reply('three: deleted alpha'),
        reply('two: three deleted alpha'),
        reply('one: two says alpha is deleted'),
        reply('Alpha is deleted, three levels down.'),
      ],
      {
        plugins: [
          demoPlugin,
          agentsPlugin({ agents: [level('one', 'two'), level('two', 'three'), level('three', undefined)] }),
        ],
      },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Clean up alpha' },
    });
    const top = async () => (await t.request('GET', `/api/prompts/${sent.body.prompt.id}`)).body;
    type Approval = { toolCallId: string; toolId: string; promptId: string };
    const approvals = async (token?: string) =>
      (await t.request('GET', '/api/approvals', token ? { token } : {})).body.items as Approval[];
    // Every level waits: the deepest call for approval, each agent call above it suspended.
    await waitFor(async () => (await approvals()).length === 4);
    expect((await top()).state).toBe('waiting_for_approval');
    expect((await approvals()).map((a) => a.toolId).sort()).toEqual([
      'agent.one',
      'agent.three',
      'agent.two',
      'demo.delete_records',
    ]);
    const deepest = (await approvals()).find((a) => a.toolId === 'demo.delete_records')!;
    // Another user sees none of it, and cannot decide it.
    expect(await approvals(BOB)).toEqual([]);
    expect(
      (await t.request('POST', `/api/tool-calls/${deepest.toolCallId}/approve`, { token: BOB, body: {} }))
        .status,
    ).toBe(404);

    expect(
      (await t.request('POST', `/api/tool-calls/${deepest.toolCallId}/approve`, { body: {} })).status,
    ).toBe(202);
    await waitFor(async () => (await top()).state === 'completed');
    const answer = (await top()).output.filter((o: { type: string }) => o.type === 'text');
    expect(answer.map((o: { text: string }) => o.text).join('')).toBe('Alpha is deleted, three levels down.');
    expect(await approvals()).toEqual([]);
    // The tool ran once, in the deepest child; every model call was made once (eight in all).
    const deep = await t.request('GET', `/api/prompts/${deepest.promptId}`);
    const calls = deep.body.output.filter((o: { type: string }) => o.type === 'tool');
    expect(calls.map((c: { result: unknown }) => c.result)).toEqual([
      { type: 'success', output: { deleted: ['alpha'] } },
    ]);
    expect(t.model.requests).toHaveLength(8);
  });
});
