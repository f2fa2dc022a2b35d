import { type HookError, NotFoundError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { TesseraEvent } from '../events/events.ts';
import { newId } from '../ids.ts';
import { isoNow } from '../iso-now.ts';
import type {
  NewOutput,
  OutputBase,
  PromptOutput,
  PromptOutputToolResult,
  ToolOutput,
} from '../model/outputs.ts';
import type { Prompt, PromptState, StopReason } from '../model/prompt.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import { immutableOf, immutableOwn, immutableVersion } from '../store/frozen.ts';
import type { PromptPatch, Store } from '../store/store.ts';
import { OutputTally } from './output-tally.ts';

/** What of the runtime a prompt's record needs (the `Runtime` passes as it is). */
type RecordRuntime = { readonly bus: EventBus; readonly outputs: OutputRegistry; readonly store: Store };

/** A call the model made, and whether it is in the record yet. */
export type OpenCall = { output: ToolOutput; recorded: boolean };

type Scope = { promptId: string; conversationId: string; userId: string };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type PromptEvent = DistributiveOmit<TesseraEvent, keyof Scope>;

/**
 * One prompt's record as the loop writes it: every change goes to the store first, then is published. The
 * outputs are validated and frozen once, then shared by the prompt, the store and the events.
 *
 * What a model call leaves at its end (its usage, the outputs it said last) is staged rather than written:
 * it goes to the store with the record's next write (the first call of the round, or the prompt's final
 * state), in one `update` when the store can append in one (`PromptStore.appendsInUpdate`), and its events
 * are published then, before that write's own. The loop flushes before awaiting anything else (hooks, a
 * tool with side effects; a read-only call is written within QUIET_START_MS, see ToolBatch), so a staged
 * change is never more than a write away; a crash before it loses the model call whole.
 */
export class PromptRecord {
  readonly #runtime: RecordRuntime;
  #prompt: Prompt;
  #stagedUsage: Prompt['usage'] | undefined;
  #stagedOutputs: PromptOutput[] = [];
  #tally: OutputTally;

  constructor(runtime: RecordRuntime, prompt: Prompt) {
    this.#runtime = runtime;
    this.#prompt = { ...prompt, output: [...prompt.output] };
    this.#tally = OutputTally.of(this.#prompt.output);
  }

  /** Counts over the prompt's outputs, kept as they change (see OutputTally). */
  get tally(): OutputTally {
    return this.#tally;
  }

  get prompt(): Prompt {
    return this.#prompt;
  }

  publish(event: PromptEvent): void {
    const { id: promptId, conversationId, userId } = this.#prompt;
    this.#runtime.bus.publish({ ...event, promptId, conversationId, userId } as TesseraEvent);
  }

  /** A plugin's hook failed; what that leads to is recorded by whoever called it. */
  hookFailed(error: HookError, toolCallId?: string): void {
    const { pluginId: plugin, hook, message } = error;
    this.publish({ type: 'prompt.hook-failed', plugin, hook, message, ...(toolCallId && { toolCallId }) });
  }

  /** `known`: a tool output the loop made from typed parts (see `record`), whose schema needs no parse. */
  async append(output: NewOutput | OutputBase, toolCallId?: string, known = false): Promise<string> {
    const validated = this.#complete(output, toolCallId, known);
    this.#prompt.output.push(validated);
    this.#tally.count(validated, 1);
    await this.#write({ append: [validated] });
    this.publish({ type: 'prompt.output', output: validated });
    return validated.id;
  }

  /** Adds an output to the prompt now, and to the store with the next write (see the class comment). */
  stage(output: NewOutput | OutputBase): void {
    const validated = this.#complete(output);
    this.#prompt.output.push(validated);
    this.#tally.count(validated, 1);
    this.#stagedOutputs.push(validated);
  }

  /** Sets the prompt's usage now, and in the store with the next write. `usage`: deeply frozen (`immutableOwn`). */
  stageUsage(usage: Prompt['usage']): void {
    this.#prompt = { ...this.#prompt, usage };
    this.#stagedUsage = usage;
  }

  /** Writes what is staged, if anything. */
  flush(): Promise<unknown> | undefined {
    return this.#stagedUsage || this.#stagedOutputs.length > 0 ? this.#write({}) : undefined;
  }

  /** Writes what is staged while `pending` (started already, e.g. a hook) runs, and waits for both. */
  async flushThen<T>(pending: Promise<T>): Promise<T> {
    const flushing = this.flush();
    if (flushing) await Promise.all([flushing, pending]);
    return pending;
  }

  async replace(output: OutputBase, known = false): Promise<void> {
    const index = this.#indexOf(output.id);
    const previous = this.#prompt.output[index];
    // `output` is always an object the loop has just made, and so is what zod makes of it; a known one is a
    // new version of the output it replaces, of which only what changed is copied.
    const validated =
      known && previous
        ? immutableVersion(output as PromptOutput, previous)
        : immutableOwn(known ? (output as PromptOutput) : this.#runtime.outputs.validate(output));
    this.#prompt.output[index] = validated;
    if (previous) {
      this.#tally.count(previous, -1);
      this.#tally.count(validated, 1);
    }
    // An output still staged is written now, as it is now (a call about to start must be in the store).
    const staged = this.#stagedOutputs.findIndex((o) => o.id === output.id);
    if (staged >= 0) {
      this.#stagedOutputs[staged] = validated;
      await this.#write({});
      return;
    }
    await this.#write({ outputs: [validated] });
    this.publish({ type: 'prompt.output-updated', output: validated });
  }

  /**
   * Where the output `id` is in the prompt (-1 if not), searched from the newest: what the loop changes is
   * almost always among the last outputs (the call it runs), so a round does not read every output.
   */
  #indexOf(id: string): number {
    const outputs = this.#prompt.output;
    for (let i = outputs.length - 1; i >= 0; i--) if (outputs[i]!.id === id) return i;
    return -1;
  }

  #complete(output: NewOutput | OutputBase, toolCallId?: string, known = false): PromptOutput {
    // A known output is the loop's own new object, complete already: frozen as it is, not spread again.
    const complete =
      known && output.id !== undefined && !toolCallId
        ? (output as OutputBase)
        : ({
            ...output,
            id: output.id ?? newId('out'),
            createdAt: (output as OutputBase).createdAt ?? isoNow(),
            ...(toolCallId && { toolCallId }),
          } as OutputBase);
    return immutableOwn(known ? (complete as PromptOutput) : this.#runtime.outputs.validate(complete));
  }

  /**
   * Writes the patch with what is staged, then publishes the staged outputs. Without `appendsInUpdate`, the
   * outputs to append are written one by one first (a store written before it would ignore `append`). Not
   * async: the store's own promise is returned when there is nothing to publish after it (most writes).
   */
  #write(change: PromptPatch): Promise<unknown> {
    const staged = this.#stagedOutputs;
    const patch: PromptPatch = { ...change };
    // What was staged was made deeply frozen here (or by `addUsage`), before an await: named again as just
    // made (`immutableOf`), so that a store that keeps frozen values (the memory store) takes it as it is,
    // even when other prompts' rounds ran in between (without it, 1,000 prompts at once copied it all again).
    if (this.#stagedUsage && !patch.usage) patch.usage = immutableOf(this.#stagedUsage);
    for (const output of staged) immutableOf(output);
    if (staged.length > 0) {
      patch.append = change.append ? [...staged, ...change.append] : staged;
      this.#stagedOutputs = [];
    }
    this.#stagedUsage = undefined;
    const { prompts } = this.#runtime.store;
    const writing =
      patch.append && !prompts.appendsInUpdate
        ? this.#writeApart(patch)
        : prompts.update(this.#prompt.id, patch);
    if (staged.length === 0) return writing;
    return writing.then(() => {
      for (const output of staged) this.publish({ type: 'prompt.output', output });
    });
  }

  /** The outputs to append one by one, then the rest of the patch (for a store that cannot append in it). */
  async #writeApart({ append = [], ...rest }: PromptPatch): Promise<void> {
    const { prompts } = this.#runtime.store;
    const id = this.#prompt.id;
    for (const output of append) await prompts.appendOutput(id, output);
    if (Object.keys(rest).length > 0) await prompts.update(id, rest);
  }

  /**
   * Writes a tool call's new state: appended the first time, replaced in place after that. Not parsed by the
   * tool output's schema (a zod parse per write, twice a call): every field is typed, set by the loop itself,
   * and the one field of the model's or a tool's making that the schema would check, `result`, is made by
   * `storable`/`toolError`; values inside (`input`, a result's `output`) are `unknown` to the schema anyway.
   * An approval is still parsed: its reason may come from a plugin's policy.
   */
  record(call: OpenCall, changes: Partial<ToolOutput>, result?: PromptOutputToolResult): Promise<unknown> {
    const current = call.recorded ? this.#prompt.output[this.#indexOf(call.output.id)] : call.output;
    const next = { ...current, ...changes, ...(result && { result }) } as ToolOutput;
    // The model call's facts, made deeply frozen by ModelResponse before an await: taken as they are (see #write).
    if (!call.recorded && next.modelCall) immutableOf(next.modelCall);
    const known = changes.approval === undefined;
    call.output = next;
    if (call.recorded) return this.replace(next, known);
    call.recorded = true;
    return this.append(next, undefined, known);
  }

  /** Appends the calls of a batch not yet in the record, so that each gets its result when the loop ends. */
  async recordUnrecorded(calls: readonly OpenCall[]): Promise<void> {
    for (const call of calls) {
      if (call.recorded) continue;
      call.recorded = true;
      await this.append(call.output);
    }
  }

  /**
   * Takes out the outputs a call emitted (before a crash). Until its result is recorded the call still counts
   * as started, so a crash before then removes what a later run emitted again, and nothing is ever doubled.
   */
  removeEmitted(toolCallId: string): Promise<void> {
    return this.remove(this.#prompt.output.filter((o) => o.toolCallId === toolCallId).map((o) => o.id));
  }

  /** Takes these outputs out of the record (steering the model never read: it waits again). */
  async remove(outputIds: readonly string[]): Promise<void> {
    if (outputIds.length === 0) return;
    await this.#write({ removeOutputs: outputIds });
    this.#prompt = { ...this.#prompt, output: this.#prompt.output.filter((o) => !outputIds.includes(o.id)) };
    this.#tally = OutputTally.of(this.#prompt.output);
    for (const outputId of outputIds) this.publish({ type: 'prompt.output-removed', outputId });
  }

  async updateEmitted(outputId: string, output: NewOutput, toolCallId: string): Promise<void> {
    const existing = this.#prompt.output[this.#indexOf(outputId)];
    if (!existing || existing.type !== output.type || existing.type === 'tool') {
      throw new NotFoundError(
        `This prompt has no emitted output ${outputId} of type '${output.type}' to update.`,
      );
    }
    // The output stays attributed to the call that first emitted it, whichever call updates it.
    await this.replace({
      ...output,
      id: outputId,
      createdAt: existing.createdAt,
      toolCallId: existing.toolCallId ?? toolCallId,
    } as OutputBase);
  }

  /**
   * Records the state the loop stops in (with what is staged). The prompt kept here is what the store holds
   * (the loop wrote every part of it, its time too), so it is not read back.
   */
  async setState(state: PromptState, stopReason?: StopReason): Promise<void> {
    const updatedAt = isoNow();
    await this.#write({ state, stopReason, updatedAt });
    this.#prompt = { ...this.#prompt, state, ...(stopReason && { stopReason }), updatedAt };
  }
}
