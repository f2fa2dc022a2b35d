/**
 * What a conversation at the size bound costs (`maxConversationChars`, core's default 10,000,000): `node
 * bench/full-conversation.ts` in this package. One conversation is filled with prompts whose input is
 * BENCH_INPUT_CHARS (default 100,000, the server's `limits.maxInputChars`) until a prompt ends
 * `conversation_full`; then, on both drivers: the start of the last prompt that ran (its history is nearly the
 * bound), a read of the conversation's prompts as `GET /api/conversations/{id}` makes it (with the JSON it
 * sends), and a send refused as full. Wall time and this process's CPU, in ms.
 */

import { ConversationFullError, createPlatform, DEFAULT_MAX_CONVERSATION_CHARS } from '@tessera/core';
import { reply, ScriptedModel } from '@tessera/testing';
import { onBothDrivers } from './on-both-drivers.ts';

const INPUT_CHARS = Number(process.env.BENCH_INPUT_CHARS ?? 100_000);
const MAX = Number(process.env.BENCH_MAX_CONVERSATION_CHARS ?? DEFAULT_MAX_CONVERSATION_CHARS);

/** Wall time and CPU of `work`, in ms. */
async function measure<T>(work: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}
const ms = ({ wall, cpu }: { wall: number; cpu: number }) =>
  `${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms)`;

const results = await onBothDrivers('tessera-full', async (store) => {
  const platform = createPlatform({
    store,
    maxConversationChars: MAX,
    model: new ScriptedModel(Array.from({ length: Math.ceil(MAX / INPUT_CHARS) + 5 }, () => reply('ok'))),
  });
  const userId = 'bench';
  const { id: conversationId } = await platform.conversations.create({ userId });
  let last: Awaited<ReturnType<typeof measure>> | undefined;
  let prompts = 0;
  for (;;) {
    const input = `${prompts} `.padEnd(INPUT_CHARS, 'lorem ipsum ');
    const run = await measure(() => platform.send({ conversationId, userId, input }));
    prompts++;
    if (run.value.state !== 'completed') break;
    last = run;
  }
  const read = await measure(async () => {
    const all = await platform.conversations.prompts(conversationId, userId);
    return JSON.stringify({ prompts: all }).length;
  });
  const refused = await measure(() =>
    platform.send({ conversationId, userId, input: 'one more' }).catch((error: unknown) => error),
  );
  if (!ConversationFullError.is(refused.value)) throw new Error('The send past the bound was not refused.');
  await platform.close();
  return {
    'prompts until full': String(prompts),
    'the last prompt that ran': ms(last!),
    'reading the conversation (GET)': `${ms(read)}, ${((read.value as number) / 1e6).toFixed(1)} MB of JSON`,
    'a send refused as full': ms(refused),
  };
});
console.log(
  `A conversation filled with inputs of ${INPUT_CHARS} characters up to ${MAX} characters of record:`,
);
for (const [driver, figures] of Object.entries(results)) {
  console.log(driver);
  for (const [row, figure] of Object.entries(figures)) console.log(`  ${row}: ${figure}`);
}
