import {
  createPlatform,
  createTool,
  definePlugin,
  emptyUsage,
  type ModelMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type PromptRecord,
} from '@tessera/core';
import type { z } from 'zod';
import { sharedHistoryStore } from './shared-history-store.ts';

export type BenchTool = {
  name: string;
  description: string;
  schema: z.ZodObject;
  execute: (args: never) => Promise<unknown>;
};
export type Decision =
  | { type: 'tool_call'; callId: string; toolName: string; args: unknown }
  | { type: 'text'; text: string };
export type HistoryTurn = {
  user: string;
  call: { callId: string; toolName: string; args: unknown };
  result: unknown;
  assistant: string;
};

/** Tool results since the last user message: the rounds this run has done so far. */
export function roundsDone(messages: readonly ModelMessage[]): number {
  let done = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.type === 'message' && message.role === 'user') break;
    if (message.type === 'function_call_output') done++;
  }
  return done;
}

/** A model that answers instantly, in-process, from `decide`: its whole answer in one batch. */
export function instantModel(decide: (messages: readonly ModelMessage[]) => Decision): ModelProvider {
  const answer = (request: ModelRequest): ModelStreamEvent[] => {
    const decision = decide(request.messages);
    const said: ModelStreamEvent =
      decision.type === 'tool_call'
        ? {
            type: 'tool-call',
            callId: decision.callId,
            name: decision.toolName,
            arguments: JSON.stringify(decision.args),
          }
        : { type: 'text-delta', delta: decision.text };
    return [
      said,
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
      { type: 'finish', reason: decision.type === 'tool_call' ? 'tool_calls' : 'stop' },
    ];
  };
  return {
    id: 'instant',
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      yield* answer(request);
    },
    async *streamBatches(request): AsyncIterable<ModelStreamEvent[]> {
      yield answer(request);
    },
  };
}

const at = '2026-01-01T00:00:00.000Z';

/** History turns as the prompts Tessera would have recorded for them, built once. */
export function historyPrompts(
  history: readonly HistoryTurn[],
  conversationId = 'conv_history',
): PromptRecord[] {
  return history.map((turn, i) => ({
    id: `prm_history_${i}`,
    conversationId,
    userId: 'bench',
    model: 'normal',
    visible: true,
    state: 'completed',
    input: turn.user,
    output: [
      {
        type: 'tool',
        id: `call_history_${i}`,
        createdAt: at,
        callId: `${turn.call.callId}_h${i}`,
        toolId: turn.call.toolName,
        input: turn.call.args,
        result: { type: 'success', output: turn.result },
        startedAt: at,
        endedAt: at,
      },
      { type: 'text', id: `out_history_${i}`, createdAt: at, text: turn.assistant },
    ],
    usage: emptyUsage(),
    createdAt: at,
    updatedAt: at,
  }));
}

/** A Tessera platform for the benchmark: the tools as one plugin, the instant model, a shared history. */
export function benchAgent(options: {
  tools: readonly BenchTool[];
  decide: (messages: readonly ModelMessage[]) => Decision;
  history?: readonly HistoryTurn[];
  system?: string;
}) {
  const plugin = definePlugin({
    id: 'bench',
    tools: options.tools.map((tool) =>
      createTool({
        id: tool.name,
        description: tool.description,
        input: tool.schema,
        invoke: ({ input }) => tool.execute(input as never),
      }),
    ),
  });
  const platform = createPlatform({
    plugins: [plugin],
    model: instantModel(options.decide),
    store: sharedHistoryStore(historyPrompts(options.history ?? [])),
    instructions: options.system,
    budgets: { maxRounds: 1_000, maxToolCalls: 10_000 },
  });
  return {
    platform,
    /** One complete run in a fresh conversation over the shared history; resolves with the final text. */
    async run(input: string): Promise<string> {
      const conversation = await platform.conversations.create({ userId: 'bench' });
      const prompt = await platform.send({ conversationId: conversation.id, userId: 'bench', input });
      await platform.conversations.delete(conversation.id, 'bench'); // runs are independent: keep nothing
      const last = prompt.output.at(-1);
      if (prompt.state !== 'completed' || last?.type !== 'text') {
        throw new Error(`run ended ${prompt.state}: ${prompt.stopReason?.message ?? 'no text'}`);
      }
      return last.text;
    },
  };
}
