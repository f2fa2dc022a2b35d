import { ModelError } from '../errors.ts';
import { newId } from '../ids.ts';
import { isoNow } from '../iso-now.ts';
import type { ModelCallFacts, ReasoningOutput, TextOutput, ToolOutput } from '../model/outputs.ts';
import type { FinishReason, ModelStreamEvent, ModelUsage } from '../provider/provider.ts';
import { immutableOwn } from '../store/frozen.ts';
import type { OpenCall, PromptRecord } from './prompt-record.ts';
import { parseArguments } from './tool-calls.ts';

type Said = TextOutput | ReasoningOutput;

type Segment = { kind: 'text' | 'refusal' | 'reasoning'; id: string; chunks: string[] };

/**
 * The most one model response may hold, in characters of text, reasoning and call arguments: about 500,000
 * tokens, over what any model writes in one answer. A provider that streams without end (a broken or hostile
 * endpoint) would otherwise grow this process's memory and the record until the wall time.
 */
export const MAX_RESPONSE_CHARS = 2_000_000;
/** The most tool calls one model response may make (models make a few at once; budgets run at most 100). */
export const MAX_RESPONSE_CALLS = 256;

/** What the caller knows of the call when its stream ends; the response adds the times it saw. */
export type CallEnd = {
  model?: string;
  usage?: readonly ModelUsage[];
  finish?: FinishReason;
  /** Tessera's estimate of the request, kept beside the provider's count (see `ModelCallFacts`). */
  estimatedInputTokens?: number;
};

/**
 * One model response as it streams, turned into outputs in the order the model produced them, each with
 * the response's id. Text, refusal and reasoning text are gathered delta by delta into one output each (a
 * new one whenever the stream turns to something else); tool calls are parsed. What the model says before
 * its first call is recorded as soon as it is complete. From the first call on, outputs wait for the end of
 * the stream: calls are recorded only when they are processed, so text that follows them is recorded after
 * them, with them, at the end (the common answer, text and then calls, records nothing early). Streamed
 * text is published as it comes.
 */
export class ModelResponse {
  readonly id = newId('rsp');
  readonly #record: PromptRecord;
  /** From `finish` on, what the response records is staged: written with the record's next write (see PromptRecord). */
  #finishing = false;
  #segment: Segment | undefined;
  /** From the first call on, in stream order. */
  readonly #after: (Said | ToolOutput)[] = [];
  #calls = 0;
  /** Characters the response has streamed so far (see MAX_RESPONSE_CHARS). */
  #chars = 0;
  /** Made just before the provider is asked (see `ModelCalls.call`). */
  readonly #startedAt = isoNow();
  #firstTokenAt: string | undefined;
  /** The call's facts, once the stream ended: they go on the last output recorded. */
  #facts: ModelCallFacts | undefined;
  /** The last output recorded before the end, in case none is left to carry the facts. */
  #lastRecorded: Said | undefined;

  constructor(record: PromptRecord) {
    this.#record = record;
  }

  /** Takes the next event; returns a promise only when it records something (most events record nothing). */
  add(event: ModelStreamEvent): Promise<void> | undefined {
    this.#firstTokenAt ??= isoNow();
    this.#bound(event);
    switch (event.type) {
      case 'text-delta':
        return this.#delta('text', event.delta);
      case 'refusal-delta':
        return this.#delta('refusal', event.delta);
      case 'reasoning-delta':
        return this.#delta('reasoning', event.delta);
      case 'reasoning': {
        const open = this.#segment?.kind === 'reasoning' ? this.#segment : undefined;
        const closing = open ? undefined : this.#close();
        this.#segment = undefined;
        const text = event.text ?? open?.chunks.join('');
        const output: Said = {
          type: 'reasoning',
          id: open?.id ?? newId('out'),
          createdAt: isoNow(),
          ...(event.summary !== undefined && { summary: event.summary }),
          ...(text ? { text } : {}),
          ...(event.providerData !== undefined && { providerData: event.providerData }),
          responseId: this.id,
        };
        return closing ? closing.then(() => this.#said(output)) : this.#said(output);
      }
      case 'tool-call': {
        const closing = this.#close();
        this.#calls++;
        this.#after.push({
          type: 'tool',
          id: newId('call'),
          createdAt: isoNow(),
          callId: event.callId,
          toolId: event.name,
          ...parseArguments(event.arguments),
          responseId: this.id,
        });
        return closing;
      }
    }
    return undefined;
  }

  /** Characters of text, reasoning and call arguments streamed so far. */
  get chars(): number {
    return this.#chars;
  }

  /** Fails the call (what came before is kept) past the response's bounds. */
  #bound(event: ModelStreamEvent): void {
    if (event.type === 'tool-call') {
      if (this.#calls >= MAX_RESPONSE_CALLS) {
        throw new ModelError(
          `The response made more than ${MAX_RESPONSE_CALLS} tool calls, the most one may make.`,
        );
      }
      this.#chars += typeof event.arguments === 'string' ? event.arguments.length : 0;
    } else if (event.type === 'reasoning') {
      this.#chars += (event.text?.length ?? 0) + (event.summary?.length ?? 0);
    } else if ('delta' in event && typeof event.delta === 'string') {
      this.#chars += event.delta.length;
    }
    if (this.#chars > MAX_RESPONSE_CHARS) {
      throw new ModelError(
        `The response was longer than ${MAX_RESPONSE_CHARS.toLocaleString('en-US')} characters, the most one may be; what came before is kept.`,
      );
    }
  }

  /**
   * The stream ended, or failed: records what is left and returns the calls in order. They stay out of the
   * record (to be recorded as they are processed) unless the model said something after them.
   */
  finish(end: CallEnd): OpenCall[] | Promise<OpenCall[]> {
    this.#finishing = true;
    this.#facts = this.#callFacts(end);
    const closing = this.#close();
    if (this.#facts && this.#calls > 0) {
      // The last output of the response is not recorded yet: it carries the facts.
      const last = this.#after.length - 1;
      this.#after[last] = { ...this.#after[last]!, modelCall: this.#facts };
      this.#facts = undefined;
    }
    if (closing || this.#after.length > this.#calls) return this.#recordAll(closing);
    const calls = this.#after.map((output) => ({ output: output as ToolOutput, recorded: false }));
    // Everything was recorded while the stream ran (or nothing was said): the last output gets the facts.
    const facts = this.#facts;
    const last = this.#lastRecorded;
    if (!facts || !last) return calls;
    return this.#record.replace({ ...last, modelCall: facts } as Said).then(() => calls);
  }

  #callFacts(end: CallEnd): ModelCallFacts {
    // Assigned in this key order rather than spread from conditional literals (a temporary object each).
    const facts = {} as ModelCallFacts;
    if (end.model !== undefined) facts.model = end.model;
    facts.startedAt = this.#startedAt;
    if (this.#firstTokenAt !== undefined) facts.firstTokenAt = this.#firstTokenAt;
    facts.endedAt = isoNow();
    if (end.usage?.length) facts.usage = immutableOwn(sumUsage(end.usage));
    if (end.finish !== undefined) facts.finishReason = end.finish;
    if (end.estimatedInputTokens !== undefined) facts.estimatedInputTokens = end.estimatedInputTokens;
    // Made frozen (its parts are the loop's own): the output that carries it is recorded without copying it.
    return immutableOwn(facts);
  }

  async #recordAll(closing: Promise<void> | undefined): Promise<OpenCall[]> {
    await closing;
    const calls: OpenCall[] = [];
    const recordAll = this.#after.length > this.#calls;
    for (const output of this.#after) {
      if (recordAll) await this.#save(output);
      if (output.type === 'tool') calls.push({ output, recorded: recordAll });
    }
    return calls;
  }

  #delta(kind: Segment['kind'], delta: string): Promise<void> | undefined {
    if (this.#segment?.kind !== kind) {
      // What came before is recorded before the next piece shows, so events follow the stream.
      const closing = this.#close();
      if (closing) return closing.then(() => this.#delta(kind, delta));
      this.#segment = { kind, id: newId('out'), chunks: [] };
    }
    const segment = this.#segment!;
    segment.chunks.push(delta);
    if (kind !== 'reasoning')
      this.#record.publish({ type: 'prompt.text-delta', outputId: segment.id, delta });
    return undefined;
  }

  #close(): Promise<void> | undefined {
    const segment = this.#segment;
    if (!segment) return undefined;
    this.#segment = undefined;
    const text = segment.chunks.length === 1 ? segment.chunks[0]! : segment.chunks.join('');
    if (text === '') return undefined;
    const base = { id: segment.id, createdAt: isoNow(), responseId: this.id };
    return this.#said(
      segment.kind === 'reasoning'
        ? { type: 'reasoning', ...base, text }
        : { type: 'text', ...base, text, ...(segment.kind === 'refusal' && { refusal: true as const }) },
    );
  }

  #said(output: Said): Promise<void> | undefined {
    if (this.#calls > 0) {
      this.#after.push(output);
      return undefined;
    }
    // Said at the end of the stream (the call's facts are known): the facts go with it.
    const facts = this.#facts;
    this.#facts = undefined;
    const recorded = facts ? { ...output, modelCall: facts } : output;
    this.#lastRecorded = recorded;
    return this.#save(recorded);
  }

  /** Appends a complete output to the record, or stages it once the response finishes (no promise then). */
  #save(output: Said | ToolOutput): Promise<void> | undefined {
    if (!this.#finishing) return this.#record.append(output).then(() => {});
    this.#record.stage(output);
    return undefined;
  }
}

/** One call's usage events as one usage (a provider may send several). */
function sumUsage(events: readonly ModelUsage[]): NonNullable<ModelCallFacts['usage']> {
  if (events.length === 1) return { ...events[0]! };
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 } as Required<
    Omit<ModelUsage, 'cost'>
  > & { cost?: number };
  for (const event of events) {
    usage.inputTokens += event.inputTokens;
    usage.outputTokens += event.outputTokens;
    usage.cachedInputTokens += event.cachedInputTokens ?? 0;
    usage.reasoningTokens += event.reasoningTokens ?? 0;
    if (event.cost !== undefined) usage.cost = (usage.cost ?? 0) + event.cost;
  }
  return usage;
}
