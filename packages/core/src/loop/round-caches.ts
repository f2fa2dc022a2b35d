import type { AnyPlugin, OfferedTool } from '../plugins/define-plugin.ts';
import type { ModelToolDefinition } from '../provider/provider.ts';
import type { AnyTool, BoundCreateTool } from '../tools/create-tool.ts';
import type { HistoryCallIds } from './call-ids.ts';

/** What the plugins contributed for one model call. */
export type Round = {
  tools: Map<string, OfferedTool>;
  definitions: ModelToolDefinition[];
  instructions: string;
};

/** What a round offers: the tools in the order plugins offered them, who offered each, as a map and as definitions. */
export type Offer = {
  tools: readonly AnyTool[];
  by: readonly AnyPlugin[];
  map: Map<string, OfferedTool>;
  definitions: readonly ModelToolDefinition[];
};

/** The value kept under `key`, made by `make` the first time. */
export function cached<K, V>(
  cache: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** At most this many conversations are marked in `RoundCaches.steering` and `RoundCaches.messages`. */
export const MARKS_MAX = 10_000;

/**
 * Marks a conversation in `marks` (as the newest), forgetting the oldest mark beyond `MARKS_MAX`: a mark of a
 * conversation whose prompts run in another process is never taken off here, and a long-lived process would
 * otherwise keep one for every conversation it ever heard of. A forgotten mark delays, never drops: the
 * periodic recovery and the next send find waiting messages, and steering left waiting runs at the prompt's end.
 */
export function mark(marks: Set<string>, conversationId: string): void {
  marks.delete(conversationId);
  marks.add(conversationId);
  if (marks.size > MARKS_MAX) marks.delete(marks.values().next().value!);
}

/** What rounds keep between them, owned by one platform's runtime (nothing is cached at module level). */
export class RoundCaches {
  /** Each tool's definition for the model. */
  readonly definitions = new WeakMap<AnyTool, ModelToolDefinition>();
  /**
   * The last round's offer. A round that offers the very same tools (by identity, in the same order, from
   * the same plugins), as most rounds do, reuses its map and definitions instead of building them again;
   * comparing is a few pointer checks per tool.
   */
  lastOffer: Offer | undefined;
  /** Each plugin's bound `tool` helper for `prepare()`. */
  readonly helpers = new WeakMap<AnyPlugin, BoundCreateTool<unknown>>();
  /**
   * Conversations that may have steering messages waiting: marked when one is sent (here, or in another
   * process through the relay), so that a round boundary asks the store only then, and once per run.
   */
  readonly steering = new Set<string>();
  /**
   * Conversations that may have messages of any mode waiting (`Store.messages`): marked when one is sent or
   * goes back to waiting (here, or in another process through the relay), when a prompt could not start
   * because the conversation was busy, and when more wait behind the one started; so that a prompt's end
   * asks the store for the next message only then. A mark a notification missed is made good by the
   * periodic recovery (`recover()` lists the conversations with messages) and by the next send.
   */
  readonly messages = new Set<string>();
  /**
   * Conversations found full (`conversation-size.ts`), by `fullKey`: a send to one is refused before anything
   * is written. A process that has not seen it full yet lets one more prompt in, which ends at once.
   */
  readonly full = new Set<string>();
  /** The size of each ended prompt of a history read, as stores hand out the same frozen record again. */
  readonly recordChars = new WeakMap<object, number>();
  /** The call ids of the histories runs were given, by their last prompt (see call-ids.ts). */
  readonly historyCallIds: HistoryCallIds = new WeakMap();
  /** The one round of a platform whose plugins have no `prepare()`: every round offers the same. */
  staticRound: Round | undefined;
}
