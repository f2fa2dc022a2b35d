import type { PromptOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { ProjectionContext } from '../outputs/define-output.ts';
import type { OutputRegistry } from '../outputs/output-registry.ts';
import { type ModelMessage, userMessage } from '../provider/messages.ts';
import { appendGrouped, projectPrompt } from './prompts-to-messages.ts';
import { ResponseOrder } from './response-order.ts';

/**
 * The running prompt's projection, kept from one round to the next. Outputs are replaced, never changed in
 * place, so an output's messages stay valid for as long as it is the same object: a round projects only the
 * outputs that are new or were replaced since the last one. And as most rounds only add outputs at the end
 * (the last call with its result, or the answer), in the order the model reads them, such a round adds
 * their messages to the last projection and checks the order of those alone: with many prompts running at
 * once, reading every output and message of each again every round was a cache miss apiece.
 */
export class PromptProjection {
  readonly #outputs: OutputRegistry;
  readonly #context: ProjectionContext;
  #input?: { input: string; message: ModelMessage };
  /** The outputs projected last, in their order, and the messages of each (compared by identity). */
  readonly #seen: PromptOutput[] = [];
  readonly #projected: (readonly ModelMessage[])[] = [];
  /** The last projection when it was in order (nothing regrouped), with its order scan so far. */
  #last?: { input: string | undefined; messages: ModelMessage[]; order: ResponseOrder };

  constructor(outputs: OutputRegistry, context: ProjectionContext) {
    this.#outputs = outputs;
    this.#context = context;
  }

  /**
   * The prompt's messages, as `projectPrompt` makes them. Read-only, and valid until the next call: the
   * caller copies what it keeps or sends.
   */
  messages(prompt: Prompt): readonly ModelMessage[] {
    const extended = this.#extend(prompt);
    return extended ?? this.#project(prompt);
  }

  /** The last projection with the new outputs' messages added, if the prompt only grew and stays in order. */
  #extend(prompt: Prompt): ModelMessage[] | undefined {
    const last = this.#last;
    const { output } = prompt;
    const seen = this.#seen;
    if (!last || last.input !== prompt.input || output.length < seen.length) return undefined;
    for (let i = 0; i < seen.length; i++) if (seen[i] !== output[i]) return undefined;
    const { messages, order } = last;
    for (let i = seen.length; i < output.length; i++) {
      const current = output[i]!;
      const projected = this.#project1(current);
      if (!projected) return undefined;
      for (const message of projected) {
        messages.push(message);
        if (!order.next(message)) {
          // Out of order: projected again whole, and regrouped (its outputs' messages are kept).
          this.#last = undefined;
          return undefined;
        }
      }
    }
    return messages;
  }

  /** Every output's messages (projected again only where the output changed), regrouped if need be. */
  #project(prompt: Prompt): ModelMessage[] {
    this.#last = undefined;
    const messages: ModelMessage[] = [];
    if (prompt.input !== undefined && prompt.input !== '') {
      if (this.#input?.input !== prompt.input) {
        this.#input = { input: prompt.input, message: userMessage(prompt.input) };
      }
      messages.push(this.#input.message);
    }
    const { output } = prompt;
    const start = messages.length;
    for (let i = 0; i < output.length; i++) {
      const projected = this.#project1(output[i]!, i);
      if (!projected) return this.#whole(prompt);
      for (const message of projected) messages.push(message);
    }
    this.#seen.length = this.#projected.length = output.length;
    const order = new ResponseOrder();
    if (!order.all(messages, start)) return appendGrouped(messages.splice(start), messages);
    this.#last = { input: prompt.input, messages, order };
    return messages;
  }

  /**
   * The messages of the output at `index` (the next one by default), projected unless it is the one seen
   * there last; undefined for a guardrail. A guardrail ends the prompt when it trips, so a running prompt
   * rarely has one: then the prompt is projected whole (what it withheld is left out). It is looked for among
   * new outputs only: those seen before were not one.
   */
  #project1(output: PromptOutput, index = this.#seen.length): readonly ModelMessage[] | undefined {
    if (this.#seen[index] === output) return this.#projected[index];
    if (output.type === 'guardrail') return undefined;
    const messages = this.#outputs.project(output, this.#context);
    this.#seen[index] = output;
    this.#projected[index] = messages;
    return messages;
  }

  /** The prompt projected whole (with a guardrail in it); nothing kept, so each output is new again. */
  #whole(prompt: Prompt): ModelMessage[] {
    this.#last = undefined;
    this.#seen.length = this.#projected.length = 0;
    return projectPrompt(prompt, this.#outputs, this.#context);
  }
}
