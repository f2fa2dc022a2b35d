import { HookError, ModelError } from '../errors.ts';
import type { Prompt } from '../model/prompt.ts';
import { boundText } from '../outputs/bounds.ts';
import type { OfferedTool } from '../plugins/define-plugin.ts';
import type { HistoryView, ModelCallRequest } from '../plugins/hooks.ts';
import { PromptProjection } from '../projection/prompt-projection.ts';
import { projectHistory, promptsToMessages } from '../projection/prompts-to-messages.ts';
import { overheadTokens, providerScale } from '../projection/request-size.ts';
import type { ModelMessage } from '../provider/messages.ts';
import {
  estimateTokens,
  estimatorFor,
  type FinishReason,
  type ModelStreamEvent,
  type ModelToolDefinition,
  type ModelUsage,
} from '../provider/provider.ts';
import { immutableOwn } from '../store/frozen.ts';
import type { CallIds } from './call-ids.ts';
import type { HookScope } from './hook-table.ts';
import { ModelResponse } from './model-response.ts';
import type { OpenCall, PromptRecord } from './prompt-record.ts';
import type { Round } from './round-caches.ts';
import type { Runtime } from './runtime.ts';

export type ModelTurn = {
  calls: OpenCall[];
  finish?: FinishReason;
  responseId?: string;
  /** Characters of text, reasoning and call arguments the response streamed. */
  chars?: number;
};

/**
 * The model calls of one prompt's run: the request (the projection of the record, changed by plugins'
 * `beforeModelCall` hooks), the stream read in order into outputs, and the usage.
 */
export class ModelCalls {
  readonly #runtime: Runtime;
  readonly #record: PromptRecord;
  readonly #history: readonly Prompt[];
  readonly #callIds: CallIds;
  #historyMessages?: readonly ModelMessage[];
  /** The history's estimated tokens and the provider's scale over it, once a run (the history is fixed). */
  #historyTokens?: number;
  #historyScale?: number;
  #estimate?: (messages: readonly ModelMessage[]) => number;
  /** The estimate of the request made last (with a history budget), recorded beside the provider's count. */
  #estimated: number | undefined;
  #requested?: readonly ModelMessage[];
  /** The current prompt's messages, kept between rounds: only new or replaced outputs are projected. */
  #projection?: PromptProjection;
  /** Rejects the read of the model's stream in progress, when the run is aborted. */
  #stopRead: ((reason: unknown) => void) | undefined;

  constructor(runtime: Runtime, record: PromptRecord, history: readonly Prompt[], callIds: CallIds) {
    this.#runtime = runtime;
    this.#record = record;
    this.#history = history;
    this.#callIds = callIds;
  }

  /** The run was aborted: a model call in progress gives up at once, even if its provider does not. */
  abort(reason: unknown): void {
    this.#stopRead?.(reason);
  }

  #messages(instructions: string, tools: readonly ModelToolDefinition[]): ModelMessage[] {
    const { outputs, options, projectionCache, provider } = this.#runtime;
    const maxResultChars = options.maxResultChars;
    const prompt = this.#record.prompt;
    // What plugins' `historyView` hooks chose the model reads (set once a run, before its first request);
    // without one, the whole history.
    const view = this.#view;
    const history = view?.prompts ?? this.#history;
    // Earlier prompts have ended and never change: their messages are joined once (and shared between runs
    // over the same history); each round projects only what is new in the current prompt.
    this.#historyMessages ??= withBefore(
      view?.before,
      projectHistory(history, { outputs, maxResultChars, cache: projectionCache }),
    );
    this.#projection ??= new PromptProjection(outputs, {
      bound: (text) => boundText(text, maxResultChars),
      maxChars: maxResultChars,
    });
    const current = this.#projection.messages(prompt);
    // The budget applies to the view, after the hooks that made it: whatever a plugin puts in, it fits.
    const limit = options.historyTokens;
    if (limit === undefined) {
      this.#estimated = undefined;
      // A new array every round, made in one copy: the provider may keep what it was sent.
      return this.#historyMessages.concat(current);
    }
    // Every request must fit: measured by the estimate, scaled by how the provider counted the last request
    // it reported on. Not by the provider's last count itself: that request may have been trimmed already.
    this.#estimate ??= estimatorFor(provider, options.models[prompt.model]) ?? estimateTokens;
    const estimate = this.#estimate;
    const overhead = overheadTokens(instructions, tools, estimate);
    this.#historyTokens ??= estimate(this.#historyMessages);
    const scale = this.#scale(prompt);
    const whole = overhead + this.#historyTokens + estimate(current);
    if (whole * scale <= limit) {
      this.#estimated = whole;
      return this.#historyMessages.concat(current);
    }
    // Over: the oldest whole prompts are left out until the rest fits (never the current one); what the
    // view puts before them stays.
    const before = view?.before?.length ? estimate(view.before) : 0;
    const messages = promptsToMessages([...history, prompt], {
      outputs,
      maxResultChars,
      cache: projectionCache,
      budget: { maxTokens: Math.floor(limit / scale) - overhead - before, estimate },
    });
    this.#estimated = overhead + before + estimate(messages);
    return withBefore(view?.before, messages) as ModelMessage[];
  }

  /** The provider's tokens per estimated token: from this prompt's last call, else from the history's. */
  #scale(prompt: Prompt): number {
    const own = providerScale([prompt]);
    if (own !== undefined) return own;
    this.#historyScale ??= providerScale(this.#history) ?? 1;
    return this.#historyScale;
  }

  #view?: HistoryView;
  /**
   * What the model reads of the history this run, as plugins' `historyView` hooks chose (see history-hooks):
   * set before the run's first request, so before anything of the history is projected or counted.
   */
  setView(view: HistoryView | undefined): void {
    this.#view = view;
  }

  /** The request as the record and the round make it, before any hook. */
  request(round: Round): Prepared {
    const request = {
      instructions: round.instructions,
      messages: this.#messages(round.instructions, round.definitions),
      tools: round.definitions,
    };
    this.#requested = request.messages;
    return { request, round };
  }

  /** The request after every `beforeModelCall` hook in plugin order; `skip` when one skipped the call. */
  async hooked(prepared: Prepared, scope: HookScope): Promise<Request> {
    let { request } = prepared;
    const { round } = prepared;
    for (const entry of this.#runtime.hooks.beforeModelCall) {
      const result = await scope.call(entry, { round: this.#record.prompt.usage.modelCalls, request });
      if (!result) continue;
      if ('skip' in result) return { skip: String(result.skip?.text ?? ''), round };
      const fault = requestFault(result, round);
      if (fault) throw new HookError(entry.plugin.id, entry.name, fault);
      request = { ...request, ...result };
    }
    return { request, round: narrowed(round, request) };
  }

  async call(prepared: Prepared, signal: AbortSignal): Promise<ModelTurn> {
    const { provider, options } = this.#runtime;
    const prompt = this.#record.prompt;
    // What the model streams is recorded in stream order (see ModelResponse).
    const response = new ModelResponse(this.#record);
    const turn: ModelTurn = { calls: [], responseId: response.id };
    const usage: ModelUsage[] = [];
    let stream: AsyncIterator<ModelStreamEvent | readonly ModelStreamEvent[]> | undefined;
    let failed = true;
    let ended = false;
    try {
      const request = { model: options.models[prompt.model], modelClass: prompt.model, ...prepared.request };
      // In batches when the provider can (one await per batch), else event by event.
      const batched = provider.streamBatches !== undefined;
      stream = (batched ? provider.streamBatches!(request, signal) : provider.stream(request, signal))[
        Symbol.asyncIterator
      ]();
      for (;;) {
        const next = await this.#read(stream, signal);
        if (next.done) {
          ended = true;
          break;
        }
        if (!batched) {
          const taking = this.#take(next.value as ModelStreamEvent, response, turn, usage);
          if (taking) await taking;
          continue;
        }
        const batch = next.value;
        if (!Array.isArray(batch))
          throw new ModelError(`The provider streamed a batch that is not an array.`);
        // All of a batch is taken, as the events read before an abort are: the model made those calls.
        for (const event of batch as readonly ModelStreamEvent[]) {
          const taking = this.#take(event, response, turn, usage);
          if (taking) await taking;
        }
      }
      failed = false;
    } finally {
      this.#stopRead = undefined;
      // A stream left before its end may let the provider clean up, without waiting for it.
      if (!ended) void stream?.return?.()?.catch?.(() => {});
      this.addUsage(usage);
      // What the model said is recorded even when the call failed halfway; so are the calls it made, which
      // then get a result saying they were not run when the loop ends. What it said last is staged, written
      // with the usage by the record's next write (see PromptRecord).
      const finished = response.finish({
        model: options.models[prompt.model],
        usage,
        finish: turn.finish,
        ...this.#estimateOf(prepared.request),
      });
      turn.calls = finished instanceof Promise ? await finished : finished;
      turn.chars = response.chars;
      if (failed) await this.#record.recordUnrecorded(turn.calls);
    }
    return turn;
  }

  /** One event of the stream; a promise only when it records something. */
  #take(
    event: ModelStreamEvent,
    response: ModelResponse,
    turn: ModelTurn,
    usage: ModelUsage[],
  ): Promise<void> | undefined {
    if (event.type === 'usage') usage.push(event.usage);
    else if (event.type === 'finish') turn.finish = event.reason;
    // Unique in the record, whatever ids the model repeats (see CallIds).
    else if (event.type === 'tool-call')
      return response.add({ ...event, callId: this.#callIds.claim(event.callId) });
    else return response.add(event);
    return undefined;
  }

  /** The request's estimate, for the record (only with a history budget); again when a hook changed it. */
  #estimateOf(request: ModelCallRequest): { estimatedInputTokens?: number } {
    if (this.#estimated === undefined || !this.#estimate) return {};
    if (request.messages === this.#requested) return { estimatedInputTokens: this.#estimated };
    return {
      estimatedInputTokens:
        overheadTokens(request.instructions, request.tools, this.#estimate) +
        this.#estimate(request.messages),
    };
  }

  /**
   * The next event of a provider's stream, unless the run is aborted first. By hand rather than with an
   * async generator and `Promise.race` around the stream: those cost a few promises per event.
   */
  #read<T>(stream: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      this.#stopRead = reject;
      stream.next().then(resolve, reject);
    });
  }

  /** Counts one model call (made, or skipped by a hook) and its usage, staged for the record's next write. */
  addUsage(calls: ModelUsage[]): void {
    const usage = { ...this.#record.prompt.usage, modelCalls: this.#record.prompt.usage.modelCalls + 1 };
    for (const call of calls) {
      usage.inputTokens += call.inputTokens;
      usage.outputTokens += call.outputTokens;
      usage.cachedInputTokens += call.cachedInputTokens ?? 0;
      usage.reasoningTokens += call.reasoningTokens ?? 0;
      usage.totalTokens += call.inputTokens + call.outputTokens;
      if (call.cost !== undefined) usage.cost = (usage.cost ?? 0) + call.cost;
    }
    // Frozen here, so a store that keeps frozen copies (the memory store) takes it without a second copy.
    this.#record.stageUsage(immutableOwn(usage));
  }
}

type Prepared = { request: ModelCallRequest; round: Round };

const withBefore = (before: readonly ModelMessage[] | undefined, messages: readonly ModelMessage[]) =>
  before?.length ? [...before, ...messages] : messages;
export type Request = Prepared | { skip: string; round: Round };

/** What is wrong with a hook's change to the request: tools the round does not offer, malformed messages. */
function requestFault(change: Partial<ModelCallRequest>, round: Round): string | undefined {
  if (change.instructions !== undefined && typeof change.instructions !== 'string')
    return 'instructions must be a string';
  if (change.tools !== undefined) {
    if (!Array.isArray(change.tools)) return 'tools must be an array';
    const unknown = change.tools.find((tool) => !round.tools.has(tool?.name));
    if (unknown) return `it offers the tool '${String(unknown?.name)}', which this round does not`;
  }
  if (change.messages !== undefined) {
    if (!Array.isArray(change.messages)) return 'messages must be an array';
    return messagesFault(change.messages);
  }
  return undefined;
}

/** A request's messages must pair every call with exactly one output after it, as the model APIs require. */
export function messagesFault(messages: readonly ModelMessage[]): string | undefined {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const message of messages) {
    if (message?.type === 'function_call') {
      if (open.has(message.callId) || answered.has(message.callId))
        return `call ${message.callId} appears twice`;
      open.add(message.callId);
    } else if (message?.type === 'function_call_output') {
      if (!open.delete(message.callId)) return `the output of ${message.callId} has no call before it`;
      answered.add(message.callId);
    }
  }
  return open.size > 0 ? `calls without an output: ${[...open].join(', ')}` : undefined;
}

/** The round with only the tools the request still offers: a call to a tool a hook took away is unknown. */
function narrowed(round: Round, request: ModelCallRequest): Round {
  if (request.tools === round.definitions) return round;
  const tools = new Map<string, OfferedTool>();
  for (const { name } of request.tools) tools.set(name, round.tools.get(name)!);
  return { ...round, tools, definitions: [...request.tools] };
}
