import type { ResponseStreamEvent } from 'openai/resources/responses/responses';

/**
 * Past this many held events, order is given up and everything flows as it comes: a server that never
 * finishes an item must not make us keep its whole answer in memory.
 */
const MAX_HELD = 10_000;

const outputIndexOf = (event: ResponseStreamEvent): number | undefined => {
  const index = (event as { output_index?: unknown }).output_index;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined;
};

/**
 * A Responses stream with the events of each output item after those of the items before it (by
 * `output_index`), as OpenAI sends them. OpenRouter finishes a reasoning item (`response.output_item.done`)
 * only after the message that follows it; taken as they come, the reasoning would be recorded twice (its
 * streamed text when the message starts, then the item) and sent back after the message. So the events of a
 * later item wait while an earlier item is still open, and go on once it is done. Events that belong to
 * no item (the response's own) let everything held go first.
 */
export async function* inOutputOrder(
  events: AsyncIterable<ResponseStreamEvent>,
): AsyncGenerator<ResponseStreamEvent> {
  /** Items added and not yet done. */
  const open = new Set<number>();
  let held: ResponseStreamEvent[] = [];
  let ordered = true;

  const blocked = (index: number): boolean => {
    for (const earlier of open) if (earlier < index) return true;
    return false;
  };
  const pass = (event: ResponseStreamEvent, index: number): void => {
    if (event.type === 'response.output_item.added') open.add(index);
    else if (event.type === 'response.output_item.done') open.delete(index);
  };
  /**
   * The held events no open item blocks any more, in the order they came: one may unblock the next, and an
   * item's events stay behind its first one still held.
   */
  function* release(): Generator<ResponseStreamEvent> {
    for (let progress = true; progress && held.length > 0; ) {
      progress = false;
      const still: ResponseStreamEvent[] = [];
      const waiting = new Set<number>();
      for (const event of held) {
        const index = outputIndexOf(event)!;
        if (waiting.has(index) || blocked(index)) {
          waiting.add(index);
          still.push(event);
        } else {
          pass(event, index);
          progress = true;
          yield event;
        }
      }
      held = still;
    }
  }

  for await (const event of events) {
    const index = outputIndexOf(event);
    if (index === undefined || !ordered) {
      yield* held;
      held = [];
      yield event;
    } else if (blocked(index)) {
      held.push(event);
      if (held.length > MAX_HELD) {
        ordered = false;
        yield* held;
        held = [];
      }
    } else {
      pass(event, index);
      yield event;
      if (event.type === 'response.output_item.done' && held.length > 0) yield* release();
    }
  }
  yield* held;
}
