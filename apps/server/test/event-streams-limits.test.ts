import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createMemoryStore } from '@tessera/core';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, collectEvents, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A prompt whose answer is `chunks` text deltas of `chars` characters each. */
const bigReply = (chunks: number, chars: number) =>
  reply(Array.from({ length: chunks }, (_, i) => String(i % 10).repeat(chars)));

/**
 * An event stream read by hand (node:http): `pause()` stops reading (its socket's buffers fill, then the
 * server's writes wait), `resume()` reads on; `ended` resolves when the server ends or cuts the connection.
 */
async function rawStream(url: string, token: string) {
  const request = httpRequest(url, { headers: { authorization: `Bearer ${token}` } });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve).once('error', reject).end();
  });
  expect(response.statusCode).toBe(200);
  let text = '';
  const ended = new Promise<string>((resolve) => {
    response.on('end', () => resolve('end'));
    response.on('aborted', () => resolve('aborted'));
    response.on('error', () => resolve('error'));
    response.on('close', () => resolve('close'));
  });
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    text += chunk;
  });
  while (!text.includes('event: ready')) await sleep(5);
  return {
    pause: () => response.pause(),
    resume: () => response.resume(),
    ended,
    /** The events received whole (a frame cut off at the end is not one). */
    events: () =>
      text
        .split('\n\n')
        .slice(0, -1)
        .map((frame) => ({
          event: /^event: (.*)$/m.exec(frame)?.[1],
          id: /^id: (.*)$/m.exec(frame)?.[1],
        }))
        .filter((e) => e.event !== undefined),
    close: () => request.destroy(),
  };
}

/** Sends a prompt and waits for it to end (polling its state). */
async function runPrompt(conversationId: string, input: string) {
  const sent = await t!.request('POST', `/api/conversations/${conversationId}/prompts`, { body: { input } });
  expect(sent.status).toBe(202);
  for (let i = 0; i < 1_000; i++) {
    const prompt = await t!.request('GET', `/api/prompts/${sent.body.prompt.id}`);
    if (prompt.body.state === 'completed') return;
    await sleep(20);
  }
  throw new Error('the prompt did not complete');
}

const ids = (events: { id?: string; event?: string }[]) =>
  events.filter((e) => e.event !== 'ready').map((e) => e.id);

describe('event streams, bounded', () => {
  it('cuts a reader that falls behind; it resumes from its last event and misses nothing', async () => {
    // ~300 KB of events per prompt, sent at once (a scripted model and the memory store never wait): under
    // the limit, which a reader that keeps up never reaches; 8 MB in all, past what the sockets hold.
    const prompts = 26;
    t = await testServer(
      Array.from({ length: prompts }, () => bigReply(20, 5_000)),
      {
        store: createMemoryStore(),
        limits: { streamQueueBytes: 1_000_000, replayLogBytesPerConversation: 64_000_000 },
      },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const url = `${t.url}/api/conversations/${conversation.id}/events`;
    let completed = 0;
    const everything = collectEvents(url, {
      until: (e) => e.event === 'prompt.completed' && ++completed === prompts,
    });
    const slow = await rawStream(url, ALICE);
    slow.pause(); // reads nothing more: ~4 MB fit in the sockets' buffers, then the server's writes wait
    await sleep(50);
    for (let i = 0; i < prompts; i++) await runPrompt(conversation.id, `prompt ${i}`);
    const all = ids(await everything); // a reader that keeps up gets everything, in one connection
    expect(all.length).toBeGreaterThan(prompts * 20);

    slow.resume();
    // Cut: the connection ends without the rest (it would stay open, everything queued for it, were it not).
    const how = await Promise.race([slow.ended, sleep(5_000).then(() => 'still open')]);
    if (process.env.DEBUG_STREAMS)
      console.log('slow reader', how, ids(slow.events()).length, 'of', all.length);
    expect(how).not.toBe('still open');
    const received = ids(slow.events());
    expect(received.length).toBeLessThan(all.length);
    expect(received).toEqual(all.slice(0, received.length));

    const rest = await collectEvents(url, {
      lastEventId: received.at(-1),
      until: (e) => e.id === all.at(-1),
    });
    expect(rest[0]!.event).toBe('ready'); // resumed, not reset
    expect([...received, ...ids(rest)]).toEqual(all);
  });

  it('keeps only replayLogBytesPerConversation of events to resume from: older ids get `reset`', async () => {
    t = await testServer([reply('one'), bigReply(10, 30_000)], {
      store: createMemoryStore(),
      limits: { replayLogBytesPerConversation: 200_000 },
    });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const url = `${t.url}/api/conversations/${conversation.id}/events`;
    const first = collectEvents(url, { until: (e) => e.event === 'prompt.completed' });
    await sleep(50);
    await runPrompt(conversation.id, 'small');
    const before = (await first).at(-1)!.id;
    const second = collectEvents(url, { until: (e) => e.event === 'prompt.completed' });
    await sleep(50);
    await runPrompt(conversation.id, 'large'); // ~900 KB of events: the first prompt's are dropped
    const last = (await second).at(-1)!.id;

    const stale = await collectEvents(url, { lastEventId: before, until: (e) => e.event === 'ready' });
    expect(stale.map((e) => e.event)).toEqual(['reset', 'ready']);
    const recent = await collectEvents(url, { lastEventId: last, until: (e) => e.event === 'ready' });
    expect(recent.map((e) => e.event)).toEqual(['ready']);
  });

  it('answers the stream past streamsPerUser 429 too_many_streams; other users are not affected', async () => {
    t = await testServer([], { store: createMemoryStore(), limits: { streamsPerUser: 2 } });
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const url = `${t.url}/api/conversations/${conversation.id}/events`;
    const open = [await rawStream(url, ALICE), await rawStream(url, ALICE)];
    const refused = await fetch(url, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(refused.status).toBe(429);
    expect([refused.headers.get('retry-after'), await refused.json()]).toEqual([
      '5',
      { error: { code: 'too_many_streams', message: expect.stringContaining('2 event streams') } },
    ]);

    const { body: bobs } = await t.request('POST', '/api/conversations', { body: {}, token: BOB });
    const bob = await rawStream(`${t.url}/api/conversations/${bobs.id}/events`, BOB);
    bob.close();

    open[0]!.close(); // a closed stream frees its place
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      await sleep(20);
      const again = await fetch(url, { headers: { authorization: `Bearer ${ALICE}` } });
      status = again.status;
      await again.body?.cancel();
    }
    expect(status).toBe(200);
    open[1]!.close();
  });
});
