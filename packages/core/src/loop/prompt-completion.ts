import { errorMessage, HookError, ModelError, NotFoundError, TesseraError } from '../errors.ts';
import type { Conversation } from '../model/conversation.ts';
import type { PauseOutput, PromptOutputToolResult, ToolOutput } from '../model/outputs.ts';
import type { Prompt, StopReason } from '../model/prompt.ts';
import type { FinishReason } from '../provider/provider.ts';
import { budgetPause } from './budgets.ts';
import { CallIds } from './call-ids.ts';
import { ConversationSize } from './conversation-size.ts';
import { beforeFirstModelCall, historyView } from './history-hooks.ts';
import { HookScope } from './hook-table.ts';
import { ModelCalls } from './model-call.ts';
import { planStep } from './plan.ts';
import { ConversationStates } from './plugin-state.ts';
import { prepareRound } from './prepare-round.ts';
import { PromptRecord } from './prompt-record.ts';
import { RoundBoundary } from './round-boundary.ts';
import { mark, type Round } from './round-caches.ts';
import type { Runtime } from './runtime.ts';
import { abortedResult, CANCELLED, INTERRUPTED, ToolBatch, WALL_TIME } from './tool-batch.ts';
import { toolError } from './tool-result.ts';

export type RunOptions = {
  /** Cancels the run: the model call and running tools are aborted and the prompt ends `cancelled`. */
  signal?: AbortSignal;
  /** The id of a tool call whose approval was just claimed: it is invoked first. */
  approved?: string;
};

/**
 * One prompt's agent loop: a small executor over `planStep()` (plan.ts), which says from the record alone
 * what comes next: pause, end, process the open calls, or call the model. Every change is written to the
 * store before it is published, so the record survives the process and any process can resume it.
 */
export class PromptCompletion {
  readonly #runtime: Runtime;
  readonly #states: ConversationStates;
  readonly #history: readonly Prompt[];
  readonly #record: PromptRecord;
  readonly #model: ModelCalls;
  readonly #tools: ToolBatch;
  readonly #boundary: RoundBoundary;
  readonly #scope: HookScope;
  readonly #size: ConversationSize;
  #inputChecked = false;
  #viewChosen = false;

  /**
   * `created`: the prompt was just created by this process (`platform.start`), so its conversation's waiting
   * messages are known from `RoundCaches` alone; a prompt loaded from the store asks the store.
   */
  constructor(
    runtime: Runtime,
    prompt: Prompt,
    conversation: Conversation,
    history: readonly Prompt[],
    created = false,
  ) {
    this.#runtime = runtime;
    this.#record = new PromptRecord(runtime, prompt);
    this.#states = new ConversationStates(runtime.store, conversation);
    this.#history = history;
    this.#scope = new HookScope(runtime, this.#record, this.#states);
    this.#model = new ModelCalls(
      runtime,
      this.#record,
      history,
      new CallIds(history, this.#record, runtime.caches.historyCallIds),
    );
    this.#size = new ConversationSize(runtime, history);
    this.#tools = new ToolBatch(runtime, this.#record, this.#states, this.#scope, this.#size);
    this.#boundary = new RoundBoundary(runtime, this.#record, this.#scope, created);
  }

  /**
   * Loads a prompt with its conversation and history from the store alone. Its end asks the store for its
   * conversation's waiting messages (RoundCaches.messages): this process may never have heard of them, and a
   * store's `conversationsWithMessages` may leave out a conversation while this prompt holds it.
   */
  static async load(runtime: Runtime, promptId: string): Promise<PromptCompletion> {
    const prompt = (await runtime.store.prompts.get(promptId)) as Prompt | undefined;
    if (!prompt) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
    mark(runtime.caches.messages, prompt.conversationId);
    const conversation = await runtime.store.conversations.get(prompt.conversationId);
    if (!conversation) throw new NotFoundError(`Conversation ${prompt.conversationId} does not exist.`);
    const all = (await runtime.store.prompts.listByConversation(conversation.id)) as Prompt[];
    const index = all.findIndex((p) => p.id === promptId);
    return new PromptCompletion(runtime, prompt, conversation, all.slice(0, index < 0 ? all.length : index));
  }

  get prompt(): Prompt {
    return this.#record.prompt;
  }

  /** The tool the prompt's next round offers under `toolId` (runs the plugins' `prepare()` once). */
  async offeredTool(toolId: string) {
    await this.#states.migrate(this.#runtime.plugins);
    return (await this.#prepare(new AbortController().signal)).tools.get(toolId)?.tool;
  }

  async run(options: RunOptions = {}): Promise<Prompt> {
    const controller = new AbortController();
    const abort = (reason: symbol) => {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      this.#model.abort(reason); // a model call in progress gives up at once, even if its provider does not
      this.#tools.watch.abort(); // and so do the tools that run
    };
    const cancel = () => abort(CANCELLED);
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    const { maxWallTimeMs } = this.#runtime.options.budgets;
    const timer = Number.isFinite(maxWallTimeMs)
      ? setTimeout(() => abort(WALL_TIME), maxWallTimeMs)
      : undefined;
    this.#scope.signal = controller.signal;
    try {
      return await this.#loop(controller.signal, options.approved);
    } catch (error) {
      return await this.#endWithError(error, controller.signal);
    } finally {
      clearTimeout(timer);
      this.#tools.watch.close();
      options.signal?.removeEventListener('abort', cancel);
    }
  }

  async #loop(signal: AbortSignal, approved: string | undefined): Promise<Prompt> {
    // Plugins' stored state of an older version is migrated (and written back) before anything reads it.
    await this.#states.migrate(this.#runtime.plugins);
    // Nothing runs (no call given with the prompt either) over a history past the conversation's bound.
    if (this.#record.prompt.usage.modelCalls === 0) {
      const full = this.#size.check(this.#record.prompt);
      if (full) return this.#end('failed', full);
    }
    // The executor: each step planned from the record alone (plan.ts), then carried out. What waits for the
    // user (a pending call, a pause) is recorded first, and the next step pauses on it.
    for (;;) {
      const step = planStep(this.#record.prompt, this.#runtime.options.budgets, this.#record.tally);
      if (step.kind === 'pause') return this.#pause(step.pending);
      if (step.kind === 'end') return this.#end('completed', step.stop);
      if (step.kind === 'budget') await this.#record.append(budgetPause(step.reached));
      else if (step.kind === 'calls') {
        // The open calls belong to the last model call's round: prepared again for it, not for the next.
        const round = await this.#prepare(signal, Math.max(0, this.#record.prompt.usage.modelCalls - 1));
        const calls = step.open.map((output) => ({ output, recorded: true }));
        await this.#tools.process(calls, round, signal, approved);
      } else {
        const ended = await this.#modelRound(signal);
        if (ended) return ended;
      }
      approved = undefined;
    }
  }

  /** Round boundary checks, then one model call and its calls; the prompt if the loop ends. */
  async #modelRound(signal: AbortSignal): Promise<Prompt | undefined> {
    const { hooks } = this.#runtime;
    // The prompt's own record grows too (results, steering): no model call once it is over the bound.
    this.#size.assert(this.#record.prompt);
    if (!this.#inputChecked && this.#record.prompt.usage.modelCalls === 0) {
      this.#inputChecked = true;
      const trip = await this.#boundary.inputGuardrails();
      if (trip) return this.#end('failed', trip);
    }
    // Most boundaries have nothing to do, and cost no await (see RoundBoundary.check).
    const checking = this.#boundary.check(signal);
    const boundary = checking && (await checking);
    if (boundary === 'paused') return undefined;
    if (boundary) return this.#end(boundary.code === 'guardrail' ? 'failed' : 'completed', boundary);
    if (!this.#viewChosen) await this.#historyHooks(signal);
    // A round whose plugins have no prepare() is made once (no await for it then).
    const preparing = this.#prepare(signal);
    const unhooked = this.#model.request(preparing instanceof Promise ? await preparing : preparing);
    const prepared =
      hooks.beforeModelCall.length > 0 ? await this.#model.hooked(unhooked, this.#scope) : unhooked;
    if ('skip' in prepared) {
      this.#model.addUsage([]);
      if (prepared.skip) await this.#record.append({ type: 'text', text: prepared.skip });
      return this.#end('completed');
    }
    const turn = await this.#model.call(prepared, signal);
    this.#size.add(turn.chars ?? 0);
    const reading = this.#boundary.markRead();
    if (reading) await reading;
    // What the call left staged is written before hooks run (they may take long, or read the store).
    if (hooks.afterModelCall.length > 0) {
      await this.#record.flush();
      await this.#boundary.afterModelCall(turn);
    }
    // Every response passes the output guardrails whole before any of its calls runs (not only the last).
    if (hooks.outputGuardrails.length > 0) {
      await this.#record.flush();
      const trip = await this.#boundary.outputGuardrails(turn);
      if (trip) return this.#end('failed', trip);
    }
    if (turn.calls.length === 0) return this.#end('completed', FINISH_STOPS.get(turn.finish));
    await this.#tools.process(turn.calls, prepared.round, signal);
    return undefined;
  }

  /** Plugins' hooks over the history, before the run's first model call: see `history-hooks.ts`. */
  async #historyHooks(signal: AbortSignal): Promise<void> {
    if (this.#viewChosen) return;
    this.#viewChosen = true;
    const { hooks } = this.#runtime;
    if (hooks.beforeFirstModelCall.length > 0 && this.#record.prompt.usage.modelCalls === 0)
      await beforeFirstModelCall(this.#runtime, this.#record, this.#history, this.#scope, signal);
    if (hooks.historyView.length > 0)
      this.#model.setView(await historyView(this.#runtime, this.#history, this.#scope));
  }

  #prepare(signal: AbortSignal, round = this.#record.prompt.usage.modelCalls): Round | Promise<Round> {
    signal.throwIfAborted();
    const { staticRound } = this.#runtime.caches;
    if (staticRound) return staticRound;
    const prompt = this.#record.prompt;
    return prepareRound(this.#runtime, this.#states, { prompt, history: this.#history, round, signal });
  }

  // ---- ending ---------------------------------------------------------------------------------------

  /** Pauses for the user: the pending call's approval, or a pending pause's decision. */
  async #pause(pending: ToolOutput | PauseOutput): Promise<Prompt> {
    await this.#record.setState('waiting_for_approval');
    if (pending.type === 'tool') {
      this.#record.publish({
        type: 'prompt.approval-requested',
        toolCallId: pending.id,
        toolId: pending.toolId,
        // What the user is asked to approve: the arguments the call would run with (a hook's edit, if any).
        input: pending.editedInput !== undefined ? pending.editedInput : pending.input,
        reason: (pending.result as { reason: string }).reason,
      });
    } else {
      this.#record.publish({
        type: 'prompt.pause-requested',
        outputId: pending.id,
        source: pending.source,
        ...(pending.plugin && { plugin: pending.plugin }),
        ...(pending.budget && { budget: pending.budget }),
        reason: pending.reason,
      });
    }
    return this.#record.prompt;
  }

  async #end(
    state: keyof typeof END_EVENTS,
    stopReason?: StopReason,
    openResult?: PromptOutputToolResult,
  ): Promise<Prompt> {
    // Steering no model call answered waits again, to run as the next prompt: never lost.
    await this.#boundary.returnUnread();
    // Invariant: every call gets exactly one result, whatever ended the loop.
    for (const open of this.#record.prompt.output.filter(isOpenTool)) {
      await this.#record.record(
        { output: open, recorded: true },
        { endedAt: new Date().toISOString() },
        openResult ?? (open.startedAt ? toolError('interrupted', INTERRUPTED) : notRun(stopReason)),
      );
    }
    await this.#record.setState(state, stopReason);
    const prompt = this.#record.prompt;
    this.#record.publish({ type: END_EVENTS[state], prompt });
    return prompt;
  }

  async #endWithError(error: unknown, signal: AbortSignal): Promise<Prompt> {
    if (signal.aborted && signal.reason === WALL_TIME) {
      const { maxWallTimeMs } = this.#runtime.options.budgets;
      const stop = {
        code: 'max_wall_time',
        message: `Stopped: this prompt ran longer than its limit of ${maxWallTimeMs} ms.`,
      };
      return this.#end('completed', stop, abortedResult(signal));
    }
    if (signal.aborted) {
      return this.#end('cancelled', { code: 'cancelled', message: 'Cancelled.' }, abortedResult(signal));
    }
    if (HookError.is(error)) this.#record.hookFailed(error);
    const stop: StopReason = ModelError.is(error)
      ? { code: 'model_error', message: `The model call failed: ${error.message}` }
      : TesseraError.is(error)
        ? { code: error.code, message: error.message }
        : { code: 'internal_error', message: `Unexpected error: ${errorMessage(error)}` };
    return this.#end('failed', stop);
  }
}

const isOpenTool = (output: Prompt['output'][number]): output is ToolOutput =>
  output.type === 'tool' && !output.result;

/** The event each state the loop ends in publishes. */
const END_EVENTS = {
  completed: 'prompt.completed',
  cancelled: 'prompt.cancelled',
  failed: 'prompt.failed',
} as const;

/** A call that never started, closed because the loop ended (e.g. its model call failed after it). */
const notRun = (stop: StopReason | undefined): PromptOutputToolResult =>
  toolError(
    'cancelled',
    `Not run: the prompt ended before this call could run${stop ? ` (${stop.message})` : ''}.`,
  );

/**
 * How an answer the model did not finish ends the prompt, by finish reason (a map: the provider names it).
 * Frozen, as they are shared by every prompt that ends so.
 */
const FINISH_STOPS = new Map<FinishReason | undefined, StopReason>([
  [
    'length',
    Object.freeze({
      code: 'max_output_tokens',
      message: "The model's answer was cut off at its output token limit.",
    }),
  ],
  [
    'content_filter',
    Object.freeze({
      code: 'content_filter',
      message: "The model's answer was stopped by its content filter.",
    }),
  ],
]);
