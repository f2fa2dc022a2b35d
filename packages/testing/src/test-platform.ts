import {
  type AnyPlugin,
  type AnyTool,
  type BudgetRaise,
  createPlatform,
  createServiceContainer,
  type DependencyContainer,
  type NewOutput,
  newId,
  OutputRegistry,
  type PlatformOptions,
  type Plugin,
  type PluginState,
  type PromptOutputToolResult,
} from '@tessera/core';
import { describePrompt, outputsOf, pendingCall, toolError, toolResult } from './prompt-readers.ts';
import { ScriptedModel, type ScriptedTurn } from './scripted-model.ts';
import { type StoredState, seedState } from './seed-state.ts';

export type TestPlatformOptions = Omit<PlatformOptions, 'model'> & {
  /** The script of the model; more turns can be pushed on `model` later. */
  script?: ScriptedTurn[];
  userId?: string;
};

/**
 * A platform on a scripted model and an in-memory store, with one conversation ready, and readers for what
 * tests assert on:
 *
 * ```ts
 * const t = await createTestPlatform({ plugins: [myPlugin], script: [callTool('my.tool', { a: 1 }), reply('Done')] });
 * const prompt = await t.send('Do it');
 * expect(t.toolResult(prompt, 'my.tool')).toEqual({ ok: true });
 * ```
 */
export async function createTestPlatform(options: TestPlatformOptions = {}) {
  const { script, userId = 'user_test', ...rest } = options;
  const model = new ScriptedModel(script);
  const platform = createPlatform({ ...rest, model });
  const conversation = await platform.conversations.create({ userId });

  /** The conversation's prompt that waits for approval, or an error describing its latest prompt. */
  const waitingPrompt = async () => {
    const prompts = await platform.conversations.prompts(conversation.id, userId);
    const waiting = prompts.find((p) => p.state === 'waiting_for_approval');
    if (waiting) return waiting;
    const latest = prompts.at(-1);
    throw new Error(
      `No prompt of the conversation waits for approval. ${latest ? describePrompt(latest) : 'It has no prompt.'}`,
    );
  };

  return {
    platform,
    model,
    conversation,
    userId,
    /** Sends input in the ready conversation and resolves when the loop stops. */
    send: (input?: string, extra: { model?: 'normal' | 'high'; metadata?: Record<string, unknown> } = {}) =>
      platform.send({
        conversationId: conversation.id,
        userId,
        ...(input !== undefined && { input }),
        ...extra,
      }),
    /** Approves a call; with `input`, runs it with those arguments instead (validated by the tool's schema). */
    approve: (toolCallId: string, input?: unknown) =>
      platform.approve(toolCallId, { userId, ...(input !== undefined && { input }) }),
    reject: (toolCallId: string, reason?: string) => platform.reject(toolCallId, { userId, reason }),
    /**
     * Approves the call that waits for approval (of tool `toolId`, when several wait) and resolves with the
     * prompt when the resumed loop stops. Throws, describing the prompt, unless exactly one call matches.
     */
    approvePending: async ({ toolId }: { toolId?: string } = {}) =>
      platform.approve(pendingCall(await waitingPrompt(), toolId).id, { userId }),
    /**
     * Decides the pause the conversation's prompt waits on (a plugin's `betweenRounds`, a budget
     * reached: continue it with larger `budgets`, e.g. `{ maxRounds: 50 }`) and resolves with the prompt when
     * the resumed loop stops.
     */
    resumePending: async (choice: 'continue' | 'stop', budgets?: BudgetRaise) => {
      const prompt = await waitingPrompt();
      const pause = prompt.output.find((o) => o.type === 'pause' && !o.decision);
      if (!pause) throw new Error(`The waiting prompt has no pause. ${describePrompt(prompt)}`);
      return platform.resume(pause.id, { userId, choice, ...(budgets && { budgets }) });
    },
    /** Sends a message while the conversation may be busy: `steer` the running prompt, or `queue` it next. */
    message: (input: string, mode: 'steer' | 'queue') =>
      platform.messages.send({ conversationId: conversation.id, userId, input, mode }),
    /** Rejects the call that waits for approval, like `approvePending`; the model reads `reason`. */
    rejectPending: async ({ toolId, reason }: { toolId?: string; reason?: string } = {}) =>
      platform.reject(pendingCall(await waitingPrompt(), toolId).id, { userId, reason }),
    /** The plugin's state in the ready conversation, typed by the plugin. */
    state: async <T>(plugin: Plugin<T>): Promise<T> =>
      (await platform.pluginState(conversation.id, plugin)).get(),
    /** Sets the plugin's state in the ready conversation (validated by its schema), e.g. before sending. */
    setState: async <T>(plugin: Plugin<T>, value: T): Promise<void> =>
      (await platform.pluginState(conversation.id, plugin)).set(value),
    /**
     * Stores the plugin's state in the ready conversation as its older state version `version` wrote it
     * (not validated): the next read migrates it, to test the plugin's `migrate`.
     */
    seedState: (plugin: AnyPlugin, stored: StoredState) =>
      seedState(platform, conversation.id, plugin, stored),
    pendingCall,
    toolResult,
    toolError,
    outputs: outputsOf,
  };
}

/** A plain in-memory state handle, for calling a tool outside a loop. */
export function memoryState<T>(initial: T): PluginState<T> & { value: T } {
  const state = {
    value: initial,
    get: () => state.value,
    set: async (value: T) => {
      state.value = value;
    },
    update: async (change: (current: T) => T) => {
      state.value = change(state.value);
    },
  };
  return state;
}

export type InvokeToolOptions<TState> = {
  input: unknown;
  state?: TState;
  userId?: string;
  services?: DependencyContainer;
  signal?: AbortSignal;
  /** Plugins whose output variants and `toolInput` helpers (displayWidget, ...) the tool may use. */
  plugins?: readonly AnyPlugin[];
};

/**
 * Calls one tool the way the loop would (validated input, state, services, emitters), without a model:
 * the quickest way to unit-test a tool. Returns its result, what it emitted, and the state afterwards.
 */
export async function invokeTool<TState = unknown>(tool: AnyTool, options: InvokeToolOptions<TState>) {
  const outputs = new OutputRegistry();
  for (const plugin of options.plugins ?? [])
    for (const variant of plugin.outputs) outputs.register(variant, plugin.id);
  const emitted: ReturnType<OutputRegistry['validate']>[] = [];
  const state = memoryState(options.state as TState);
  const toolCallId = newId('call');
  const emit = async (output: NewOutput) => {
    const validated = outputs.validate({
      ...output,
      id: output.id ?? newId('out'),
      createdAt: new Date().toISOString(),
      toolCallId,
    } as never);
    emitted.push(validated);
    return validated.id;
  };
  const base = {
    userId: options.userId ?? 'user_test',
    state,
    services: options.services ?? createServiceContainer(),
    signal: options.signal ?? new AbortController().signal,
    toolCallId,
    promptId: 'prm_test',
    conversationId: 'conv_test',
    emit,
    update: async (outputId: string, output: NewOutput) => {
      const index = emitted.findIndex((o) => o.id === outputId);
      if (index < 0) throw new Error(`No emitted output ${outputId}.`);
      emitted[index] = outputs.validate({
        ...output,
        id: outputId,
        createdAt: emitted[index]!.createdAt,
        toolCallId,
      } as never);
    },
    outputs: () => emitted,
  };
  let result: PromptOutputToolResult;
  const parsed = tool.input.safeParse(options.input);
  if (!parsed.success) {
    result = { type: 'error', error: { code: 'invalid_arguments', message: parsed.error.message } };
  } else {
    const input = { ...base, input: parsed.data };
    const extensions = Object.assign({}, ...(options.plugins ?? []).map((p) => p.toolInput?.(input)));
    try {
      result = { type: 'success', output: await tool.invoke({ ...input, ...extensions } as never) };
    } catch (error) {
      result = {
        type: 'error',
        error: { code: 'tool_failed', message: error instanceof Error ? error.message : String(error) },
      };
    }
  }
  return { result, emitted, state: state.value };
}

/** What `createTestPlatform` resolves with, for helpers that take one. */
export type TestPlatform = Awaited<ReturnType<typeof createTestPlatform>>;
