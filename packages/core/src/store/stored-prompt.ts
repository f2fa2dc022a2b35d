import { NotFoundError } from '../errors.ts';
import type { OutputBase } from '../model/outputs.ts';
import type { PromptRecord } from '../model/prompt.ts';
import type { PromptPatch } from './store.ts';

/**
 * One prompt in the memory store. Writes change it in place (an output appended is pushed, not a new array
 * with every output copied), and the frozen record handed to readers is made again only when one is read
 * after a change: the loop writes a prompt several times a round and reads it back rarely.
 */
export class StoredPrompt {
  /** The record's fields in their order, `output` included (stale: `#output` is the array kept current). */
  readonly #fields: PromptRecord;
  #output: OutputBase[];
  #record: PromptRecord | undefined;

  /** `record`: deeply frozen already (its outputs are shared with the first reader). */
  constructor(record: PromptRecord) {
    this.#fields = { ...record };
    this.#output = [...record.output];
    this.#record = record;
  }

  get state(): PromptRecord['state'] {
    return this.#fields.state;
  }

  get conversationId(): string {
    return this.#fields.conversationId;
  }

  get userId(): string {
    return this.#fields.userId;
  }

  /** Frozen: it never changes, whatever is written afterwards. */
  read(): PromptRecord {
    let record = this.#record;
    if (!record) {
      const output = Object.freeze(this.#output.slice()) as PromptRecord['output'];
      record = Object.freeze({ ...this.#fields, output });
      this.#record = record;
    }
    return record;
  }

  outputIds(): string[] {
    return this.#output.map((output) => output.id);
  }

  /** `output`: frozen. */
  append(output: OutputBase, updatedAt: string): void {
    this.#output.push(output);
    this.#changed(updatedAt);
  }

  /** Applies a patch whose values are frozen; throws, changing nothing, when an output to replace is missing. */
  apply(patch: PromptPatch, updatedAt: string): void {
    const replacing = (patch.outputs ?? []).map((replacement) => {
      const index = this.#output.findLastIndex((o) => o.id === replacement.id); // mostly among the last
      if (index < 0) throw new NotFoundError(`Prompt ${this.#fields.id} has no output ${replacement.id}.`);
      return [index, replacement] as const;
    });
    const fields = this.#fields as { -readonly [K in keyof PromptRecord]: PromptRecord[K] };
    if (patch.state !== undefined) fields.state = patch.state;
    if (patch.usage !== undefined) fields.usage = patch.usage;
    if (patch.stopReason !== undefined) fields.stopReason = patch.stopReason;
    for (const [index, replacement] of replacing) this.#output[index] = replacement;
    const removed = patch.removeOutputs;
    if (removed?.length) this.#output = this.#output.filter((o) => !removed.includes(o.id));
    if (patch.append) for (const output of patch.append) this.#output.push(output);
    this.#changed(updatedAt);
  }

  #changed(updatedAt: string): void {
    (this.#fields as { updatedAt: string }).updatedAt = updatedAt;
    this.#record = undefined;
  }
}
