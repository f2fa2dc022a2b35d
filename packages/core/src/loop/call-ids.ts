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
  readonly #cache: HistoryCallIds | undefined;
  #taken: ReadonlySet<string> | undefined;
  #used: Set<string> | undefined;

  /**
   * The conversation's earlier prompts, and the current one as it is recorded (read on the first claim only).
   * `cache`: the history's ids kept between runs (see `RoundCaches.historyCallIds`).
   */
  constructor(history: readonly Prompt[], current: { readonly prompt: Prompt }, cache?: HistoryCallIds) {
    this.#history = history;
    this.#current = current;
    this.#cache = cache;
  }

  /** The id the call the model named `modelId` is recorded with. */
  claim(modelId: string): string {
    if (!this.#used) {
      this.#taken = historyIds(this.#history, this.#cache);
      this.#used = idsIn([this.#current.prompt]);
    }
    const taken = modelId === '' || this.#used.has(modelId) || this.#taken!.has(modelId);
    const id = taken ? newId('call') : modelId;
    this.#used.add(id);
    return id;
  }
}

/** The call ids of a history, by its last prompt (see `historyIds`). */
export type HistoryCallIds = WeakMap<Prompt, { prompts: readonly Prompt[]; ids: ReadonlySet<string> }>;

function idsIn(prompts: readonly Prompt[]): Set<string> {
  const used = new Set<string>();
  for (const prompt of prompts) {
    for (const output of prompt.output) if (output.type === 'tool') used.add(output.callId);
  }
  return used;
}

/**
 * The call ids in `history`: counted once for the same prompt objects, which every run over the same history
 * gets from a store that keeps its records in memory (a record is frozen, and replaced when it changes), so a
 * run over a long history does not read all of its outputs again; compared by identity, prompt by prompt.
 */
function historyIds(history: readonly Prompt[], cache: HistoryCallIds | undefined): ReadonlySet<string> {
  const last = history.at(-1);
  if (!last || !cache) return idsIn(history);
  const known = cache.get(last);
  if (known && known.prompts.length === history.length && known.prompts.every((p, i) => p === history[i]))
    return known.ids;
  const ids = idsIn(history);
  cache.set(last, { prompts: [...history], ids });
  return ids;
}
