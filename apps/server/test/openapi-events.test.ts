import { afterEach, expect, it } from 'vitest';
import { testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it("documents the data of every event on a conversation's stream, loop control's included", async () => {
  t = await testServer();
  const { body: document } = await t.request('GET', '/openapi.json', { token: null });
  const stream =
    document.paths['/api/conversations/{id}/events'].get.responses[200].content['text/event-stream'];
  expect(stream.schema).toEqual({ $ref: '#/components/schemas/ConversationEvent' });
  const variants: { $ref: string }[] = document.components.schemas.ConversationEvent.oneOf;
  const types = variants.map(
    ({ $ref }) => document.components.schemas[$ref.split('/').at(-1)!].properties.type.enum[0],
  );
  expect(types).toEqual(
    expect.arrayContaining([
      'prompt.started',
      'prompt.completed',
      'prompt.failed',
      'prompt.cancelled',
      'prompt.hook-failed',
      'prompt.guardrail-tripped',
      'prompt.pause-requested',
      'prompt.pause-decided',
      'prompt.steered',
      'message.queued',
      'message.removed',
    ]),
  );
  expect(document.paths['/api/conversations/{id}/messages']).toMatchObject({
    post: { operationId: 'sendMessage' },
    get: { operationId: 'listMessages' },
  });
  expect(document.paths['/api/pauses/{id}/resume'].post.operationId).toBe('resumePause');
  const approve = document.paths['/api/tool-calls/{id}/approve'].post;
  expect(approve.requestBody.content['application/json'].schema.properties).toHaveProperty('input');
});
