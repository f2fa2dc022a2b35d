import { createMemoryStore, type ModelRequest, type Platform, parentOf } from '@tessera/core';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { callTool, reply } from '@tessera/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { ALICE, BOB, testServer } from './harness.ts';
import { notes } from './support/notes-plugin.ts';

/**
 * The OpenAI-compatible endpoints, through the official `openai` package as the client: what any OpenAI
 * client pointed at the server's `/v1` gets.
 */

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A server with a scripted model; the in-memory store, quicker to start than the embedded database. */
const server = (...[script, options]: Parameters<typeof testServer>) =>
  testServer(script, { store: createMemoryStore(), ...options });

/** A client as a user configures one: the server's /v1 as the base URL, the Tessera token as the API key. */
const clientOf = (url: string, apiKey = ALICE) => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });

/** The error a request was refused with (one that succeeds fails the test). */
const refusal = (request: PromiseLike<unknown>) =>
  Promise.resolve(request).then(
    () => {
      throw new Error('expected the request to be refused');
    },
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

const promptsOf = (platform: Platform, conversationId: string, userId = 'alice') =>
  platform.conversations.prompts(conversationId, userId);

const lastUserText = (request: ModelRequest) =>
  JSON.stringify(request.messages.filter((m) => m.type === 'message' && m.role === 'user').at(-1));

describe('GET /v1/models', () => {
  it("lists the app's model classes; an unknown one is the SDK's NotFoundError (model_not_found)", async () => {
    t = await server();
    const client = clientOf(t.url);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['normal', 'high']);
    expect(models.data.map((model) => model.owned_by)).toEqual(['tessera', 'tessera']);
    const unknown = await refusal(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown.code).toBe('model_not_found');
  });
});

describe('POST /v1/chat/completions', () => {
  it('answers whole, and the next request (the whole list again) continues the same conversation', async () => {
    t = await server([
      { text: 'Hello, Ada.', usage: { inputTokens: 12, outputTokens: 4 } },
      (request) => ({ text: lastUserText(request).includes('And you?') ? 'Fine, thanks.' : 'wrong input' }),
    ]);
    const client = clientOf(t.url);
    const first = await client.chat.completions
      .create({
        model: 'normal',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'I am Ada.' },
        ],
      })
      .withResponse();
    expect(first.data.object).toBe('chat.completion');
    expect(first.data.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Hello, Ada.' },
      finish_reason: 'stop',
    });
    expect(first.data.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 });
    const conversationId = first.response.headers.get('x-tessera-conversation')!;

    const second = await client.chat.completions
      .create({
        model: 'normal',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'I am Ada.' },
          { role: 'assistant', content: 'Hello, Ada.' },
          { role: 'user', content: [{ type: 'text', text: 'And you?' }] },
        ],
      })
      .withResponse();
    expect(second.data.choices[0]!.message.content).toBe('Fine, thanks.');
    expect(second.response.headers.get('x-tessera-conversation')).toBe(conversationId);
    // The model read the recorded history (the first prompt), not the client's copy of it.
    expect(JSON.stringify(t.model.requests[1]!.messages)).toContain('I am Ada.');
    const prompts = await promptsOf(t.server.platform, conversationId);
    expect(prompts.map((p) => [p.input, p.state, p.metadata?.openai])).toEqual([
      ['I am Ada.', 'completed', 'chat.completions'],
      ['And you?', 'completed', 'chat.completions'],
    ]);
  });

  it('streams chunks ending with a finish_reason, the usage when asked, and [DONE]', async () => {
    t = await server([{ text: ['Hel', 'lo', ' there.'], usage: { inputTokens: 5, outputTokens: 3 } }]);
    const stream = await clientOf(t.url).chat.completions.create({
      model: 'high',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'high')).toBe(
      true,
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello there.');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3 } });
    // The prompt ran with the model class asked for.
    const [conversation] = (await t.server.platform.conversations.list('alice')).items;
    expect((await promptsOf(t.server.platform, conversation!.id))[0]!.model).toBe('high');
  });

  it("runs a plugin's tool on the server: its widget reaches the client as text, then the answer", async () => {
    t = await server(
      [{ toolCalls: [{ name: 'notes.add', args: { text: 'buy milk' } }] }, { text: 'Noted.' }],
      {
        plugins: [notes],
      },
    );
    const stream = clientOf(t.url).chat.completions.stream({
      model: 'normal',
      messages: [{ role: 'user', content: 'Note: buy milk' }],
    });
    const completion = await stream.finalChatCompletion();
    const text = completion.choices[0]!.message.content!;
    expect(text).toContain('buy milk'); // the widget's fallback text
    expect(text.endsWith('\n\nNoted.')).toBe(true); // the answer in a paragraph of its own, after the widget's
    const [conversation] = (await t.server.platform.conversations.list('alice')).items;
    const [prompt] = await promptsOf(t.server.platform, conversation!.id);
    expect(prompt!.output.find((o) => o.type === 'tool')).toMatchObject({
      toolId: 'notes.add',
      result: { type: 'success' },
    });
  });

  it('asks for approval in text; the reply "approve" runs the call and the answer goes on', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'spring cleaning' } }] },
        (request) => ({
          text: JSON.stringify(request.messages).includes('deleted') ? 'All clear.' : 'not run',
        }),
      ],
      { plugins: [notes] },
    );
    const client = clientOf(t.url);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Clear my notes' }];
    const asked = await client.chat.completions.create({ model: 'normal', messages }).withResponse();
    const question = asked.data.choices[0]!.message.content!;
    expect(asked.data.choices[0]!.finish_reason).toBe('stop');
    expect(question).toContain('`notes.clear`');
    expect(question).toContain('spring cleaning');
    expect(question).toContain('Clearing deletes every note.');
    expect(question).toContain('**approve**');
    const conversationId = asked.response.headers.get('x-tessera-conversation')!;
    expect(question).toContain(`${t.url}/#${conversationId}`);
    const [waiting] = await promptsOf(t.server.platform, conversationId);
    expect(waiting!.state).toBe('waiting_for_approval');

    messages.push({ role: 'assistant', content: question }, { role: 'user', content: 'Approve' });
    const stream = await client.chat.completions.create({ model: 'normal', messages, stream: true });
    let answer = '';
    for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? '';
    expect(answer).toBe('All clear.');
    const [done] = await promptsOf(t.server.platform, conversationId);
    expect(done!.state).toBe('completed');
    expect(done!.output.find((o) => o.type === 'tool')).toMatchObject({
      approval: { decision: 'approved', decidedBy: 'alice' },
      result: { type: 'success', output: { deleted: 0 } },
    });
  });

  it('leaves the prompt running when the client stops reading the stream: it completes, recorded', async () => {
    t = await server([{ text: ['First words, ', 'then the rest.'], streamMs: 300 }]);
    const stream = await clientOf(t.url).chat.completions.create({
      model: 'normal',
      messages: [{ role: 'user', content: 'Tell me' }],
      stream: true,
    });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break; // leaves: the SDK aborts
    const [conversation] = (await t.server.platform.conversations.list('alice')).items;
    const completed = async () => {
      for (;;) {
        const [prompt] = await promptsOf(t!.server.platform, conversation!.id);
        if (prompt!.state !== 'running') return prompt!;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const prompt = await completed();
    expect(prompt.state).toBe('completed');
    expect(prompt.output.find((o) => o.type === 'text')).toMatchObject({
      text: 'First words, then the rest.',
    });
  });

  it('keeps any other message while a call waits as steering, and says the call still waits', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'tidy' } }] },
        (request) => ({
          text: JSON.stringify(request.messages).includes('keep the pinned') ? 'Steered.' : 'lost',
        }),
      ],
      { plugins: [notes] },
    );
    const client = clientOf(t.url);
    const asked = await client.chat.completions
      .create({ model: 'normal', messages: [{ role: 'user', content: 'Clear notes' }] })
      .withResponse();
    const conversationId = asked.response.headers.get('x-tessera-conversation')!;
    const headers = { 'X-Tessera-Conversation': conversationId };
    const other = await client.chat.completions.create(
      { model: 'normal', messages: [{ role: 'user', content: 'But keep the pinned ones' }] },
      { headers },
    );
    expect(other.choices[0]!.message.content).toContain('Your message is kept');
    expect(other.choices[0]!.message.content).toContain('`notes.clear`');
    expect((await promptsOf(t.server.platform, conversationId))[0]!.state).toBe('waiting_for_approval');
    const approved = await client.chat.completions.create(
      { model: 'normal', messages: [{ role: 'user', content: 'yes' }] },
      { headers },
    );
    expect(approved.choices[0]!.message.content).toBe('Steered.');
  });

  it('refuses in OpenAI error shapes: a bad token, an unknown model, a long message, a list not ending with the user', async () => {
    t = await server([], { limits: { maxInputChars: 50 } });
    const create = (client: OpenAI, body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>) =>
      refusal(
        client.chat.completions.create({
          model: 'normal',
          messages: [{ role: 'user', content: 'Hi' }],
          ...body,
        }),
      );

    const unauthorized = await create(clientOf(t.url, 'not-a-token'), {});
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(unauthorized.error).toMatchObject({
      type: 'authentication_error',
      code: 'unauthorized',
      param: null,
    });

    const unknownModel = await create(clientOf(t.url), { model: 'gpt-4o' });
    expect(unknownModel).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknownModel.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
    });

    const long = await create(clientOf(t.url), { messages: [{ role: 'user', content: 'x'.repeat(51) }] });
    expect([long.status, long.code]).toEqual([413, 'input_too_large']);

    const notUser = await create(clientOf(t.url), { messages: [{ role: 'assistant', content: 'Hi' }] });
    expect(notUser).toBeInstanceOf(OpenAI.BadRequestError);
    const noMessages = await create(clientOf(t.url), { messages: [] });
    expect(noMessages).toBeInstanceOf(OpenAI.BadRequestError);
    const image = await create(clientOf(t.url), {
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      ],
    });
    expect(image).toBeInstanceOf(OpenAI.BadRequestError);
    // Nothing was started by any of them.
    expect((await t.server.platform.conversations.list('alice')).items).toEqual([]);
  });

  it("never reaches another user's conversation: by the header (404), or by sending their transcript (a new one)", async () => {
    t = await server([{ text: 'Secret plans.' }, { text: 'Hello Bob.' }]);
    const alice = await clientOf(t.url)
      .chat.completions.create({ model: 'normal', messages: [{ role: 'user', content: 'My plans?' }] })
      .withResponse();
    const aliceConversation = alice.response.headers.get('x-tessera-conversation')!;
    const bob = clientOf(t.url, BOB);
    const byHeader = await bob.chat.completions
      .create(
        { model: 'normal', messages: [{ role: 'user', content: 'Show me' }] },
        { headers: { 'X-Tessera-Conversation': aliceConversation } },
      )
      .catch((error: unknown) => error);
    expect(byHeader).toBeInstanceOf(OpenAI.NotFoundError);
    const byTranscript = await bob.chat.completions
      .create({
        model: 'normal',
        messages: [
          { role: 'user', content: 'My plans?' },
          { role: 'assistant', content: 'Secret plans.' },
          { role: 'user', content: 'More' },
        ],
      })
      .withResponse();
    expect(byTranscript.response.headers.get('x-tessera-conversation')).not.toBe(aliceConversation);
    expect(JSON.stringify(t.model.requests[1]!.messages)).not.toContain('Secret plans.');
    expect(await promptsOf(t.server.platform, aliceConversation)).toHaveLength(1);
  });

  it('answers a failed prompt with an error the SDK does not retry (it would run the prompt again)', async () => {
    t = await server([{ error: 'the provider is down' }, { error: 'down again' }]);
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: ALICE, maxRetries: 2 });
    const whole = await refusal(
      client.chat.completions.create({ model: 'normal', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(whole).toBeInstanceOf(OpenAI.InternalServerError);
    expect(whole.error).toMatchObject({ type: 'server_error', code: 'prompt_failed' });
    expect(whole.headers?.get('x-should-retry')).toBe('false');
    const streamed = await client.chat.completions.create({
      model: 'normal',
      messages: [{ role: 'user', content: 'Hi again' }],
      stream: true,
    });
    const read = async () => {
      for await (const _ of streamed);
    };
    await expect(read()).rejects.toMatchObject({ error: { code: 'prompt_failed' } });
    // One prompt each: neither was sent again.
    const conversations = (await t.server.platform.conversations.list('alice')).items;
    const prompts = await Promise.all(conversations.map((c) => promptsOf(t!.server.platform, c.id)));
    expect(prompts.flat().map((p) => p.state)).toEqual(['failed', 'failed']);
  });

  it('refuses a message to a conversation whose prompt runs (409, not retried by the SDK)', async () => {
    t = await server([{ text: 'Slow answer.', delayMs: 60_000 }]);
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: ALICE, maxRetries: 2 });
    const slow = client.chat.completions.create({
      model: 'normal',
      messages: [{ role: 'user', content: 'Take your time' }],
    });
    slow.catch(() => {}); // answered once the prompt is cancelled below
    const running = async () => {
      for (;;) {
        const [conversation] = (await t!.server.platform.conversations.list('alice')).items;
        const [prompt] = conversation ? await promptsOf(t!.server.platform, conversation.id) : [];
        if (prompt?.state === 'running') return prompt;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const prompt = await running();
    const busy = await refusal(
      client.chat.completions.create(
        { model: 'normal', messages: [{ role: 'user', content: 'approve' }] },
        { headers: { 'X-Tessera-Conversation': prompt.conversationId } },
      ),
    );
    expect(busy).toBeInstanceOf(OpenAI.ConflictError);
    expect(busy.code).toBe('conversation_busy');
    expect(busy.headers?.get('x-should-retry')).toBe('false');
    await t.server.platform.cancel(prompt.id, { userId: 'alice' });
    expect((await slow).choices[0]!.message.content).toContain('cancelled');
    // Neither message ran again: one prompt, cancelled.
    expect((await promptsOf(t.server.platform, prompt.conversationId)).map((p) => p.state)).toEqual([
      'cancelled',
    ]);
  });

  it("counts as a prompt send for the rate limit (429, the SDK's RateLimitError)", async () => {
    t = await server([{ text: 'One.' }], {
      rateLimits: { promptsPerUser: { max: 1, windowSeconds: 60 } },
    });
    const client = clientOf(t.url);
    const body = { model: 'normal', messages: [{ role: 'user' as const, content: 'Hi' }] };
    await client.chat.completions.create(body);
    await expect(client.chat.completions.create(body)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(client.models.list()).resolves.toBeDefined(); // not a prompt
  });
});

describe('POST /v1/responses', () => {
  it('answers whole; previous_response_id continues the conversation, and is a 404 for another user', async () => {
    t = await server([
      { text: 'Hi Ada.', usage: { inputTokens: 7, outputTokens: 2 } },
      (request) => ({
        text: JSON.stringify(request.messages).includes('I am Ada') ? 'You are Ada.' : 'forgot',
      }),
    ]);
    const client = clientOf(t.url);
    const first = await client.responses.create({ model: 'normal', input: 'I am Ada', store: false });
    expect(first).toMatchObject({
      object: 'response',
      status: 'completed',
      store: true,
      output_text: 'Hi Ada.',
    });
    expect(first.usage).toMatchObject({ input_tokens: 7, output_tokens: 2, total_tokens: 9 });
    const second = await client.responses.create({
      model: 'normal',
      input: [{ role: 'user', content: 'Who am I?' }],
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('You are Ada.');
    expect(second.previous_response_id).toBe(first.id);
    expect(second.metadata).toEqual(first.metadata);

    const stolen = await clientOf(t.url, BOB)
      .responses.create({ model: 'normal', input: 'Tell me', previous_response_id: first.id })
      .catch((error: unknown) => error);
    expect(stolen).toBeInstanceOf(OpenAI.NotFoundError);
    const garbage = await client.responses
      .create({ model: 'normal', input: 'Hi', previous_response_id: '../\u0000 or 1=1' })
      .catch((error: unknown) => error);
    expect(garbage).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("streams its events as the SDK's stream helper reads them", async () => {
    t = await server([{ text: ['Streamed ', 'answer.'], usage: { inputTokens: 3, outputTokens: 2 } }]);
    const client = clientOf(t.url);
    const types: string[] = [];
    const stream = client.responses.stream({ model: 'normal', input: 'Go' });
    stream.on('event', (event) => types.push(event.type));
    const response = await stream.finalResponse();
    expect(response.output_text).toBe('Streamed answer.');
    expect(response.usage?.total_tokens).toBe(5);
    expect(types[0]).toBe('response.created');
    expect(types.filter((type) => type === 'response.output_text.delta').length).toBeGreaterThan(0);
    expect(types.at(-1)).toBe('response.completed');
  });

  it('ends with the approval question; "reject" decides it, the call never runs', async () => {
    t = await server(
      [
        { toolCalls: [{ name: 'notes.clear', args: { reason: 'all' } }] },
        (request) => ({
          text: JSON.stringify(request.messages).includes('did not approve') ? 'Left as they were.' : 'ran',
        }),
      ],
      { plugins: [notes] },
    );
    const client = clientOf(t.url);
    const asked = await client.responses.create({ model: 'normal', input: 'Clear my notes', stream: true });
    let question = '';
    let previous = '';
    for await (const event of asked) {
      if (event.type === 'response.output_text.delta') question += event.delta;
      if (event.type === 'response.completed') previous = event.response.id;
    }
    expect(question).toContain('**Approval needed:**');
    const answer = await client.responses.create({
      model: 'normal',
      input: 'reject',
      previous_response_id: previous,
    });
    expect(answer.output_text).toBe('Left as they were.');
    const [conversation] = (await t.server.platform.conversations.list('alice')).items;
    const [prompt] = await promptsOf(t.server.platform, conversation!.id);
    expect(prompt!.output.find((o) => o.type === 'tool')).toMatchObject({
      approval: { decision: 'rejected' },
      result: { type: 'error' },
    });
  });
});

describe('pauses and failures through the Responses API', () => {
  it('asks at a budget pause; "approve" continues with double the limit reached', async () => {
    t = await server(
      [{ toolCalls: [{ name: 'notes.add', args: { text: 'one' } }] }, { text: 'Done after the pause.' }],
      {
        plugins: [notes],
        budgets: { maxRounds: 1 },
      },
    );
    const client = clientOf(t.url);
    const paused = await client.responses.create({ model: 'normal', input: 'Add a note' });
    expect(paused.output_text).toContain('**Paused:**');
    expect(paused.output_text).toContain('maxRounds 2');
    const resumed = await client.responses.create({
      model: 'normal',
      input: 'ok',
      previous_response_id: paused.id,
    });
    expect(resumed.output_text).toBe('Done after the pause.');
    const [conversation] = (await t.server.platform.conversations.list('alice')).items;
    const [prompt] = await promptsOf(t.server.platform, conversation!.id);
    expect(prompt!.state).toBe('completed');
    expect(prompt!.output.find((o) => o.type === 'pause')).toMatchObject({
      decision: 'continue',
      raised: { maxRounds: 2 },
    });
  });

  it('answers a failed prompt with response.failed when streamed', async () => {
    t = await server([{ error: 'the provider is down' }]);
    const events = await clientOf(t.url).responses.create({ model: 'normal', input: 'Hi', stream: true });
    const types: string[] = [];
    let failed: OpenAI.Responses.Response | undefined;
    for await (const event of events) {
      types.push(event.type);
      if (event.type === 'response.failed') failed = event.response;
    }
    expect(types.at(-1)).toBe('response.failed');
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });
});

describe('the demo model through an OpenAI client (the default server, no API key of a provider)', () => {
  it("answers with a plugin's tool, and asks for approval before deleting", async () => {
    t = await testServer('demo model'); // the default server: the embedded database too
    const client = clientOf(t.url);
    const weather = await client.chat.completions.create({
      model: 'normal',
      messages: [{ role: 'user', content: 'weather in Paris' }],
    });
    expect(weather.choices[0]!.message.content).toContain('Paris');

    // A file reaches the client as a link to its download, which the same token opens.
    const report = await client.chat.completions.create({
      model: 'normal',
      messages: [{ role: 'user', content: 'make a sales report' }],
    });
    const link = /\]\((http:\/\/[^)]+\/api\/conversations\/[\w-]+\/files\/file_[\w-]+)\)/.exec(
      report.choices[0]!.message.content!,
    );
    expect(link).not.toBeNull();
    const download = await fetch(link![1]!, { headers: { authorization: `Bearer ${ALICE}` } });
    expect([download.status, download.headers.get('content-type')]).toEqual([
      200,
      expect.stringContaining('csv'),
    ]);

    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'delete records alpha and beta' },
    ];
    const asked = await client.chat.completions.create({ model: 'normal', messages });
    const question = asked.choices[0]!.message.content!;
    expect(question).toContain('`demo.delete_records`');
    messages.push({ role: 'assistant', content: question }, { role: 'user', content: 'approve' });
    const done = await client.chat.completions.create({ model: 'normal', messages });
    expect(done.choices[0]!.message.content).not.toContain('Approval needed');
    const conversations = (await t.server.platform.conversations.list('alice')).items;
    const deleting = conversations.find((c) => c.title?.startsWith('delete'))!;
    const [prompt] = await promptsOf(t.server.platform, deleting.id);
    expect(prompt!.output.find((o) => o.type === 'tool')).toMatchObject({
      toolId: 'demo.delete_records',
      result: { type: 'success' },
    });
  });
});

describe('a sub-agent waiting for approval, through an OpenAI client', () => {
  const agents = () =>
    agentsPlugin({
      agents: [
        defineAgent({
          name: 'one',
          description: 'Asks two.',
          instructions: 'Ask two.',
          tools: ['agent.two'],
        }),
        defineAgent({
          name: 'two',
          description: 'Deletes.',
          instructions: 'Delete what you are told to.',
          tools: ['demo.delete_records'],
        }),
      ],
    });

  it('asks what waits two levels down; "approve" decides it there, and the answer is the top prompt’s', async () => {
    t = await server(
      [
        callTool('agent.one', { task: 'Clean alpha, via two.' }), // the user's prompt
        callTool('agent.two', { task: 'Delete alpha, then beta.' }), // one
        callTool('demo.delete_records', { names: ['alpha'] }), // two: waits
        callTool('demo.delete_records', { names: ['beta'] }), // two again, after the approval: waits again
        reply('two: deleted alpha and beta'),
        reply('one: two deleted them'),
        reply('Alpha and beta are deleted.'),
      ],
      { plugins: [demoPlugin, agents()] },
    );
    const client = clientOf(t.url);
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Clean up alpha and beta' },
    ];
    const asked = await client.chat.completions.create({ model: 'normal', messages }).withResponse();
    const question = asked.data.choices[0]!.message.content!;
    // The question is the deepest call's, not the agent call that is suspended on it.
    expect(question).toContain('**Approval needed (asked 2 levels down, by a prompt this one started):**');
    expect(question).toContain('`demo.delete_records`');
    expect(question).toContain('alpha');
    const conversationId = asked.response.headers.get('x-tessera-conversation')!;
    const [top] = await promptsOf(t.server.platform, conversationId);
    const [, , deepest] = await waitingChain(t.server.platform, top!.id);
    expect(question).toContain(`${t.url}/#${deepest!.conversationId}`);

    // "approve": the deepest call runs; the child asks again, so the turn ends with the new question.
    messages.push({ role: 'assistant', content: question }, { role: 'user', content: 'approve' });
    const again = await client.chat.completions.create({ model: 'normal', messages });
    const second = again.choices[0]!.message.content!;
    expect(second).toContain('**Approval needed (asked 2 levels down');
    expect(second).toContain('beta');

    // "approve" again: every level ends, and the stream carries the top prompt's answer.
    messages.push({ role: 'assistant', content: second }, { role: 'user', content: 'approve' });
    const stream = await client.chat.completions.create({ model: 'normal', messages, stream: true });
    let answer = '';
    for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? '';
    expect(answer).toBe('Alpha and beta are deleted.');
    const done = (await t.server.platform.getPrompt(top!.id, 'alice'))!;
    expect(done.state).toBe('completed');
    const deleted = (await t.server.platform.getPrompt(deepest!.id, 'alice')).output.filter(
      (o) => o.type === 'tool' && o.toolId === 'demo.delete_records',
    );
    expect(deleted.map((o) => o.type === 'tool' && [o.approval?.decision, o.result?.type])).toEqual([
      ['approved', 'success'],
      ['approved', 'success'],
    ]);
    // Nothing else waits, and another user's client never saw any of it.
    expect((await t.request('GET', '/api/approvals')).body.items).toEqual([]);
    expect((await t.request('GET', '/api/approvals', { token: BOB })).body.items).toEqual([]);
  });
});

/** The top prompt and the prompts below it that wait, through their suspended calls (alice's). */
async function waitingChain(platform: Platform, topId: string) {
  const chain = [await platform.getPrompt(topId, 'alice')];
  const waiting = (
    await platform.store.prompts.listByUserAndState!('alice', 'waiting_for_approval', { limit: 50 })
  ).items;
  for (let depth = 0; depth < 5; depth++) {
    const above = chain.at(-1)!;
    const child = waiting.find((p) => parentOf(p)?.promptId === above.id);
    if (!child) break;
    chain.push(await platform.getPrompt(child.id, 'alice'));
  }
  return chain;
}
