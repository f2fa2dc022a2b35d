// The tools and the model the soak test's servers run: tools that emit outputs, one with side effects and
// one that needs approval, each logging its runs in the store (the side effect the soak checks), and a model
// that calls them and then answers. Random pauses give the kills something to land in.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTool,
  defineOutput,
  definePlugin,
  type ModelProvider,
  type OutputOf,
  type Store,
  StoreToken,
} from '@tessera/core';
import { z } from 'zod';

/** A card a tool shows: `index` is its place among what one run of the call emits. */
export const soakCard = defineOutput({
  type: 'x-soak.card',
  fields: { index: z.number().int(), text: z.string() },
  project: { summary: (card) => `[card ${card.index}: ${card.text}]` },
});
export type SoakCard = OutputOf<typeof soakCard>;

/** Where every run of a soak tool is logged, as `{toolCallId}:{run id}`: the side effects the soak counts. */
export const RUNS = 'soak-runs';
export type SoakRun = { toolCallId: string; toolId: string; pid: number };

/** What each input asks for: the tools the model calls, in one batch. */
export const SOAK_INPUTS = {
  forecast: ['soak.forecast'],
  record: ['soak.forecast', 'soak.record'],
  transfer: ['soak.forecast', 'soak.record', 'soak.transfer'],
} as const;

/** How many cards one run of each tool emits. */
export const CARDS: Record<string, number> = { 'soak.forecast': 2, 'soak.record': 1, 'soak.transfer': 1 };

const pause = (maxMs: number, signal: AbortSignal) => sleep(Math.random() * maxMs, undefined, { signal });

async function logRun(store: Store, toolCallId: string, toolId: string): Promise<void> {
  const run: SoakRun = { toolCallId, toolId, pid: process.pid };
  await store.records.put(RUNS, `${toolCallId}:${crypto.randomUUID()}`, run);
}

const tool = (
  id: keyof typeof CARDS & string,
  description: string,
  extra: { readOnly?: boolean; requireApproval?: { required: boolean; reason: string } },
) =>
  createTool({
    id,
    description,
    input: z.object({ city: z.string() }),
    ...extra,
    invoke: async ({ input, emit, services, toolCallId, signal }) => {
      await logRun(services.resolve(StoreToken), toolCallId, id);
      for (let index = 0; index < CARDS[id]!; index++) {
        await pause(250, signal);
        // Not declared in PromptOutputTypes: the server's own types stay as they are.
        const card: Omit<SoakCard, 'id' | 'createdAt'> = {
          type: 'x-soak.card',
          index,
          text: `${id} for ${input.city}`,
        };
        await emit(card as never);
      }
      await pause(150, signal);
      return { ok: true };
    },
  });

export const soakPlugin = definePlugin({
  id: 'x-soak',
  outputs: [soakCard],
  tools: [
    tool('soak.forecast', 'A forecast, as two cards (read-only: run again after a crash).', {
      readOnly: true,
    }),
    tool('soak.record', 'Records something (a side effect: never run twice).', {}),
    tool('soak.transfer', 'Transfers money (needs approval).', {
      requireApproval: { required: true, reason: 'Money leaves the account.' },
    }),
  ],
});

/** Calls the tools the user's input names while the prompt has no call yet; answers once it has. */
export const soakModel: ModelProvider = {
  id: 'soak',
  label: 'soak model',
  async *stream(request, signal) {
    await pause(120, signal);
    const last = request.messages.at(-1);
    if (last?.type === 'message' && last.role === 'user') {
      const tools = SOAK_INPUTS[last.content as keyof typeof SOAK_INPUTS] ?? SOAK_INPUTS.forecast;
      for (const name of tools) {
        yield {
          type: 'tool-call',
          callId: `call_${crypto.randomUUID()}`,
          name,
          arguments: JSON.stringify({ city: 'Oslo' }),
        };
      }
      yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } };
      yield { type: 'finish', reason: 'tool_calls' };
      return;
    }
    for (const delta of ['All ', 'done.']) {
      yield { type: 'text-delta', delta };
      await pause(40, signal);
    }
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } };
    yield { type: 'finish', reason: 'stop' };
  },
};
