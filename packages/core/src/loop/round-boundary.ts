import { errorMessage, HookError } from '../errors.ts';
import type { GuardrailOutput } from '../model/outputs.ts';
import type { StopReason } from '../model/prompt.ts';
import type { QueuedMessage } from '../model/queued-message.ts';
import type { GuardrailResult, ToolCallView } from '../plugins/hooks.ts';
import { runInput } from './approval.ts';
import type { HookEntry, HookScope } from './hook-table.ts';
import type { ModelTurn } from './model-call.ts';
import type { PromptRecord } from './prompt-record.ts';
import type { Runtime } from './runtime.ts';

/**
 * What happens between rounds, where nothing is half done (every call of the last round has its result):
 * steering messages reach the prompt, and plugins' `betweenRounds` hooks may pause or stop it; and the
 * checks around a model call: guardrails and `afterModelCall`.
 */
export class RoundBoundary {
  readonly #runtime: Runtime;
  readonly #record: PromptRecord;
  readonly #scope: HookScope;
  /**
   * Whether this run asked the store for steering messages yet (after a restart, nobody marked them). A
   * prompt this process just created needs no first look: whatever waits was marked (`RoundCaches`).
   */
  #askedStore: boolean;
  /** Steering recorded in this prompt that no model call has answered yet. */
  #unread: { message: QueuedMessage; outputId: string }[] = [];

  constructor(runtime: Runtime, record: PromptRecord, scope: HookScope, created: boolean) {
    this.#runtime = runtime;
    this.#record = record;
    this.#scope = scope;
    this.#askedStore = created;
  }

  /**
   * Before a model call: steering delivered, then `'paused'`, a reason to stop, or nothing (go on). Returns
   * no promise when there is nothing to do, as at most boundaries: no steering, no hooks.
   */
  check(signal: AbortSignal): Promise<'paused' | StopReason | undefined> | undefined {
    const { caches, hooks, store } = this.#runtime;
    const conversationId = this.#record.prompt.conversationId;
    const steering = !!store.messages && (!this.#askedStore || caches.steering.has(conversationId));
    if (!steering && hooks.betweenRounds.length === 0) return undefined;
    return this.#check(steering, signal);
  }

  async #check(steering: boolean, signal: AbortSignal): Promise<'paused' | StopReason | undefined> {
    const tripped = steering ? await this.#deliverSteering(signal) : undefined;
    if (tripped) return tripped;
    const prompt = this.#record.prompt;
    // Before the first model call, or right after the user let a pause continue, nothing is asked.
    const last = prompt.output.at(-1);
    if (prompt.usage.modelCalls === 0 || (last?.type === 'pause' && last.decision === 'continue'))
      return undefined;
    for (const entry of this.#runtime.hooks.betweenRounds) {
      const result = await this.#scope.call(entry, { round: prompt.usage.modelCalls });
      if (!result || result === 'continue') continue;
      if ('stop' in result)
        return {
          code: 'stopped_by_plugin',
          message: `Stopped by plugin '${entry.plugin.id}': ${String(result.stop)}`,
        };
      if ('pause' in result) {
        const reason = String(result.pause);
        await this.#record.append({ type: 'pause', source: 'plugin', plugin: entry.plugin.id, reason });
        return 'paused';
      }
    }
    return undefined;
  }

  /**
   * The conversation's steering messages, recorded as `steering` outputs in the order they were sent. Each
   * stays on the store's list until a model call that read it has answered (`markRead`): a prompt that ends
   * before that gives it back (`returnUnread`) and it runs as the next prompt. Nothing is lost, and a
   * process stopped in between finds the output and the message, and records nothing twice.
   */
  async #deliverSteering(signal: AbortSignal): Promise<StopReason | undefined> {
    const messages = this.#runtime.store.messages;
    const prompt = this.#record.prompt;
    const { steering } = this.#runtime.caches;
    if (!messages) return undefined;
    this.#askedStore = true;
    steering.delete(prompt.conversationId);
    const waiting = await messages.list(prompt.conversationId);
    for (const message of waiting) {
      // A steering message left when the last prompt ended runs as its own prompt, this one.
      if (message.mode !== 'steer' || message.id === prompt.id) continue;
      // A prompt being cancelled takes no more messages: they wait, and run as the next prompt.
      signal.throwIfAborted();
      const delivered = this.#record.prompt.output.find(
        (o) => o.type === 'steering' && o.messageId === message.id,
      );
      const outputId =
        delivered?.id ??
        (await this.#record.append({
          type: 'steering',
          text: message.input,
          messageId: message.id,
          userId: message.userId,
        }));
      if (!this.#unread.some((unread) => unread.message.id === message.id))
        this.#unread.push({ message, outputId });
      // What the user says while the prompt runs passes the same input guardrails as what started it.
      const trip = await this.#guard(
        'input',
        { input: message.input },
        { target: 'steering', targetId: outputId },
      );
      if (trip) {
        // Blocked is handled: it never runs, as steering or as a prompt.
        this.#unread = this.#unread.filter((unread) => unread.message.id !== message.id);
        await messages.remove(message.conversationId, [message.id]);
        return trip;
      }
    }
    return undefined;
  }

  /** A model call answered: the steering messages it read leave the store's list (no promise when none). */
  markRead(): Promise<void> | undefined {
    return this.#unread.length === 0 ? undefined : this.#markRead();
  }

  async #markRead(): Promise<void> {
    const read = this.#unread;
    this.#unread = [];
    const { conversationId } = this.#record.prompt;
    await this.#runtime.store.messages?.remove(
      conversationId,
      read.map(({ message }) => message.id),
    );
    for (const { message, outputId } of read)
      this.#record.publish({ type: 'prompt.steered', messageId: message.id, outputId });
  }

  /**
   * The prompt ends: steering it recorded that no model call answered leaves the record and waits again
   * (still on the store's list), to run as the next prompt.
   */
  async returnUnread(): Promise<void> {
    const messages = this.#runtime.store.messages;
    if (!messages) return;
    const prompt = this.#record.prompt;
    if (!this.#askedStore && prompt.output.some((o) => o.type === 'steering')) {
      // This run never looked (a prompt cancelled as it resumed): steering a stopped process recorded.
      for (const message of await messages.list(prompt.conversationId)) {
        const output = prompt.output.find((o) => o.type === 'steering' && o.messageId === message.id);
        if (output) this.#unread.push({ message, outputId: output.id });
      }
    }
    if (this.#unread.length === 0) return;
    const unread = this.#unread;
    this.#unread = [];
    await this.#record.remove(unread.map(({ outputId }) => outputId));
    for (const { message } of unread) {
      const scope = { promptId: message.id, conversationId: message.conversationId, userId: message.userId };
      this.#runtime.bus.publish({ type: 'message.queued', ...scope, message });
    }
  }

  /** The input guardrails, before the prompt's first model call: the first trip, or nothing. */
  inputGuardrails(): Promise<StopReason | undefined> {
    return this.#guard('input', { input: this.#record.prompt.input }, { target: 'input' });
  }

  /**
   * The output guardrails, on each model response whole (its text and its calls with their arguments),
   * before any of its calls runs. A trip withholds the response from the model from then on; its calls are
   * recorded, never run.
   */
  outputGuardrails(turn: ModelTurn): Promise<StopReason | undefined> {
    const { text, calls } = this.#responseView(turn);
    return this.#guard(
      'output',
      { text, calls, final: calls.length === 0 },
      {
        target: 'response',
        ...(turn.responseId !== undefined && { targetId: turn.responseId }),
        // Its calls are recorded before the trip (they are part of the response), and get a result when it ends.
        before: () => this.#record.recordUnrecorded(turn.calls),
      },
    );
  }

  /** A response as hooks and guardrails see it: its text, and its calls with the arguments they run with. */
  #responseView(turn: ModelTurn): { text: string; calls: ToolCallView[] } {
    const text = this.#record.prompt.output
      .filter((o) => o.type === 'text' && o.responseId === turn.responseId)
      .map((o) => (o as { text: string }).text)
      .join('');
    const calls = turn.calls.map(({ output }) => ({
      id: output.id,
      toolId: output.toolId,
      input: runInput(output),
    }));
    return { text, calls };
  }

  /** The `guardrail` guardrails in plugin order, each given `extra`: the first trip, recorded, or nothing. */
  async #guard(
    guardrail: 'input' | 'output',
    extra: object,
    trip: Pick<GuardrailOutput, 'target' | 'targetId'> & { before?: () => Promise<void> },
  ): Promise<StopReason | undefined> {
    const { hooks } = this.#runtime;
    const entries: HookEntry<(context: never) => GuardrailResult | Promise<GuardrailResult>>[] =
      guardrail === 'input' ? hooks.inputGuardrails : hooks.outputGuardrails;
    for (const entry of entries) {
      let reason: string | undefined;
      try {
        const result = await this.#scope.call(entry, extra as never);
        if (result && result.trip !== undefined) reason = String(result.trip);
      } catch (error) {
        if (!HookError.is(error)) throw error;
        this.#record.hookFailed(error);
        // Failing closed: a check that cannot tell lets nothing through.
        reason = `The ${guardrail} guardrail of '${entry.plugin.id}' failed: ${errorMessage(error.cause)}`;
      }
      if (reason === undefined) continue;
      // Recorded, so that what it blocked is never sent to the model again (see projection/withheld.ts).
      const { before, ...withheld } = trip;
      await before?.();
      await this.#record.append({
        type: 'guardrail',
        guardrail,
        plugin: entry.plugin.id,
        reason,
        ...withheld,
      });
      this.#record.publish({ type: 'prompt.guardrail-tripped', plugin: entry.plugin.id, guardrail, reason });
      return { code: 'guardrail', message: reason };
    }
    return undefined;
  }

  /** Each plugin's `afterModelCall`, with what the model answered; calls not yet run are recorded if one throws. */
  async afterModelCall(turn: ModelTurn): Promise<void> {
    const hooks = this.#runtime.hooks.afterModelCall;
    const response = { ...this.#responseView(turn), ...(turn.finish && { finish: turn.finish }) };
    try {
      const round = this.#record.prompt.usage.modelCalls - 1;
      for (const entry of hooks) await this.#scope.call(entry, { round, response });
    } catch (error) {
      await this.#record.recordUnrecorded(turn.calls);
      throw error;
    }
  }
}
