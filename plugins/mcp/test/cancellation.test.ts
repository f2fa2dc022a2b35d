// Cancelling a prompt cancels the server's request: the server gets notifications/cancelled.
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { expect, it } from 'vitest';
import { mcpPlugin } from '../src/index.ts';
import { stdio, TOOLBOX, timing } from './support/servers.ts';

it('sends the server the cancellation of a call whose prompt is cancelled', async () => {
  const t = await createTestPlatform({
    plugins: [mcpPlugin({ servers: { box: stdio(TOOLBOX) }, ...timing })],
  });
  await t.platform.open();
  try {
    t.model.push(callTool('box.wait'));
    // The call has reached the server once the server reports progress.
    const waiting = new Promise<void>((resolve) => {
      const stop = t.platform.events.subscribe({ conversationId: t.conversation.id }, (event) => {
        if (event.type === 'prompt.output' && event.output.type === 'mcp.progress') resolve(stop());
      });
    });
    const run = await t.platform.start({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Wait',
    });
    await waiting;
    await t.platform.cancel(run.prompt.id, { userId: t.userId });
    expect((await run.done).state).toBe('cancelled');

    t.model.push(callTool('box.cancellations'), reply('One.'));
    // The server counts the cancellation when it gets it: ask until it has (it comes right after the cancel).
    let count = '0';
    for (let tries = 0; tries < 20 && count === '0'; tries++) {
      if (tries > 0) t.model.push(callTool('box.cancellations'), reply('One.'));
      count = t.toolResult(await t.send('How many?'), 'box.cancellations') as string;
    }
    expect(count).toBe('1');
  } finally {
    await t.platform.close();
  }
});
