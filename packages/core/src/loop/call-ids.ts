import { newId } from '../ids.ts';
import type { Prompt } from '../model/prompt.ts';

/**
 * The model's call ids in one conversation, so the record never holds two calls with one `callId` (their
 * outputs could not be told apart, and the projection would pair them wrongly). A call keeps the id the
 * model gave it, which is what its server expects back, unless that id is empty or already taken in the
 * conversation (servers that number calls `call_0` in every response, or repeat an id within one); then it
 * gets a fresh one of its own.
 */
export class CallIds {
  readonly #history: readonly Prompt[];
  readonly #current: { readonly prompt: Prompt };
  #used: Set<string> | undefined;

  /** The conversation's earlier prompts, and the current one as it is recorded (read on the first claim only). */
  constructor(history: readonly Prompt[], current: { readonly prompt: Prompt }) {
    this.#history = history;
    this.#current = current;
  }

  /** The id the call the model named `modelId` is recorded with. */
  claim(modelId: string): string {
    this.#used ??= this.#known();
    const id = modelId === '' || this.#used.has(modelId) ? newId('call') : modelId;
    this.#used.add(id);
    return id;
  }

  #known(): Set<string> {
    const used = new Set<string>();
    for (const prompt of [...this.#history, this.#current.prompt]) {
      for (const output of prompt.output) if (output.type === 'tool') used.add(output.callId);
    }
    return used;
  }
}
