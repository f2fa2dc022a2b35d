import { errorMessage, ModelError, NotFoundError, TesseraError } from '../errors.ts';
import { newId } from '../ids.ts';
import { isoNow } from '../iso-now.ts';
import type { Conversation } from '../model/conversation.ts';
import type {
  NewOutput,
  Prompt,
  PromptOutput,
  PromptOutputToolResult,
  ToolOutput,
} from '../model/outputs.ts';
import type { OutputBase, PromptState, StopReason } from '../model/prompt.ts';
import {
  boundText,
  PromptProjection,
  projectHistory,
  promptsToMessages,
} from '../projection/prompts-to-messages.ts';
import type { ModelMessage } from '../provider/messages.ts';
import type { FinishReason, ModelStreamEvent, ModelUsage } from '../provider/provider.ts';
import { immutableOwn } from '../store/frozen.ts';
import { CallIds } from './call-ids.ts';
import { ModelResponse, type ResponseCall } from './model-response.ts';
import { ConversationStates } from './plugin-state.ts';
import { type OfferedTool, prepareRound, type Round } from './prepare-round.ts';
import type { Runtime } from './runtime.ts';
import { CallWatch, type Decision, decide, invokeTool, toolError } from './tool-calls.ts';

/** Why the loop's own abort signal fired. */
const CANCELLED = Symbol('cancelled');
const WALL_TIME = Symbol('wall time');

type OpenCall = ResponseCall;
type ModelTurn = { calls: OpenCall[]; finish?: FinishReason };

const now = isoNow;
const isOpenTool = (output: PromptOutput): output is ToolOutput => output.type === 'tool' && !output.result;
const isPendingTool = (output: PromptOutput): output is ToolOutput =>
  output.type === 'tool' && output.result?.type === 'pending';

export type RunOptions = {
  /** Cancels the run: the model call and running tools are aborted and the prompt ends `cancelled`. */
  signal?: AbortSignal;
  /** The id of a tool call whose approval was just claimed: it is invoked first. */
  approved?: string;
};

/**
 * One prompt's agent loop: prepare → call the model → validate → approve or invoke → record → repeat,
 * until a text answer, a pause for approval, a budget, a cancellation or an error. Every change is written
 * to the store before it is published, so the record survives the process.
 */
export class PromptCompletion {
  readonly #runtime: Runtime;
  readonly #states: ConversationStates;
  readonly #history: readonly Prompt[];
  #prompt: Prompt;
  #historyMessages?: readonly ModelMessage[];
  /** The current prompt's messages, kept between rounds: only new or replaced outputs are projected. */
  #projection?: PromptProjection;
  #toolBudgetReached = false;
  /** The tool calls that run: their timeouts, and stopping them when the run is aborted. */
  readonly #calls = new CallWatch();
  /** Rejects the read of the model's stream in progress, when the run is aborted. */
  #stopRead: ((reason: unknown) => void) | undefined;
  /** The model's call ids in the conversation, kept unique. */
  readonly #callIds = new CallIds(() => [...this.#history, this.#prompt]);
  /** The batch being processed; calls not yet recorded when the loop ends abruptly are recorded then. */
  #batch: OpenCall[] = [];

  constructor(runtime: Runtime, prompt: Prompt, conversation: Conversation, history: readonly Prompt[]) {
    this.#runtime = runtime;
    this.#prompt = { ...prompt, output: [...prompt.output] };
    this.#states = new ConversationStates(runtime.store, conversation);
    this.#history = history;
  }

  /** Loads a prompt with its conversation and history from the store alone. */
  static async load(runtime: Runtime, promptId: string): Promise<PromptCompletion> {
    const prompt = (await runtime.store.prompts.get(promptId)) as Prompt | undefined;
    if (!prompt) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
    const conversation = await runtime.store.conversations.get(prompt.conversationId);
    if (!conversation) throw new NotFoundError(`Conversation ${prompt.conversationId} does not exist.`);
    const all = (await runtime.store.prompts.listByConversation(conversation.id)) as Prompt[];
    const index = all.findIndex((p) => p.id === promptId);
    return new PromptCompletion(runtime, prompt, conversation, all.slice(0, index < 0 ? all.length : index));
  }

  get prompt(): Prompt {
    return this.#prompt;
  }

  async run(options: RunOptions = {}): Promise<Prompt> {
    const controller = new AbortController();
    const abort = (reason: symbol) => {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      this.#stopRead?.(reason); // a model call in progress gives up at once, even if its provider does not
      this.#calls.abort(); // and so do the tools that run
    };
    const cancel = () => abort(CANCELLED);
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    const { maxWallTimeMs } = this.#runtime.options.budgets;
    const timer = Number.isFinite(maxWallTimeMs)
      ? setTimeout(() => abort(WALL_TIME), maxWallTimeMs)
      : undefined;
    try {
      return await this.#loop(controller.signal, options.approved);
    } catch (error) {
      return await this.#endWithError(error, controller.signal);
    } finally {
      clearTimeout(timer);
      this.#calls.close();
      options.signal?.removeEventListener('abort', cancel);
    }
  }

  async #loop(signal: AbortSignal, approved: string | undefined): Promise<Prompt> {
    // Plugins' stored state of an older version is migrated (and written back) before anything reads it.
    await this.#states.migrate(this.#runtime.plugins);
    if (approved) await this.#invokeApproved(approved, signal);
    // A process stopped between recording a `pending` call and pausing: pause now, as it would have.
    if (this.#prompt.output.some(isPendingTool)) return await this.#pause();
    for (;;) {
      const open = this.#prompt.output.filter(isOpenTool);
      if (open.length > 0) {
        const round = await this.#prepare(signal);
        const paused = await this.#processCalls(
          open.map((output) => ({ output, recorded: true })),
          round,
          signal,
        );
        if (paused) return await this.#pause();
      }
      const stop = this.#budgetStop();
      if (stop) return await this.#end('completed', stop);

      const round = await this.#prepare(signal);
      const turn = await this.#callModel(round, signal);
      if (turn.calls.length === 0) return await this.#end('completed', finishStop(turn.finish));
      const paused = await this.#processCalls(turn.calls, round, signal);
      if (paused) return await this.#pause();
    }
  }

  #prepare(signal: AbortSignal): Promise<Round> {
    signal.throwIfAborted();
    return prepareRound(this.#runtime, this.#states, {
      prompt: this.#prompt,
      history: this.#history,
      round: this.#prompt.usage.modelCalls,
      signal,
    });
  }

  #budgetStop(): StopReason | undefined {
    const { budgets } = this.#runtime.options;
    const { usage } = this.#prompt;
    if (this.#toolBudgetReached) {
      return {
        code: 'max_tool_calls',
        message: `Stopped: this prompt reached its limit of ${budgets.maxToolCalls} tool calls.`,
      };
    }
    if (usage.modelCalls >= budgets.maxRounds) {
      return {
        code: 'max_rounds',
        message: `Stopped: this prompt reached its limit of ${budgets.maxRounds} model calls without a final answer.`,
      };
    }
    if (usage.totalTokens >= budgets.maxTokens) {
      return {
        code: 'max_tokens',
        message: `Stopped: this prompt used ${usage.totalTokens} tokens, over its limit of ${budgets.maxTokens}.`,
      };
    }
    return undefined;
  }

  // ---- the model call -------------------------------------------------------------------------------

  #messages(): ModelMessage[] {
    const { outputs, options, projectionCache } = this.#runtime;
    const maxResultChars = options.maxResultChars;
    if (options.historyTokens !== undefined) {
      return promptsToMessages([...this.#history, this.#prompt], {
        outputs,
        maxResultChars,
        cache: projectionCache,
        budget: { maxTokens: options.historyTokens, estimate: this.#runtime.provider.estimateTokens },
      });
    }
    // Earlier prompts have ended and never change: their messages are joined once (and shared between runs
    // over the same history); each round projects only what is new in the current prompt.
    this.#historyMessages ??= projectHistory(this.#history, {
      outputs,
      maxResultChars,
      cache: projectionCache,
    });
    this.#projection ??= new PromptProjection(outputs, {
      bound: (text) => boundText(text, maxResultChars),
      maxChars: maxResultChars,
    });
    // A new array every round, made in one copy: the provider may keep what it was sent.
    return this.#historyMessages.concat(this.#projection.appendTo(this.#prompt, []));
  }

  async #callModel(round: Round, signal: AbortSignal): Promise<ModelTurn> {
    const { provider, options } = this.#runtime;
    const prompt = this.#prompt;
    // What the model streams is recorded in stream order (see ModelResponse).
    const response = new ModelResponse({
      record: (output) => this.#append(output),
      stream: (outputId, delta) => this.#publish({ type: 'prompt.text-delta', outputId, delta }),
    });
    const turn: ModelTurn = { calls: [] };
    const usage: ModelUsage[] = [];
    let stream: AsyncIterator<ModelStreamEvent> | undefined;
    try {
      stream = provider
        .stream(
          {
            model: options.models[prompt.model],
            modelClass: prompt.model,
            instructions: round.instructions,
            messages: this.#messages(),
            tools: round.definitions,
          },
          signal,
        )
        [Symbol.asyncIterator]();
      for (;;) {
        const next = await this.#read(stream, signal);
        if (next.done) break;
        const event = next.value;
        switch (event.type) {
          case 'usage':
            usage.push(event.usage);
            break;
          case 'finish':
            turn.finish = event.reason;
            break;
          case 'tool-call':
            // Unique in the record, whatever ids the model repeats (see CallIds).
            await response.add({ ...event, callId: this.#callIds.claim(event.callId) });
            break;
          default:
            await response.add(event);
        }
      }
    } finally {
      this.#stopRead = undefined;
      void stream?.return?.()?.catch?.(() => {}); // lets the provider clean up, without waiting for it
      await this.#addUsage(usage);
      // What the model said is recorded even when the call failed halfway; so are the calls it made, when
      // the loop ends (see #end).
      turn.calls = await response.finish();
      this.#batch = turn.calls;
    }
    return turn;
  }

  /**
   * The next event of a provider's stream, unless the run is aborted first (see `run`). By hand rather than
   * with an async generator and `Promise.race` around the stream: those cost a few promises per event.
   */
  #read<T>(stream: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      this.#stopRead = reject;
      stream.next().then(resolve, reject);
    });
  }

  async #addUsage(calls: ModelUsage[]): Promise<void> {
    const usage = { ...this.#prompt.usage, modelCalls: this.#prompt.usage.modelCalls + 1 };
    for (const call of calls) {
      usage.inputTokens += call.inputTokens;
      usage.outputTokens += call.outputTokens;
      usage.cachedInputTokens += call.cachedInputTokens ?? 0;
      usage.reasoningTokens += call.reasoningTokens ?? 0;
      usage.totalTokens += call.inputTokens + call.outputTokens;
      if (call.cost !== undefined) usage.cost = (usage.cost ?? 0) + call.cost;
    }
    this.#prompt = { ...this.#prompt, usage };
    await this.#runtime.store.prompts.update(this.#prompt.id, { usage });
  }

  // ---- tool calls -----------------------------------------------------------------------------------

  /**
   * Processes a batch in order. Consecutive read-only calls that may run now run in parallel. A call that
   * needs approval is recorded as `pending` and the calls after it are recorded unstarted (deferred);
   * returns true in that case.
   */
  async #processCalls(calls: OpenCall[], round: Round, signal: AbortSignal): Promise<boolean> {
    this.#batch = calls;
    const paused = await this.#processBatch(calls, round, signal);
    this.#batch = [];
    return paused;
  }

  async #processBatch(calls: OpenCall[], round: Round, signal: AbortSignal): Promise<boolean> {
    const decisions = new Map<number, Decision>();
    const decideAt = async (index: number): Promise<Decision> => {
      const known = decisions.get(index);
      if (known) return known;
      const decision = await decide(calls[index]!.output, round, {
        userId: this.#prompt.userId,
        stateOf: (offered) => this.#states.for(offered.plugin).get(),
      });
      decisions.set(index, decision);
      return decision;
    };

    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (call.output.startedAt) {
        // A call cut off by a crash may have had side effects: it is not run again, unless its tool is
        // read-only (and so safe to repeat).
        if (!round.tools.get(call.output.toolId)?.tool.readOnly || call.output.approval) {
          await this.#record(call, { endedAt: now() }, toolError('interrupted', INTERRUPTED));
          continue;
        }
        // What its first run emitted goes: the second run emits it again, and it must show once.
        await this.#removeEmitted(call.output.id);
        const { startedAt: _, ...unstarted } = call.output;
        call.output = unstarted;
      }
      signal.throwIfAborted();
      const decision = await decideAt(i);
      if (decision.kind === 'error') {
        await this.#record(call, { input: decision.input, endedAt: now() }, decision.result);
        continue;
      }
      if (!this.#mayStartTool()) {
        const { maxToolCalls } = this.#runtime.options.budgets;
        this.#toolBudgetReached = true;
        await this.#record(
          call,
          { input: decision.input, endedAt: now() },
          toolError(
            'budget_exceeded',
            `Not run: this prompt reached its limit of ${maxToolCalls} tool calls.`,
          ),
        );
        continue;
      }
      if (decision.kind === 'pending') {
        await this.#record(
          call,
          { input: decision.input, approval: { reason: decision.reason } },
          { type: 'pending', reason: decision.reason },
        );
        for (const deferred of calls.slice(i + 1))
          if (!deferred.recorded) await this.#append(deferred.output);
        return true;
      }
      const group = [{ call, decision }];
      if (decision.offered.tool.readOnly) {
        while (i + 1 < calls.length && !calls[i + 1]!.output.startedAt) {
          const next = await decideAt(i + 1);
          if (next.kind !== 'invoke' || !next.offered.tool.readOnly || !this.#mayStartTool(group.length))
            break;
          group.push({ call: calls[++i]!, decision: next });
        }
      }
      await this.#invokeGroup(group, signal);
    }
    return false;
  }

  #mayStartTool(alsoStarting = 0): boolean {
    let started = alsoStarting;
    for (const output of this.#prompt.output) if (output.type === 'tool' && output.startedAt) started++;
    return started < this.#runtime.options.budgets.maxToolCalls;
  }

  async #invokeGroup(
    group: { call: OpenCall; decision: Extract<Decision, { kind: 'invoke' }> }[],
    signal: AbortSignal,
  ): Promise<void> {
    for (const { call, decision } of group)
      await this.#record(call, { input: decision.input, startedAt: now() });
    await Promise.all(
      group.map(async ({ call, decision }) => {
        const result = await this.#invoke(call.output, decision.offered, decision.input, signal);
        await this.#record(call, { endedAt: now() }, result);
      }),
    );
  }

  #invoke(
    call: ToolOutput,
    offered: OfferedTool,
    input: unknown,
    signal: AbortSignal,
  ): Promise<PromptOutputToolResult> {
    const prompt = this.#prompt;
    const { plugins, services, options } = this.#runtime;
    return invokeTool(
      offered,
      {
        userId: prompt.userId,
        input,
        state: this.#states.for(offered.plugin),
        services,
        toolCallId: call.id,
        promptId: prompt.id,
        conversationId: prompt.conversationId,
        emit: (output) => this.#append(output, call.id),
        update: (outputId, output) => this.#updateEmitted(outputId, output, call.id),
        outputs: () => this.#prompt.output,
      },
      (base) => Object.assign({}, ...plugins.map((plugin) => plugin.toolInput?.(base))),
      {
        timeoutMs: offered.tool.timeoutMs ?? options.toolTimeoutMs,
        signal,
        watch: this.#calls,
        abortedResult: () => abortedResult(signal),
      },
    );
  }

  /** The call whose approval was just claimed (already marked started): invoke it once. */
  async #invokeApproved(toolCallId: string, signal: AbortSignal): Promise<void> {
    const output = this.#prompt.output.find((o): o is ToolOutput => o.type === 'tool' && o.id === toolCallId);
    if (!output || output.result) return;
    const call = { output, recorded: true };
    const round = await this.#prepare(signal);
    const offered = round.tools.get(output.toolId);
    const parsed = offered?.tool.input.safeParse(output.input);
    if (!offered || !parsed?.success) {
      await this.#record(
        call,
        { endedAt: now() },
        toolError(
          'unknown_tool',
          `'${output.toolId}' is no longer available, so the approved call was not run.`,
        ),
      );
      return;
    }
    const result = await this.#invoke(output, offered, parsed.data, signal);
    await this.#record(call, { endedAt: now() }, result);
  }

  // ---- recording ------------------------------------------------------------------------------------

  /** Writes a tool call's new state: appended the first time, replaced in place after that. */
  async #record(
    call: OpenCall,
    changes: Partial<ToolOutput>,
    result?: PromptOutputToolResult,
  ): Promise<void> {
    const current = call.recorded ? this.#find(call.output.id) : call.output;
    const next = { ...current, ...changes, ...(result && { result }) } as ToolOutput;
    call.output = next;
    if (call.recorded) await this.#replace(next);
    else {
      call.recorded = true;
      await this.#append(next);
    }
  }

  #find(outputId: string): ToolOutput {
    return this.#prompt.output.find((o) => o.id === outputId) as ToolOutput;
  }

  async #append(output: NewOutput | OutputBase, toolCallId?: string): Promise<string> {
    // Frozen once here, then shared by the prompt, the store and the events: nobody can change the record.
    const validated = immutableOwn(
      this.#runtime.outputs.validate({
        ...output,
        id: output.id ?? newId('out'),
        createdAt: (output as OutputBase).createdAt ?? now(),
        ...(toolCallId && { toolCallId }),
      } as OutputBase),
    );
    this.#prompt.output.push(validated);
    await this.#runtime.store.prompts.appendOutput(this.#prompt.id, validated);
    this.#publish({ type: 'prompt.output', output: validated });
    return validated.id;
  }

  /**
   * Takes out the outputs a call emitted (before a crash). Until its result is recorded the call still counts
   * as started, so a crash before then removes what a later run emitted again, and nothing is ever doubled.
   */
  async #removeEmitted(toolCallId: string): Promise<void> {
    const emitted = this.#prompt.output.filter((o) => o.toolCallId === toolCallId).map((o) => o.id);
    if (emitted.length === 0) return;
    await this.#runtime.store.prompts.update(this.#prompt.id, { removeOutputs: emitted });
    this.#prompt = { ...this.#prompt, output: this.#prompt.output.filter((o) => !emitted.includes(o.id)) };
    for (const outputId of emitted) this.#publish({ type: 'prompt.output-removed', outputId });
  }

  async #replace(output: OutputBase): Promise<void> {
    // `output` is always an object this class has just made, and so is what zod makes of it.
    const validated = immutableOwn(this.#runtime.outputs.validate(output));
    const index = this.#prompt.output.findIndex((o) => o.id === output.id);
    this.#prompt.output[index] = validated;
    await this.#runtime.store.prompts.update(this.#prompt.id, { outputs: [validated] });
    this.#publish({ type: 'prompt.output-updated', output: validated });
  }

  async #updateEmitted(outputId: string, output: NewOutput, toolCallId: string): Promise<void> {
    const existing = this.#prompt.output.find((o) => o.id === outputId);
    if (!existing || existing.type !== output.type || existing.type === 'tool') {
      throw new NotFoundError(
        `This prompt has no emitted output ${outputId} of type '${output.type}' to update.`,
      );
    }
    // The output stays attributed to the call that first emitted it, whichever call updates it.
    await this.#replace({
      ...output,
      id: outputId,
      createdAt: existing.createdAt,
      toolCallId: existing.toolCallId ?? toolCallId,
    } as OutputBase);
  }

  #publish(event: DistributiveOmit<Parameters<Runtime['bus']['publish']>[0], keyof Scope>): void {
    const { id: promptId, conversationId, userId } = this.#prompt;
    this.#runtime.bus.publish({ ...event, promptId, conversationId, userId } as never);
  }

  // ---- ending ---------------------------------------------------------------------------------------

  async #pause(): Promise<Prompt> {
    const pending = this.#prompt.output.find(
      (o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending',
    )!;
    await this.#setState('waiting_for_approval');
    this.#publish({
      type: 'prompt.approval-requested',
      toolCallId: pending.id,
      toolId: pending.toolId,
      input: pending.input,
      reason: (pending.result as { reason: string }).reason,
    });
    return this.#prompt;
  }

  async #end(
    state: PromptState,
    stopReason?: StopReason,
    openResult?: PromptOutputToolResult,
  ): Promise<Prompt> {
    // Invariant: every call gets exactly one result, whatever ended the loop.
    for (const call of this.#batch) if (!call.recorded) await this.#append(call.output);
    this.#batch = [];
    for (const open of this.#prompt.output.filter(isOpenTool)) {
      await this.#record(
        { output: open, recorded: true },
        { endedAt: now() },
        openResult ?? (open.startedAt ? toolError('interrupted', INTERRUPTED) : notRun(stopReason)),
      );
    }
    await this.#setState(state, stopReason);
    const event = state === 'completed' ? 'prompt.completed' : 'prompt.failed';
    this.#publish({ type: event, prompt: this.#prompt });
    return this.#prompt;
  }

  async #endWithError(error: unknown, signal: AbortSignal): Promise<Prompt> {
    if (signal.aborted && signal.reason === WALL_TIME) {
      const { maxWallTimeMs } = this.#runtime.options.budgets;
      return this.#end(
        'completed',
        {
          code: 'max_wall_time',
          message: `Stopped: this prompt ran longer than its limit of ${maxWallTimeMs} ms.`,
        },
        abortedResult(signal),
      );
    }
    if (signal.aborted) {
      return this.#end('cancelled', { code: 'cancelled', message: 'Cancelled.' }, abortedResult(signal));
    }
    const stop: StopReason = ModelError.is(error)
      ? { code: 'model_error', message: `The model call failed: ${error.message}` }
      : TesseraError.is(error)
        ? { code: error.code, message: error.message }
        : { code: 'internal_error', message: `Unexpected error: ${errorMessage(error)}` };
    return this.#end('failed', stop);
  }

  /** Records the state the loop stops in, and re-reads the prompt so what it returns is what is stored. */
  async #setState(state: PromptState, stopReason?: StopReason): Promise<void> {
    const { prompts } = this.#runtime.store;
    await prompts.update(this.#prompt.id, { state, stopReason });
    this.#prompt = ((await prompts.get(this.#prompt.id)) as Prompt | undefined) ?? {
      ...this.#prompt,
      state,
      ...(stopReason && { stopReason }),
    };
  }
}

type Scope = { promptId: string; conversationId: string; userId: string };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const INTERRUPTED = 'The call was interrupted before it finished; it may or may not have taken effect.';

/** A call that never started, closed because the loop ended (e.g. its model call failed after it). */
const notRun = (stop: StopReason | undefined): PromptOutputToolResult =>
  toolError(
    'cancelled',
    `Not run: the prompt ended before this call could run${stop ? ` (${stop.message})` : ''}.`,
  );

function abortedResult(signal: AbortSignal): PromptOutputToolResult {
  return signal.reason === WALL_TIME
    ? toolError('budget_exceeded', 'Stopped: the prompt reached its wall-time limit while this call ran.')
    : toolError('cancelled', 'The prompt was cancelled before this call finished.');
}

function finishStop(finish: FinishReason | undefined): StopReason | undefined {
  if (finish === 'length') {
    return {
      code: 'max_output_tokens',
      message: "The model's answer was cut off at its output token limit.",
    };
  }
  if (finish === 'content_filter') {
    return { code: 'content_filter', message: "The model's answer was stopped by its content filter." };
  }
  return undefined;
}
