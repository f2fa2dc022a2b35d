import { HookError } from '../errors.ts';
import { isoNow as now } from '../iso-now.ts';
import type { PromptOutputToolResult, ToolOutput } from '../model/outputs.ts';
import type { OfferedTool } from '../plugins/define-plugin.ts';
import { approvedInput, type DecideContext, type Decision, decide } from './approval.ts';
import { budgetPause, budgetsOf, type ReachedBudget } from './budgets.ts';
import type { ConversationSize } from './conversation-size.ts';
import type { HookScope } from './hook-table.ts';
import type { ConversationStates } from './plugin-state.ts';
import type { OpenCall, PromptRecord } from './prompt-record.ts';
import type { Round } from './round-caches.ts';
import type { Runtime } from './runtime.ts';
import { CallWatch, invokeTool, resultChars } from './tool-calls.ts';
import { toolError } from './tool-result.ts';

export const INTERRUPTED =
  'The call was interrupted before it finished; it may or may not have taken effect.';

/**
 * A read-only call alone in its batch is written once it has run for this long, or once it ends, whichever
 * comes first: a call that ends sooner goes to the store in one write with its result (see #startQuietly).
 */
const QUIET_START_MS = 50;

type Invocation = { call: OpenCall; decision: Extract<Decision, { kind: 'invoke' }> };

/**
 * Runs a batch of tool calls in order: each is decided (see approval.ts), then recorded, run, or left
 * pending. Consecutive read-only calls that may run now run in parallel (at most `maxConcurrentTools` at
 * once). A call that needs approval is recorded `pending` and the calls after it are recorded unstarted
 * (deferred); so are the calls over the tool-call budget, behind a budget pause.
 */
export class ToolBatch {
  readonly #runtime: Runtime;
  readonly #record: PromptRecord;
  readonly #states: ConversationStates;
  readonly #scope: HookScope;
  readonly #size: ConversationSize;
  /** The tool calls that run: their timeouts, and stopping them when the run is aborted. */
  readonly watch = new CallWatch();
  /** What `decide` is given, made once rather than once per call. */
  readonly #decideContext: DecideContext;
  /** A call of this batch returned `suspendCall()`: it is recorded pending, and the calls after it wait. */
  #waiting = false;
  /** While a read-only group runs: its calls that suspended, in the order they returned. */
  #suspended: { call: OpenCall; result: PromptOutputToolResult }[] | undefined;

  constructor(
    runtime: Runtime,
    record: PromptRecord,
    states: ConversationStates,
    scope: HookScope,
    size: ConversationSize,
  ) {
    this.#runtime = runtime;
    this.#size = size;
    this.#record = record;
    this.#states = states;
    this.#scope = scope;
    this.#decideContext = {
      userId: record.prompt.userId,
      stateOf: (offered) => states.for(offered.plugin).get(),
      hooks: runtime.hooks,
      scope,
      hookFailed: (error, toolCallId) => record.hookFailed(error, toolCallId),
    };
  }

  /**
   * Processes the calls, up to one that waits for approval or a budget pause. Every call is in the record
   * after it. `approved` is the id of the call whose approval was just claimed: it is run once, with its
   * approved input.
   */
  process(calls: OpenCall[], round: Round, signal: AbortSignal, approved?: string): Promise<void> {
    return this.#process(calls, round, signal, approved).catch(async (error: unknown) => {
      // Whatever stopped the batch, each call is recorded, to be given its result when the loop ends.
      await this.#record.recordUnrecorded(calls);
      throw error;
    });
  }

  async #process(calls: OpenCall[], round: Round, signal: AbortSignal, approved?: string): Promise<void> {
    // Each call is decided once, when first needed (a read-only group looks one call ahead, and keeps it).
    let ahead: Decision | Promise<Decision> | undefined;
    this.#waiting = false;
    for (let i = 0; i < calls.length; i++) {
      if (this.#waiting) {
        // A call suspended (see suspendCall): the ones after it are deferred, as behind a pending approval.
        await this.#record.recordUnrecorded(calls.slice(i));
        return;
      }
      const call = calls[i]!;
      if (call.output.startedAt && !(await this.#restart(call, round, signal, approved))) continue;
      signal.throwIfAborted();
      const deciding = ahead ?? decide(call.output, round, this.#decideContext);
      // Hooks decide (a promise): what the model call staged is written first (see PromptRecord).
      const decision = deciding instanceof Promise ? await this.#record.flushThen(deciding) : deciding;
      ahead = undefined;
      const { edit } = decision;
      if (decision.kind === 'record') {
        await this.#record.record(call, { input: decision.input, ...edit, endedAt: now() }, decision.result);
        continue;
      }
      const reached = this.#toolBudgetReached();
      if (reached) {
        // The calls from here stay open behind a budget pause: a larger budget runs them (decided again).
        await this.#record.recordUnrecorded(calls.slice(i));
        await this.#record.append(budgetPause(reached));
        return;
      }
      if (decision.kind === 'pending') {
        const changes = { input: decision.input, ...edit, approval: { reason: decision.reason } };
        await this.#record.record(call, changes, { type: 'pending', reason: decision.reason });
        await this.#record.recordUnrecorded(calls.slice(i + 1));
        return;
      }
      const group: Invocation[] = [{ call, decision }];
      if (decision.offered.tool.readOnly) {
        while (i + 1 < calls.length && !calls[i + 1]!.output.startedAt) {
          ahead = decide(calls[i + 1]!.output, round, this.#decideContext);
          const next = ahead instanceof Promise ? await this.#record.flushThen(ahead) : ahead;
          if (next.kind !== 'invoke' || !next.offered.tool.readOnly || this.#toolBudgetReached(group.length))
            break;
          ahead = undefined;
          group.push({ call: calls[++i]!, decision: next });
        }
      }
      await this.#invokeGroup(group, signal);
    }
  }

  /**
   * A call that was started before (approved just now, or cut off by a crash). The call just approved is run
   * now, with its approved input validated again by the tool offered now (false: it is done). A call cut off by a crash may have had side
   * effects: it is not run again, unless its tool is read-only (true: decide it again) or idempotent (run
   * again: with its approved input if it was approved, else decided again).
   */
  async #restart(call: OpenCall, round: Round, signal: AbortSignal, approved?: string): Promise<boolean> {
    const { output } = call;
    const tool = round.tools.get(output.toolId)?.tool;
    if (output.id === approved || (tool?.idempotent && output.approval)) {
      // Run again after a crash, what its first run emitted goes (it emits it again): it must show once.
      if (output.id !== approved) await this.#record.removeEmitted(output.id);
      const runWith = approvedInput(output, round);
      if ('type' in runWith) await this.#record.record(call, { endedAt: now() }, runWith);
      else await this.#finish(call, runWith.input, runWith.offered, signal);
      return false;
    }
    if (!(tool?.readOnly || tool?.idempotent) || output.approval) {
      await this.#record.record(call, { endedAt: now() }, toolError('interrupted', INTERRUPTED));
      return false;
    }
    // What its first run emitted goes: the second run emits it again, and it must show once.
    await this.#record.removeEmitted(output.id);
    const { startedAt: _, ...unstarted } = output;
    call.output = unstarted;
    return true;
  }

  /**
   * The tool-call budget, if starting one more call (besides `alsoStarting`) would pass it: the platform's,
   * or the larger one the user continued with.
   */
  #toolBudgetReached(alsoStarting = 0): ReachedBudget | undefined {
    const { prompt, tally } = this.#record;
    const defaults = this.#runtime.options.budgets;
    // Counted as the record changes (see OutputTally); a raised budget only ever comes with a pause.
    const used = tally.started;
    const limit = (tally.pauses === 0 ? defaults : budgetsOf(prompt, defaults)).maxToolCalls;
    return used + alsoStarting < limit ? undefined : { name: 'maxToolCalls', limit, used };
  }

  #invokeGroup(group: Invocation[], signal: AbortSignal): Promise<void> {
    const [only] = group;
    if (group.length > 1) return this.#invokeAll(group, signal);
    // An idempotent tool finds its earlier run by its call's id (an agent, its child prompt): its call is
    // in the store before it runs, read-only or not.
    const { tool } = only!.decision.offered;
    return tool.readOnly && !tool.idempotent && !only!.call.recorded
      ? this.#startQuietly(only!, signal)
      : this.#start(only!, signal);
  }

  async #invokeAll(group: Invocation[], signal: AbortSignal): Promise<void> {
    // At most maxConcurrentTools at once, started in the model's order (a call waiting its turn is not
    // marked started); each result is recorded in its call's place, so the model reads them in its order.
    const { maxConcurrentTools } = this.#runtime.options.budgets;
    let next = 0;
    const worker = async () => {
      // Once the run is aborted, the calls still waiting are left unstarted (the loop's end closes them).
      while (next < group.length && !signal.aborted) await this.#start(group[next++]!, signal);
    };
    const workers = Math.max(1, Math.min(Math.floor(maxConcurrentTools) || 1, group.length));
    const suspended: { call: OpenCall; result: PromptOutputToolResult }[] = [];
    this.#suspended = suspended;
    try {
      await Promise.all(Array.from({ length: workers }, worker));
    } finally {
      this.#suspended = undefined;
    }
    if (suspended.length === 0) return;
    // The first in the model's order waits (every call before it has its result, as before a pending
    // approval); the others are unstarted again, to run once it is decided (they are read-only).
    const order = (entry: { call: OpenCall }) =>
      group.findIndex((invocation) => invocation.call === entry.call);
    suspended.sort((a, b) => order(a) - order(b));
    await this.#wait(suspended[0]!.call, suspended[0]!.result);
    for (const { call } of suspended.slice(1)) {
      await this.#record.removeEmitted(call.output.id);
      const { startedAt: _, ...unstarted } = call.output;
      call.output = unstarted;
      await this.#record.replace(unstarted);
    }
  }

  /** Records the call pending (it returned `suspendCall()`): the prompt waits for a decision on it. */
  async #wait(call: OpenCall, result: PromptOutputToolResult): Promise<void> {
    await this.#record.record(call, {}, result);
    this.#waiting = true;
  }

  async #start({ call, decision }: Invocation, signal: AbortSignal): Promise<void> {
    // No call starts once the conversation is over its bound (what those in flight return is recorded).
    this.#size.assert(this.#record.prompt);
    const changes: Partial<ToolOutput> = { input: decision.input, startedAt: now() };
    if (decision.edit) Object.assign(changes, decision.edit);
    await this.#record.record(call, changes);
    await this.#finish(call, decision.runWith, decision.offered, signal);
  }

  /**
   * Starts a read-only call without writing it: it is written when it has run for QUIET_START_MS, when it
   * first emits or updates an output (which must follow it in the record), or, if it ends before either,
   * with its result, in one write instead of two. Its tool has no side effects, so a crash while it runs
   * unwritten costs what a crash before a staged write costs (see PromptRecord): the model call is made again.
   */
  async #startQuietly({ call, decision }: Invocation, signal: AbortSignal): Promise<void> {
    this.#size.assert(this.#record.prompt);
    call.output = { ...call.output, input: decision.input, startedAt: now(), ...decision.edit };
    let starting: Promise<unknown> | undefined;
    const writeStart = () => {
      starting ??= this.#record.record(call, {});
      return starting;
    };
    const timer = setTimeout(() => void writeStart().catch(() => {}), QUIET_START_MS);
    try {
      await this.#finish(call, decision.runWith, decision.offered, signal, writeStart, () => {
        clearTimeout(timer);
        return starting;
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs a started call, lets `afterToolCall` hooks rewrite what the model reads, and records the result.
   * A call started unwritten (see #startQuietly) is written by `writeStart` before what it emits, and
   * `ended` stops its timer and gives the start's write still under way, awaited before the result's.
   */
  async #finish(
    call: OpenCall,
    input: unknown,
    offered: OfferedTool,
    signal: AbortSignal,
    writeStart?: () => Promise<unknown>,
    ended?: () => Promise<unknown> | undefined,
  ): Promise<void> {
    const result = await this.#invoke(call.output, offered, input, signal, writeStart);
    await ended?.();
    if (result.type === 'pending') {
      // It returned suspendCall(): it waits (in a group, the group decides which; see #invokeAll).
      if (this.#suspended) this.#suspended.push({ call, result });
      else await this.#wait(call, result);
      return;
    }
    const rewritten =
      this.#runtime.hooks.afterToolCall.length > 0
        ? await this.#afterToolCall(call.output, input, result)
        : undefined;
    // Object literals without spreads: this runs for every call.
    const changes: Partial<ToolOutput> = { endedAt: now() };
    if (rewritten) changes.rewrittenResult = rewritten;
    await this.#record.record(call, changes, result);
    this.#size.add(resultChars(result));
  }

  /** Each plugin's `afterToolCall` in order, each seeing the result the previous one left. */
  async #afterToolCall(
    output: ToolOutput,
    input: unknown,
    result: PromptOutputToolResult,
  ): Promise<PromptOutputToolResult | undefined> {
    let shown = result;
    let rewritten: PromptOutputToolResult | undefined;
    for (const entry of this.#runtime.hooks.afterToolCall) {
      const call = { id: output.id, toolId: output.toolId, input };
      try {
        const changed = await this.#scope.call(entry, { call, result: shown });
        if (!changed?.result) continue;
        shown =
          'error' in changed.result
            ? toolError('tool_failed', String(changed.result.error))
            : { type: 'success', output: changed.result.output ?? null };
        rewritten = shown;
      } catch (error) {
        if (!HookError.is(error)) throw error;
        this.#record.hookFailed(error, output.id);
        // Failing closed: the rewrite may have been a redaction, so the model does not read the raw result.
        return toolError('hook_failed', `The result is withheld: ${error.message}`);
      }
    }
    return rewritten;
  }

  #invoke(
    call: ToolOutput,
    offered: OfferedTool,
    input: unknown,
    signal: AbortSignal,
    writeStart?: () => Promise<unknown>,
  ): Promise<PromptOutputToolResult> {
    const record = this.#record;
    const prompt = record.prompt;
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
        // What a call emits follows it in the record: a call started unwritten is written first.
        emit: async (output) => {
          await writeStart?.();
          return record.append(output, call.id);
        },
        update: async (outputId, output) => {
          await writeStart?.();
          return record.updateEmitted(outputId, output, call.id);
        },
        outputs: () => record.prompt.output,
      },
      plugins,
      {
        timeoutMs: offered.tool.timeoutMs ?? options.toolTimeoutMs,
        signal,
        watch: this.watch,
        abortedResult: () => abortedResult(signal),
      },
    );
  }
}

/** Why the loop's own abort signal fired. */
export const CANCELLED = Symbol('cancelled');
export const WALL_TIME = Symbol('wall time');

export function abortedResult(signal: AbortSignal): PromptOutputToolResult {
  return signal.reason === WALL_TIME
    ? toolError('budget_exceeded', 'Stopped: the prompt reached its wall-time limit while this call ran.')
    : toolError('cancelled', 'The prompt was cancelled before this call finished.');
}
