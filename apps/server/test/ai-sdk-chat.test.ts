import { createMemoryStore } from '@tessera/core';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import {
  DefaultChatTransport,
  type DynamicToolUIPart,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { ALICE, BOB, testServer } from './harness.ts';
import { notes } from './support/notes-plugin.ts';

/**
 * POST /api/ai-sdk/chat through the AI SDK's own client side: `DefaultChatTransport` sends what `useChat`
 * sends and parses the stream against the protocol's chunk schema (a chunk it does not know fails the read),
 * and `readUIMessageStream` builds the message `useChat` would show.
 */

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const server = (...[script, options]: Parameters<typeof testServer>) =>
  testServer(script, { store: createMemoryStore(), ...options });

const userMessage = (text: string, id = `u-${text.length}`): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

type Sent = { chunks: UIMessageChunk[]; message: UIMessage; conversationId: string | null };

/** Sends the messages as `useChat` does; the chunks the client read, and the assistant message they make. */
async function send(url: string, chatId: string, messages: UIMessage[], token = ALICE): Promise<Sent> {
  let conversationId: string | null = null;
  const transport = new DefaultChatTransport({
    api: `${url}/api/ai-sdk/chat`,
    headers: { authorization: `Bearer ${token}` },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      conversationId = response.headers.get('x-tessera-conversation');
      return response;
    },
  });
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const last = messages.at(-1);
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream: ReadableStream.from(chunks),
    ...(last?.role === 'assistant' && { message: structuredClone(last) }),
  }))
    message = snapshot;
  return { chunks, message: message!, conversationId };
}

const toolParts = (message: UIMessage) =>
  message.parts.filter((part): part is DynamicToolUIPart => part.type === 'dynamic-tool');

/** The message with the approval of its waiting part answered, as `addToolApprovalResponse` leaves it. */
function answered(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      part.type === 'dynamic-tool' && part.state === 'approval-requested'
        ? { ...part, state: 'approval-responded', approval: { id: part.approval.id, approved, reason } }
        : part,
    ),
  };
}

/** A request with any body; its status, and its error when refused. */
async function post(url: string, body: unknown, token: string | null = ALICE) {
  const response = await fetch(`${url}/api/ai-sdk/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const { error } = response.ok
    ? { error: undefined }
    : ((await response.json()) as { error: { code: string; message: string } });
  return { status: response.status, error };
}

describe('POST /api/ai-sdk/chat', () => {
  it('streams a prompt as UI message chunks: text deltas, a dynamic tool part, a widget as a data part, finish with usage', async () => {
    t = await server(
      [
        {
          toolCalls: [{ name: 'notes.add', args: { text: 'buy milk' } }],
          usage: { inputTokens: 10, outputTokens: 3 },
        },
        { text: ['Noted', ': buy milk.'], usage: { inputTokens: 20, outputTokens: 5 } },
      ],
      { plugins: [notes] },
    );
    const { chunks, message, conversationId } = await send(t.url, 'chat-1', [userMessage('note: buy milk')]);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'tool-input-available',
      'data-widget',
      'tool-output-available',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    const [tool] = toolParts(message);
    expect(tool).toMatchObject({
      toolName: 'notes.add',
      state: 'output-available',
      input: { text: 'buy milk' },
      output: { count: 1 },
    });
    const widget = message.parts.find((part) => part.type === 'data-widget');
    expect(widget).toMatchObject({
      data: { widget: 'key-value', fallback: expect.stringContaining('buy milk') },
    });
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Noted: buy milk.', state: 'done' });
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: {
        conversationId,
        state: 'completed',
        usage: { inputTokens: 30, outputTokens: 8, totalTokens: 38 },
      },
    });
    // The message's id is the prompt's, and the record is the conversation's.
    const { body } = await t.request('GET', `/api/conversations/${conversationId}`);
    expect(body.prompts.map((prompt: { id: string }) => prompt.id)).toEqual([message.id]);
    expect(body.prompts[0]).toMatchObject({ input: 'note: buy milk', state: 'completed' });
  });

  it('sends reasoning as a reasoning part, a widget updated in place as one data part, and a file as a link', async () => {
    t = await server(
      [
        {
          events: [{ type: 'reasoning', summary: 'A report has a table and a file.' }],
          toolCalls: [{ name: 'demo.report', args: { products: 3 } }],
        },
        { text: 'Here it is.' },
      ],
      { plugins: [demoPlugin] },
    );
    const { chunks, message, conversationId } = await send(t.url, 'report', [userMessage('a sales report')]);
    expect(message.parts.find((part) => part.type === 'reasoning')).toMatchObject({
      text: 'A report has a table and a file.',
    });
    // The progress widget was sent twice (shown, then done), and is one part, as it ended.
    const progress = chunks.filter(
      (chunk) => chunk.type === 'data-widget' && (chunk.data as { widget: string }).widget === 'progress',
    );
    expect(progress).toHaveLength(2);
    const widgets = message.parts.filter((part) => part.type === 'data-widget') as {
      data: { widget: string };
    }[];
    expect(widgets.map((part) => part.data.widget)).toEqual(['progress', 'table']);
    expect(widgets[0]).toMatchObject({ data: { data: { status: 'done' } } });
    const file = message.parts.find((part) => part.type === 'file');
    expect(file).toMatchObject({ mediaType: 'text/csv' });
    expect(file?.type === 'file' && file.url).toMatch(
      new RegExp(`^${t.url}/api/conversations/${conversationId}/files/file_`),
    );
    const download = await fetch((file as { url: string }).url, {
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(await download.text()).toMatch(/^product,units,revenue\n/);
    expect(
      (await fetch((file as { url: string }).url, { headers: { authorization: `Bearer ${BOB}` } })).status,
    ).toBe(404);
  });

  it('asks for approval with tool-approval-request; the answer runs the call and the stream goes on', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'tidy' } }] },
        { text: 'All clear.' },
        { text: 'Hi again.' },
      ],
      { plugins: [notes] },
    );
    const question = userMessage('clear my notes');
    const first = await send(t.url, 'chat-2', [question]);
    expect(first.chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'tool-input-available',
      'tool-approval-request',
      'finish',
    ]);
    const [waiting] = toolParts(first.message);
    expect(waiting).toMatchObject({
      toolName: 'notes.clear',
      state: 'approval-requested',
      approval: { id: waiting!.toolCallId, requestReason: 'Clearing deletes every note.' },
    });
    expect(first.chunks.at(-1)).toMatchObject({
      finishReason: 'tool-calls',
      messageMetadata: { state: 'waiting_for_approval' },
    });

    const approvedMessage = answered(first.message, true);
    const second = await send(t.url, 'chat-2', [question, approvedMessage]);
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'tool-output-available',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(second.message.id).toBe(first.message.id);
    expect(toolParts(second.message)[0]).toMatchObject({ state: 'output-available', output: { deleted: 0 } });
    expect(second.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'All clear.' });

    // The next message is a new prompt of the same conversation.
    const third = await send(t.url, 'chat-2', [question, second.message, userMessage('hello', 'u-3')]);
    expect(third.conversationId).toBe(first.conversationId);
    expect(third.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Hi again.' });
    const { body } = await t.request('GET', `/api/conversations/${first.conversationId}`);
    expect(body.prompts.map((prompt: { state: string }) => prompt.state)).toEqual(['completed', 'completed']);
  });

  it('a sub-agent waiting for approval: approving the agent call decides the call it waits on', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'agent.cleaner', args: { task: 'Delete alpha.' } }] },
        { toolCalls: [{ name: 'demo.delete_records', args: { names: ['alpha'] } }] }, // the agent: waits
        { text: 'cleaner: deleted alpha' },
        { text: 'Alpha is gone.' },
      ],
      {
        plugins: [
          demoPlugin,
          agentsPlugin({
            agents: [
              defineAgent({
                name: 'cleaner',
                description: 'Deletes records.',
                instructions: 'Delete what you are told to.',
                tools: ['demo.delete_records'],
              }),
            ],
          }),
        ],
      },
    );
    const question = userMessage('delete alpha');
    const first = await send(t.url, 'chat-agents', [question]);
    const [waiting] = toolParts(first.message);
    // The user's prompt shows its agent call waiting, with why: the call below it.
    expect(waiting).toMatchObject({ toolName: 'agent.cleaner', state: 'approval-requested' });
    expect(waiting).toMatchObject({
      approval: { requestReason: expect.stringContaining('demo.delete_records') },
    });

    const second = await send(t.url, 'chat-agents', [question, answered(first.message, true)]);
    expect(second.chunks.at(-1)).toMatchObject({ messageMetadata: { state: 'completed' } });
    expect(second.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Alpha is gone.' });
    expect(toolParts(second.message)[0]).toMatchObject({ state: 'output-available' });
    // The agent's call ran once, approved by the user.
    const { body } = await t.request('GET', '/api/approvals');
    expect(body.items).toEqual([]);
    const prompts = (await t.server.platform.conversations.list('alice')).items;
    const deleted = [];
    for (const conversation of prompts)
      for (const prompt of await t.server.platform.conversations.prompts(conversation.id, 'alice'))
        deleted.push(...prompt.output.filter((o) => o.type === 'tool' && o.toolId === 'demo.delete_records'));
    expect(deleted).toMatchObject([
      { approval: { decision: 'approved', decidedBy: 'alice' }, result: { type: 'success' } },
    ]);
  });

  it('a denied call is tool-output-denied, and the model reads the reason', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'tidy' } }] },
        (request) => ({
          text: JSON.stringify(request.messages).includes('keep them') ? 'Kept them.' : 'no reason read',
        }),
      ],
      { plugins: [notes] },
    );
    const question = userMessage('clear my notes');
    const first = await send(t.url, 'chat-3', [question]);
    const second = await send(t.url, 'chat-3', [question, answered(first.message, false, 'keep them')]);
    expect(second.chunks.map((chunk) => chunk.type)).toContain('tool-output-denied');
    expect(toolParts(second.message)[0]).toMatchObject({ state: 'output-denied' });
    expect(second.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Kept them.' });
  });

  it("never reaches another user's conversation: their chat id or conversation id is a chat of one's own", async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'tidy' } }] },
        { text: 'Bob one.' },
        { text: 'Bob two.' },
        { text: 'Hello, Alice.' },
      ],
      { plugins: [notes] },
    );
    const alice = await send(t.url, 'shared-id', [userMessage('clear my notes')]);
    const aliceConversation = alice.conversationId!;

    const bob = await send(t.url, 'shared-id', [userMessage('hello')], BOB);
    expect(bob.conversationId).not.toBe(aliceConversation);
    const bobByConversation = await send(t.url, aliceConversation, [userMessage('hi')], BOB);
    expect([aliceConversation, bob.conversationId]).not.toContain(bobByConversation.conversationId);

    // Bob answering Alice's approval, by her chat id or her conversation id: nothing of his waits.
    const approval = answered(alice.message, true);
    for (const chatId of ['shared-id', aliceConversation]) {
      const response = await post(
        t.url,
        {
          id: chatId,
          messages: [userMessage('clear my notes'), approval],
          trigger: 'submit-message',
        },
        BOB,
      );
      expect(response).toMatchObject({ status: 409, error: { code: 'not_waiting' } });
    }
    const { body } = await t.request('GET', `/api/conversations/${aliceConversation}`);
    expect(body.prompts[0].state).toBe('waiting_for_approval');
    expect((await t.request('GET', `/api/conversations/${aliceConversation}`, { token: BOB })).status).toBe(
      404,
    );
    // A chat id that is one of Alice's own conversations is that conversation (opened in useChat by its id).
    const made = (await t.request('POST', '/api/conversations', { body: {} })).body.id;
    const opened = await send(t.url, made, [userMessage('hello')]);
    expect(opened.conversationId).toBe(made);
    expect(opened.message.metadata).toMatchObject({ conversationId: made, state: 'completed' });
  });

  it('a budget pause is the dynamic tool tessera.pause: approved, the prompt continues with a doubled budget', async () => {
    t = await server([{ toolCalls: [{ name: 'notes.add', args: { text: 'one' } }] }, { text: 'Noted.' }], {
      plugins: [notes],
      budgets: { maxRounds: 1 },
    });
    const question = userMessage('note one');
    const first = await send(t.url, 'paused', [question]);
    const pause = toolParts(first.message).at(-1)!;
    expect(pause).toMatchObject({
      toolName: 'tessera.pause',
      state: 'approval-requested',
      input: { source: 'budget', budget: { name: 'maxRounds', limit: 1, used: 1 } },
    });
    const second = await send(t.url, 'paused', [question, answered(first.message, true)]);
    expect(toolParts(second.message).map((part) => [part.toolName, part.state])).toEqual([
      ['notes.add', 'output-available'],
      ['tessera.pause', 'output-available'],
    ]);
    expect(toolParts(second.message)[1]).toMatchObject({
      output: { choice: 'continue', raised: { maxRounds: 2 } },
    });
    expect(second.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Noted.' });
  });

  it('refuses bad requests with a clear 4xx before anything runs', async () => {
    t = await server([{ toolCalls: [{ name: 'notes.clear', args: { reason: 'x' } }] }], {
      plugins: [notes],
      limits: { maxInputChars: 50 },
    });
    const ok = { id: 'c', messages: [userMessage('hi')], trigger: 'submit-message' };
    const cases: [unknown, number, string | RegExp][] = [
      ['{not json', 400, 'invalid_request'],
      [{ ...ok, messages: [] }, 400, 'invalid_request'],
      [{ ...ok, id: '' }, 400, 'invalid_request'],
      [{ ...ok, id: 'x'.repeat(201) }, 400, 'invalid_request'],
      [{ ...ok, trigger: 'resume' }, 400, 'invalid_request'],
      [{ ...ok, trigger: 'regenerate-message' }, 400, /never rewritten/],
      [
        { ...ok, messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] },
        400,
        /answers no approval/,
      ],
      [
        {
          ...ok,
          messages: [
            { id: 'a', role: 'user', parts: [{ type: 'file', url: 'data:,x', mediaType: 'text/plain' }] },
          ],
        },
        400,
        /Only text/,
      ],
      [{ ...ok, messages: [{ id: 'a', role: 'user', parts: [] }] }, 400, /no text/],
      [{ ...ok, messages: [{ id: 'a', role: 'user', parts: 'text' }] }, 400, 'invalid_request'],
      [{ ...ok, messages: [userMessage('x'.repeat(51))] }, 413, 'input_too_large'],
      [{ ...ok, model: 'gpt-4o' }, 400, 'invalid_request'],
      [
        {
          ...ok,
          messages: [
            {
              id: 'a',
              role: 'assistant',
              parts: [{ type: 'dynamic-tool', state: 'approval-responded', approval: { id: 1 } }],
            },
          ],
        },
        400,
        /malformed/,
      ],
      [
        {
          ...ok,
          id: 'no-such-chat',
          messages: [
            {
              id: 'a',
              role: 'assistant',
              parts: [
                { type: 'dynamic-tool', state: 'approval-responded', approval: { id: 'x', approved: true } },
              ],
            },
          ],
        },
        404,
        'not_found',
      ],
    ];
    for (const [body, status, expected] of cases) {
      const { status: got, error } = await post(t.url, body);
      expect({ body, status: got }).toEqual({ body, status });
      if (typeof expected === 'string') expect(error?.code).toBe(expected);
      else expect(error?.message).toMatch(expected);
    }
    expect((await post(t.url, ok, null)).status).toBe(401);
    expect((await post(t.url, ok, 'not-a-token')).status).toBe(401);
    expect((await t.request('GET', '/api/conversations', {})).body.items).toEqual([]);

    // A new message while a call waits: the conversation is busy until the approval is answered.
    await send(t.url, 'busy', [userMessage('clear')]);
    const busy = await post(t.url, { ...ok, id: 'busy', messages: [userMessage('and now?')] });
    expect(busy).toMatchObject({ status: 409, error: { code: 'conversation_busy' } });
  });

  it("counts as a prompt send for the user's rate limit", async () => {
    t = await server([{ text: 'One.' }, { text: 'Two.' }], {
      rateLimits: { promptsPerUser: { max: 1, windowSeconds: 60 } },
    });
    const first = await send(t.url, 'limited', [userMessage('one')]);
    expect(first.message.parts.at(-1)).toMatchObject({ text: 'One.' });
    expect(
      await post(t.url, { id: 'limited', messages: [userMessage('two')], trigger: 'submit-message' }),
    ).toMatchObject({ status: 429, error: { code: 'rate_limited' } });
  });

  it('a client that disconnects mid-stream leaves the prompt running to its end, recorded', async () => {
    t = await server([{ text: ['Once', ' upon', ' a time.'], streamMs: 300 }, { text: 'Next.' }]);
    const controller = new AbortController();
    const response = await fetch(`${t.url}/api/ai-sdk/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ id: 'gone', messages: [userMessage('a story')], trigger: 'submit-message' }),
      signal: controller.signal,
    });
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const conversationId = response.headers.get('x-tessera-conversation')!;
    const reader = response.body!.getReader();
    await reader.read(); // the start chunk at least
    controller.abort();
    await reader.read().catch(() => undefined);
    // The prompt ends completed with the whole answer, and the chat goes on.
    await expect
      .poll(
        async () => (await t!.request('GET', `/api/conversations/${conversationId}`)).body.prompts[0].state,
        { timeout: 60_000, interval: 100 },
      )
      .toBe('completed');
    const { body } = await t.request('GET', `/api/conversations/${conversationId}`);
    expect(body.prompts[0].output.at(-1)).toMatchObject({ type: 'text', text: 'Once upon a time.' });
    const next = await send(t.url, 'gone', [userMessage('a story'), userMessage('more', 'u-2')]);
    expect(next.conversationId).toBe(conversationId);
    expect(next.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Next.' });
  });
});
